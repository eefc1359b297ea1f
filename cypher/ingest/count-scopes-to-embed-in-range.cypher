// How many scopes of one embedding slice (ids in ($after, $until]) still lack a vector of the model.
MATCH (s:Scope)
WHERE s.id > $after AND s.id <= $until AND s.id STARTS WITH $idPrefix
  AND (s.embeddingModel IS NULL OR s.embeddingModel <> $model)
RETURN count(s) AS pending, count(s.embeddingModel) AS otherModel
