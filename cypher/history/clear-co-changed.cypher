// Removes up to $batch co-change edges of a repository before the recomputed ones are written.
MATCH (:Scope {repoId: $repoId})-[e:CO_CHANGED]->()
WITH e LIMIT $batch
DELETE e
RETURN count(*) AS deleted
