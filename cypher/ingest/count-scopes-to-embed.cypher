// How many scopes the embedding phase has ahead of it, and how many of them carry a vector from
// another model (a model switch re-embeds them rather than mixing vector spaces in one index).
MATCH (s:Scope {repoId: $repoId})
WHERE s.embedding IS NULL OR s.embeddingModel IS NULL OR s.embeddingModel <> $model
RETURN count(s) AS pending, count(CASE WHEN s.embedding IS NOT NULL THEN 1 END) AS otherModel
