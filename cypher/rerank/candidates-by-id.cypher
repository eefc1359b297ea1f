// The scopes a client wants reranked, by id (startRerank). The caller puts them back in its order.
// Source is cut to $sourceChars characters; ids that match no scope are simply absent (the caller
// reports them).
UNWIND $ids AS id
MATCH (s:Scope {id: id})
RETURN s.id AS id, s.repoId AS repoId, s.name AS name, coalesce(s.qualifiedName, s.name) AS qualifiedName, s.kind AS kind,
  s.language AS language, s.path AS path, s.signature AS signature, s.docComment AS docComment,
  left(coalesce(s.source, ''), $sourceChars) AS source, s.contentHash AS contentHash
