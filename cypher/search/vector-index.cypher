// Semantic list without filters: approximate nearest neighbors from the vector index. One row
// holding the list, best first: a row per hit cost the driver and Neo4j more than the hit itself.
CALL db.index.vector.queryNodes('scope_embedding', $k, $vector) YIELD node AS s, score
WITH s.id AS id, score
ORDER BY score DESC, id
RETURN collect({id: id, score: score}) AS hits
