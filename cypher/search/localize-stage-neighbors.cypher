// LOCALIZE, after the fusion: callees and callers of the best functions over CALLS (at most
// $perSeed each way per seed, in the seeds' order) with the fields a result shows and their source
// cut to $sourceChars, in one read rather than their ids and then their records.
UNWIND range(0, size($seedIds) - 1) AS i
MATCH (a:Scope {id: $seedIds[i]})
CALL (a) {
  MATCH (a)-[:CALLS]->(b:Scope)
  WHERE b.kind IN $kinds AND b.repoId = a.repoId
  RETURN b, 'out' AS direction
  LIMIT $perSeed
  UNION
  MATCH (a)<-[:CALLS]-(b:Scope)
  WHERE b.kind IN $kinds AND b.repoId = a.repoId
  RETURN b, 'in' AS direction
  LIMIT $perSeed
}
RETURN i AS seedIndex, a.qualifiedName AS fromName, direction, b.id AS id, b.repoId AS repoId, b.name AS name,
  b.qualifiedName AS qualifiedName, b.kind AS kind, b.language AS language, b.path AS path, b.parentId AS parentId,
  b.startLine AS startLine, b.endLine AS endLine, b.signature AS signature, b.docComment AS docComment,
  CASE WHEN $sourceChars IS NULL THEN b.source ELSE left(b.source, $sourceChars) END AS source,
  coalesce(size(b.source), 0) AS sourceLength
ORDER BY seedIndex, direction DESC
