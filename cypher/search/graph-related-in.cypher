// GRAPH search, step 2 (edges pointing at the anchors: subclasses, implementers, callers, users).
// One shortest path per related scope, up to $maxDepth hops over $edgeTypes, nearest first; the
// search filters apply to the related scopes. The quantifier's upper bound is the largest depth any
// relation walks (a class hierarchy); the walk stops at $maxDepth (one branch per depth, since a
// quantifier takes no parameter: expanding three hops and keeping one cost a hub with a thousand
// callers ~50k db hits). Imports point at files:
// with $viaFile the walk starts at the file that declares the anchor.
CYPHER 25
UNWIND range(0, size($anchorIds) - 1) AS anchorRank
MATCH (named:Scope {id: $anchorIds[anchorRank]})
// The declaring file by its id (the unique index): matching on repoId and path read every file of the
// repository, and only when $viaFile is it needed.
OPTIONAL MATCH (file:File {id: named.repoId + ':' + named.path + '#' + named.path + '|file'})
WHERE $viaFile
WITH anchorRank, named, CASE WHEN $viaFile AND file IS NOT NULL THEN file ELSE named END AS a
CALL (a) {
  CALL (a) {
    FILTER $maxDepth = 1
    MATCH p = ANY SHORTEST (a)<-[r WHERE type(r) IN $edgeTypes]-{1,1}(n:Scope)
    WHERE n <> a
    RETURN n, p
    UNION ALL
    FILTER $maxDepth = 2
    MATCH p = ANY SHORTEST (a)<-[r WHERE type(r) IN $edgeTypes]-{1,2}(n:Scope)
    WHERE n <> a
    RETURN n, p
    UNION ALL
    FILTER $maxDepth >= 3
    MATCH p = ANY SHORTEST (a)<-[r WHERE type(r) IN $edgeTypes]-{1,3}(n:Scope)
    WHERE n <> a
    RETURN n, p
  }
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
