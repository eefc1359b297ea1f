// Clears the history properties of a repository's scopes and files (before the recomputed ones).
MATCH (s:Scope {repoId: $repoId})
WHERE s.changeCount IS NOT NULL
SET s.changeCount = null, s.lastChangedAt = null, s.lastCommit = null, s.recentChurn = null,
    s.recentChanges = null, s.mainAuthors = null
RETURN count(*) AS cleared
