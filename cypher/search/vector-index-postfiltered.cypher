// Semantic list when the filtered repositories hold nearly all of the index's vectors (one
// repository of a million scopes): the unfiltered index asked for $k (a little over wanted / share,
// filters/strategy.ts), then every filter applied exactly to what it returned. Filtering inside the
// index (vector-index-filtered.cypher) costs more there although nearly every vector passes. "pool" =
// how many the index returned: with fewer than $limit kept and pool = $k the caller asks
// vector-index-filtered.cypher instead. One row holding the list, best first.
CALL db.index.vector.queryNodes('scope_embedding', $k, $vector) YIELD node AS s, score
WITH s, score
ORDER BY score DESC, s.id
WITH count(*) AS pool,
  collect(CASE
    WHEN s.repoId IN $repoIds AND s.kind IN $kinds AND s.language IN $languages
      AND ($paths IS NULL OR s.path IN $paths)
      AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
      AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
    THEN {id: s.id, score: score}
  END) AS kept
RETURN pool, kept[0..$limit] AS hits
