// Git history (libs/history): one node per commit read, keyed by repository and sha; CO_CHANGED edges
// between files and between scopes carry support and confidence (docs/graph-model.md).
CREATE CONSTRAINT commit_id IF NOT EXISTS FOR (c:Commit) REQUIRE c.id IS UNIQUE;
CREATE INDEX commit_repo_time IF NOT EXISTS FOR (c:Commit) ON (c.repoId, c.time);
