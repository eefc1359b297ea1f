// Semantic list without filters: approximate nearest neighbors from the vector index.
CALL db.index.vector.queryNodes('scope_embedding', $k, $vector) YIELD node AS s, score
RETURN s.id AS id, score
ORDER BY score DESC, id
