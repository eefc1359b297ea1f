// Keeps the $keep most recently completed rerank runs; older ones go with their RANKED edges.
MATCH (r:RerankRun)
WITH r ORDER BY r.completedAt DESC
SKIP $keep
DETACH DELETE r
RETURN count(*) AS pruned
