// The scopes and files of a repository whose stored statistics count recent changes.
MATCH (s:Scope {repoId: $repoId})
WHERE s.recentChanges > 0
RETURN s.id AS id, s.recentChanges AS changes, s.recentChurn AS churn
