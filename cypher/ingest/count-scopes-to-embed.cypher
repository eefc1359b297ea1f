// How many scopes the embedding phase has ahead of it, and how many of them carry a vector from
// another model (a model switch re-embeds them rather than mixing vector spaces in one index).
// `total`: all of the repository's scopes (the fan-out sizes its slices by it).
// A scope has a vector exactly when it has `embeddingModel` (set-embeddings sets both, upsert-scopes
// replaces all properties): reading the vector itself to test it costs ~10× as much (7.9 s against
// 0.7 s over a million scopes).
MATCH (s:Scope {repoId: $repoId})
WITH s, s.embeddingModel IS NULL OR s.embeddingModel <> $model AS pending
RETURN count(CASE WHEN pending THEN 1 END) AS pending,
       count(CASE WHEN pending AND s.embeddingModel IS NOT NULL THEN 1 END) AS otherModel,
       count(s) AS total
