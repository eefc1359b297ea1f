// Keeps the newest $keep commits of a repository (the HISTORY_MAX_COMMITS bound); returns what the
// pruned commits contributed, so the running counts can subtract them.
MATCH (c:Commit {repoId: $repoId})
WITH c ORDER BY c.time DESC, c.sha SKIP $keep
WITH c, {sha: c.sha, time: c.time, authorName: c.authorName, files: c.files, fileLines: c.fileLines,
         scopes: c.scopes, scopeLines: c.scopeLines, leaves: c.leaves, mass: c.mass} AS row
DETACH DELETE c
RETURN row
