// Every scope of the given repositories with what an embedding text may be made of: its own fields
// (as the ingest embedding phase reads them), its path, its enclosing scope (name, kind, doc comment)
// and the names of the scopes it calls and that call it. Read-only; bench/search/embedder-compare.ts.
MATCH (s:Scope)
WHERE s.repoId IN $repoIds
OPTIONAL MATCH (parent:Scope)-[:DECLARES|HAS_MEMBER]->(s)
WITH s, head(collect(parent)) AS parent
OPTIONAL MATCH (s)-[:CALLS]->(callee:Scope)
WITH s, parent, collect(DISTINCT callee.name)[0..$maxNames] AS callees
OPTIONAL MATCH (caller:Scope)-[:CALLS]->(s)
WITH s, parent, callees, collect(DISTINCT caller.name)[0..$maxNames] AS callers
RETURN s.id AS id, s.repoId AS repoId, s.kind AS kind, s.language AS language, s.path AS path, s.name AS name,
  s.qualifiedName AS qualifiedName, s.signature AS signature, s.docComment AS docComment,
  left(s.source, $maxSourceChars) AS source,
  parent.kind AS parentKind, parent.qualifiedName AS parentName, left(parent.docComment, $maxSourceChars) AS parentDoc,
  callees, callers
ORDER BY s.id
