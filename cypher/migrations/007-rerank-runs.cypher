// A finished rerank's decisions, kept in the graph so they can be explored beside the scopes they
// judged (docs/neo4j-browser-guide.md): (:RerankRun)-[:RANKED {rank, llm, reasoning, ...}]->(:Scope).
CREATE CONSTRAINT rerank_run_id IF NOT EXISTS FOR (r:RerankRun) REQUIRE r.id IS UNIQUE;
CREATE INDEX rerank_run_completed IF NOT EXISTS FOR (r:RerankRun) ON (r.completedAt);
