// Up to $batch commits of a repository (history rewritten, or the repository deleted); called until 0.
MATCH (c:Commit {repoId: $repoId})
WITH c LIMIT $batch
DETACH DELETE c
RETURN count(*) AS deleted
