// Scopes still lacking an embedding: the embed phase works from the graph, so an interrupted run
// resumes where it stopped.
MATCH (s:Scope {repoId: $repoId})
WHERE s.embedding IS NULL
RETURN s.id AS id, s.kind AS kind, s.qualifiedName AS qualifiedName, s.signature AS signature,
       s.docComment AS docComment, left(s.source, $maxSourceChars) AS source
ORDER BY s.id
LIMIT $limit
