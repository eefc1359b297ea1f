// GRAPH search, step 1: the scopes a relationship question names. $names are the spellings of the
// target (as typed, camel/Pascal/snake joins); the name and qualified-name indexes answer both parts.
// Each candidate carries its number of edges of the question's types in either direction, so the
// caller can rank an ambiguous name by how much of an answer each candidate has.
MATCH (s:Scope)
WHERE s.name IN $names AND s.repoId IN $repoIds AND s.kind <> 'file'
RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
  COUNT { (s)<-[r]-(:Scope) WHERE type(r) IN $edgeTypes } AS inDegree,
  COUNT { (s)-[r]->(:Scope) WHERE type(r) IN $edgeTypes } AS outDegree
UNION
MATCH (s:Scope)
WHERE s.qualifiedName IN $names AND s.repoId IN $repoIds AND s.kind <> 'file'
RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
  COUNT { (s)<-[r]-(:Scope) WHERE type(r) IN $edgeTypes } AS inDegree,
  COUNT { (s)-[r]->(:Scope) WHERE type(r) IN $edgeTypes } AS outDegree
