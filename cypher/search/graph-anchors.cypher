// GRAPH search, step 1: the scopes a relationship question names. $names are the spellings of the
// target (as typed, camel/Pascal/snake joins); the name and qualified-name indexes answer both parts.
// Each candidate carries its number of edges of the question's types in either direction, so the
// caller can rank an ambiguous name by how much of an answer each candidate has.
// A name defined in thousands of places (`__virtual__` in every Salt loader module: 20,425 scopes
// at 1M) would cost a degree count per definition, so each lookup reads at most $scan candidates,
// the likeliest first: spelled exactly as $target, then of a kind in $targetKinds (null: any kind),
// then the other spellings (index order within each). `definitions` counts every scope carrying one
// of the names, from the indexes alone (no property read, no degree).
CYPHER 25
CALL () {
  RETURN COUNT { MATCH (s:Scope) WHERE s.name IN $names AND s.repoId IN $repoIds } AS byName,
    COUNT { MATCH (s:Scope) WHERE s.qualifiedName IN $names AND s.repoId IN $repoIds } AS byQualifiedName
}
CALL () {
  MATCH (s:Scope) WHERE s.qualifiedName = $target AND s.repoId IN $repoIds AND s.kind <> 'file'
  RETURN s LIMIT $scan
  UNION
  MATCH (s:Scope) WHERE s.name = $target AND s.repoId IN $repoIds AND s.kind <> 'file' AND ($targetKinds IS NULL OR s.kind IN $targetKinds)
  RETURN s LIMIT $scan
  UNION
  MATCH (s:Scope) WHERE s.name = $target AND s.repoId IN $repoIds AND s.kind <> 'file'
  RETURN s LIMIT $scan
  UNION
  MATCH (s:Scope) WHERE s.qualifiedName IN $names AND s.repoId IN $repoIds AND s.kind <> 'file'
  RETURN s LIMIT $scan
  UNION
  MATCH (s:Scope) WHERE s.name IN $names AND s.repoId IN $repoIds AND s.kind <> 'file'
  RETURN s LIMIT $scan
}
RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
  COUNT { (s)<-[r]-(:Scope) WHERE type(r) IN $edgeTypes } AS inDegree,
  COUNT { (s)-[r]->(:Scope) WHERE type(r) IN $edgeTypes } AS outDegree,
  CASE WHEN byName > byQualifiedName THEN byName ELSE byQualifiedName END AS definitions
