// Semantic list over a large filtered set. The filter properties of the vector index (repoId, kind,
// language) are applied inside the index by SEARCH ... WHERE (Cypher 25), so the index returns the
// k nearest scopes that pass them. Path and name are not index properties: they are applied after,
// to the $k returned (over-fetch), and the caller grows $k while too few survive and the index
// still had more ("pool" = how many the index returned).
CYPHER 25
MATCH (s:Scope)
  SEARCH s IN (
    VECTOR INDEX scope_embedding
    FOR $vector
    WHERE s.repoId IN $repoIds AND s.kind IN $kinds AND s.language IN $languages
    LIMIT $k
  ) SCORE AS score
WITH s, score
ORDER BY score DESC, s.id
WITH count(*) AS pool,
  collect(CASE
    WHEN ($paths IS NULL OR s.path IN $paths)
      AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
      AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
    THEN {id: s.id, score: score}
  END) AS kept
RETURN pool, kept[0..$limit] AS hits
