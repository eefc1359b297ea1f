// The fields a search result shows, for the final hits only (lists carry ids and scores). Source is
// cut to $sourceChars characters when set; sourceLength tells the client how long it really is.
// With $links, also which of the other requested scopes each one calls, references, extends,
// implements or overrides, or is called, referenced... by (the second stage's link evidence).
UNWIND $ids AS id
MATCH (s:Scope {id: id})
RETURN s.id AS id, s.repoId AS repoId, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind,
  s.language AS language, s.path AS path, s.parentId AS parentId, s.startLine AS startLine, s.endLine AS endLine,
  s.signature AS signature, s.docComment AS docComment,
  CASE WHEN $sourceChars IS NULL THEN s.source ELSE left(s.source, $sourceChars) END AS source,
  coalesce(size(s.source), 0) AS sourceLength,
  CASE WHEN $links THEN [(s)-[:CALLS|REFERENCES|EXTENDS|IMPLEMENTS|OVERRIDES]-(o:Scope) WHERE o.id IN $ids AND o.id <> s.id | o.id] END AS linked
