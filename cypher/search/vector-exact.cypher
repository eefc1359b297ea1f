// Semantic list over a small filtered set (exact pre-filtering): every filter is applied first, then
// cosine similarity is computed for each remaining scope. Exact top-k, no approximation; used when
// count-candidates found at most the exact-search ceiling. vector.similarity.cosine returns the same
// [0, 1] score as the vector index, so scores are comparable across strategies. One row holding the
// list, best first: a row per hit cost the driver and Neo4j more than the hit itself.
MATCH (s:Scope)
WHERE s.repoId IN $repoIds
  AND s.kind IN $kinds
  AND s.language IN $languages
  AND ($paths IS NULL OR s.path IN $paths)
  AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
  AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
  AND s.embedding IS NOT NULL
WITH s, vector.similarity.cosine(s.embedding, $vector) AS score
ORDER BY score DESC, s.id
LIMIT $k
RETURN collect({id: s.id, score: score}) AS hits
