// How many embedded scopes pass every filter, counted only up to $cap: enough to choose between an
// exact brute-force vector search (few candidates) and the vector index (many). Seeks the
// Scope(repoId) index. Absent filters arrive as the full list of values ($kinds = every kind, ...);
// $repoIds null stands for every repository. Also returns the ids of every repository (as
// repository-ids.cypher), which check a repository filter: a filtered search makes one round trip
// before its lists rather than two. "Embedded" is tested on `embeddingModel`, which set-embeddings sets
// and upsert-scopes clears with the vector: testing the vector itself reads it (~1.5 KB a scope).
MATCH (r:Repository)
WITH r.id AS id
ORDER BY id
WITH collect(id) AS repositoryIds
CALL (repositoryIds) {
  MATCH (s:Scope)
  WHERE s.repoId IN coalesce($repoIds, repositoryIds)
    AND s.kind IN $kinds
    AND s.language IN $languages
    AND ($paths IS NULL OR s.path IN $paths)
    AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
    AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
    AND s.embeddingModel IS NOT NULL
  WITH s LIMIT $cap
  RETURN count(s) AS n
}
RETURN repositoryIds, n
