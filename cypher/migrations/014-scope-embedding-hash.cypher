// Content-addressed embedding reuse: a scope's embeddingHash is the SHA-256 of (model, dimensions,
// embedded text); the embedding phase looks hashes up here before calling the model, so a snapshot,
// branch, fork or re-index of code already embedded on this server copies its vectors.
CREATE INDEX scope_embedding_hash IF NOT EXISTS FOR (s:Scope) ON (s.embeddingHash);
