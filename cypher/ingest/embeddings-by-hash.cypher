// Vectors already in the graph for the given embedding hashes (any repository: the hash covers the
// model, its dimensions and the exact text sent to it, so any holder's vector is the one the model
// would compute). One scope per hash; seeks the scope_embedding_hash index.
UNWIND $hashes AS hash
CALL (hash) {
  MATCH (s:Scope {embeddingHash: hash})
  WHERE s.embeddingModel = $model AND s.embedding IS NOT NULL
  RETURN s.embedding AS embedding
  LIMIT 1
}
RETURN hash, embedding
