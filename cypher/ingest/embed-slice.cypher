// The next embedding slice of a repository: the $size scopes after $after by id (all of them, embedded
// or not, so the same graph always cuts into the same slices and a re-planned run names the same
// jobs), its last id, and how many of them lack a vector of the model. Walks the unique id index in
// order and stops after $size.
MATCH (s:Scope)
WHERE s.id > $after AND s.id STARTS WITH $idPrefix
WITH s ORDER BY s.id LIMIT $size
WITH collect(s.id) AS ids,
     count(CASE WHEN s.embeddingModel IS NULL OR s.embeddingModel <> $model THEN 1 END) AS pending
RETURN ids[size(ids) - 1] AS until, size(ids) AS size, pending
