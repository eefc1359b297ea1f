// Graph expansion around search hits: for each seed, one shortest path to every Scope within the
// depth, over the allowed edge types and direction, nearest first, at most $perSeed per seed.
//
// TEMPLATE: the pattern placeholder after ANY SHORTEST is filled in by libs/search
// (graph/expansion-cypher.ts) because relationship types and a path's length bound cannot be
// $parameters. The pattern is built only from constants: edge types from the EDGE_TYPES allow-list
// (libs/ingest graph-model.ts), a depth of 1..3 and one of three direction forms; user text never
// reaches it. Its generated forms are snapshot-tested (expansion-cypher.spec.ts).
CYPHER 25
UNWIND range(0, size($seedIds) - 1) AS seedRank
MATCH (seed:Scope {id: $seedIds[seedRank]})
CALL (seed) {
  MATCH p = ANY SHORTEST {{PATTERN}}
  WHERE n <> seed
  RETURN n, p
  ORDER BY length(p), n.id
  LIMIT $perSeed
}
RETURN seed.id AS fromId, seedRank, n.id AS id, length(p) AS depth,
  [x IN nodes(p) | x.id] AS nodeIds,
  [r IN relationships(p) | type(r)] AS edgeTypes,
  [r IN relationships(p) | coalesce(r.provenance, CASE r.resolver WHEN 'precise' THEN 'compiler' WHEN 'scip' THEN 'scip' WHEN 'fast' THEN 'name' END)] AS provenances,
  [i IN range(0, length(p) - 1) | CASE WHEN startNode(relationships(p)[i]) = nodes(p)[i] THEN 'out' ELSE 'in' END] AS directions
ORDER BY depth, seedRank, id
