// LOCALIZE, spreading: callees and callers of the scopes the stack frames landed on, one hop over
// CALLS, at most $perSeed each way per seed, in the seeds' order.
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
RETURN i AS seedIndex, a.qualifiedName AS fromName, b.id AS id, direction
ORDER BY seedIndex, direction DESC
