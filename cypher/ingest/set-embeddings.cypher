// embeddingHash: (model, dimensions, text) of the vector, for later runs to reuse it (embeddings-by-hash).
UNWIND $rows AS row
MATCH (s:Scope {id: row.id})
CALL db.create.setNodeVectorProperty(s, 'embedding', row.embedding)
SET s.embeddingModel = $model, s.embeddingHash = row.hash
