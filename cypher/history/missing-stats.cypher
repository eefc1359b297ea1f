// Scopes and files of a repository without statistics (new, or re-indexed since the last read).
MATCH (s:Scope {repoId: $repoId})
WHERE s.changeCount IS NULL
RETURN s.id AS id
