// Keeps the newest $keep commits of a repository (the HISTORY_MAX_COMMITS bound).
MATCH (c:Commit {repoId: $repoId})
WITH c ORDER BY c.time DESC, c.sha SKIP $keep
DETACH DELETE c
RETURN count(*) AS deleted
