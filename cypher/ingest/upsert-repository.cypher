MERGE (r:Repository {id: $repoId})
ON CREATE SET r.createdAt = datetime()
SET r.name = $name, r.rootPath = $rootPath
RETURN r.id AS id
