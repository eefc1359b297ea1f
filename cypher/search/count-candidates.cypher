// How many embedded scopes pass every filter, counted only up to $cap: enough to choose between an
// exact brute-force vector search (few candidates) and the vector index (many). Seeks the
// Scope(repoId) index. Absent filters arrive as the full list of values ($kinds = every kind, ...).
MATCH (s:Scope)
WHERE s.repoId IN $repoIds
  AND s.kind IN $kinds
  AND s.language IN $languages
  AND ($paths IS NULL OR s.path IN $paths)
  AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
  AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
  AND s.embedding IS NOT NULL
WITH s LIMIT $cap
RETURN count(s) AS n
