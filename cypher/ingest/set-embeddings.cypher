UNWIND $rows AS row
MATCH (s:Scope {id: row.id})
CALL db.create.setNodeVectorProperty(s, 'embedding', row.embedding)
SET s.embeddingModel = $model
