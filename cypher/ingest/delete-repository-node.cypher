MATCH (r:Repository {id: $repoId})
DETACH DELETE r
