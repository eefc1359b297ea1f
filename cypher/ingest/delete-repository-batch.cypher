// Deletes up to $batch nodes of a repository; called until it returns 0.
CALL {
  MATCH (n:Scope {repoId: $repoId}) RETURN n
  UNION
  MATCH (n:ExternalModule {repoId: $repoId}) RETURN n
  UNION
  MATCH (n:Unresolved {repoId: $repoId}) RETURN n
  UNION
  MATCH (n:Commit {repoId: $repoId}) RETURN n
  UNION
  MATCH (n:HistoryCounts {repoId: $repoId}) RETURN n
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
