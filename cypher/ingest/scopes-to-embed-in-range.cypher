// scopes-to-embed, bounded above: one embedding slice's scopes (ids in ($after, $until]) that lack a
// vector of the current model, one page after another by id. A slice run again (a retried job) finds
// only what earlier runs left, so no scope is embedded twice.
MATCH (s:Scope)
WHERE s.id > $after AND s.id <= $until AND s.id STARTS WITH $idPrefix
  AND (s.embeddingModel IS NULL OR s.embeddingModel <> $model)
RETURN s.id AS id, s.kind AS kind, s.qualifiedName AS qualifiedName, s.signature AS signature,
       s.docComment AS docComment, left(s.source, $maxSourceChars) AS source
ORDER BY s.id
LIMIT $limit
