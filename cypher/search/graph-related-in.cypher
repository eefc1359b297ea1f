// GRAPH search, step 2 (edges pointing at the anchors: subclasses, implementers, callers, users).
// One shortest path per related scope, up to $maxDepth hops over $edgeTypes, nearest first; the
// search filters apply to the related scopes. The quantifier's upper bound is the largest depth any
// relation walks (a class hierarchy); depth-1 relations stop at $maxDepth. Imports point at files:
// with $viaFile the walk starts at the file that declares the anchor.
CYPHER 25
UNWIND range(0, size($anchorIds) - 1) AS anchorRank
MATCH (named:Scope {id: $anchorIds[anchorRank]})
OPTIONAL MATCH (file:File {repoId: named.repoId, path: named.path})
WITH anchorRank, named, CASE WHEN $viaFile AND file IS NOT NULL THEN file ELSE named END AS a
CALL (a) {
  MATCH p = ANY SHORTEST (a)<-[r WHERE type(r) IN $edgeTypes]-{1,3}(n:Scope)
  WHERE length(p) <= $maxDepth AND n <> a
  RETURN n, p
  ORDER BY length(p), n.path, n.qualifiedName
  LIMIT $perAnchor
}
WITH named, anchorRank, n, p
WHERE n.repoId IN $repoIds
  AND n.kind IN $kinds
  AND n.language IN $languages
  AND ($paths IS NULL OR n.path IN $paths)
  AND ($pathContains IS NULL OR n.path CONTAINS $pathContains)
  AND ($name IS NULL OR n.name = $name OR n.qualifiedName = $name)
RETURN named.id AS anchorId, anchorRank, n.id AS id, n.kind AS kind, length(p) AS depth,
  [x IN nodes(p) | x.id] AS nodeIds,
  [r IN relationships(p) | type(r)] AS edgeTypes,
  [r IN relationships(p) | coalesce(r.provenance, CASE r.resolver WHEN 'precise' THEN 'compiler' WHEN 'scip' THEN 'scip' WHEN 'fast' THEN 'name' END)] AS provenances,
  [r IN relationships(p) | 'in'] AS directions
ORDER BY anchorRank, depth
