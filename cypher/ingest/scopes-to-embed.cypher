// Scopes lacking an embedding from the current model, one page after another by id (keyset): the
// next page can be read while the previous one is still being embedded and written, and the scan
// walks the unique id index in order (ids start with "<repoId>:"), stopping at the page's end instead
// of sorting the whole repository per page. Working from the graph lets an interrupted run resume.
MATCH (s:Scope)
WHERE s.id > $after AND s.id STARTS WITH $idPrefix
  AND (s.embeddingModel IS NULL OR s.embeddingModel <> $model)
RETURN s.id AS id, s.kind AS kind, s.qualifiedName AS qualifiedName, s.signature AS signature,
       s.docComment AS docComment, left(s.source, $maxSourceChars) AS source
ORDER BY s.id
LIMIT $limit
