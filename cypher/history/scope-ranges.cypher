// Where every declaration of a repository is now: what history attributes commits' hunks to.
MATCH (s:Scope {repoId: $repoId})
WHERE NOT s:File AND s.startLine IS NOT NULL
RETURN s.id AS id, s.path AS path, s.startLine AS start, s.endLine AS end
