// The kept commits at or after $from (the recent window): what recentChurn/recentChanges count.
MATCH (c:Commit {repoId: $repoId})
WHERE c.time >= $from
RETURN c.time AS time, c.files AS files, c.fileLines AS fileLines, c.scopes AS scopes, c.scopeLines AS scopeLines
