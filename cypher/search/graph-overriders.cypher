// GRAPH search, "what overrides X" for a method X: members of the same name in the classes that
// extend or implement X's class (up to 3 levels), nearest first. The path runs X -> its class ->
// down the hierarchy -> the overriding method.
CYPHER 25
UNWIND range(0, size($anchorIds) - 1) AS anchorRank
MATCH (a:Scope {id: $anchorIds[anchorRank]})<-[:HAS_MEMBER]-(c:Scope)
MATCH p = (sub:Scope)-[:EXTENDS|IMPLEMENTS]->{1,3}(c)
MATCH (sub)-[:HAS_MEMBER]->(n:Scope {name: a.name})
WHERE n.repoId IN $repoIds
  AND n.kind IN $kinds
  AND n.language IN $languages
  AND ($paths IS NULL OR n.path IN $paths)
  AND ($pathContains IS NULL OR n.path CONTAINS $pathContains)
  AND ($name IS NULL OR n.name = $name OR n.qualifiedName = $name)
WITH a, anchorRank, n, p ORDER BY length(p)
WITH a, anchorRank, n, head(collect(p)) AS p
RETURN a.id AS anchorId, anchorRank, n.id AS id, n.kind AS kind, length(p) + 1 AS depth,
  [a.id] + reverse([x IN nodes(p) | x.id]) + [n.id] AS nodeIds,
  ['HAS_MEMBER'] + reverse([r IN relationships(p) | type(r)]) + ['HAS_MEMBER'] AS edgeTypes,
  ['in'] + [r IN relationships(p) | 'in'] + ['out'] AS directions
ORDER BY anchorRank, depth, n.path
LIMIT $perAnchor
