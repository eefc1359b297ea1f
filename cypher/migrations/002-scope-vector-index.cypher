// Scope embeddings. Dimensions come from config (EMBEDDING_DIMENSIONS) as a parameter.
// repoId, kind and language are declared as filter properties so that SEARCH ... WHERE can filter
// inside the index (Cypher 25, Neo4j 2026.01+). Quantization is off: exact float vectors keep recall
// high, and 384 floats a scope is small.
CYPHER 25
CREATE VECTOR INDEX scope_embedding IF NOT EXISTS
FOR (s:Scope) ON s.embedding
WITH [s.repoId, s.kind, s.language]
OPTIONS { indexConfig: {
  `vector.dimensions`: $embeddingDimensions,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.enabled`: false
} };
