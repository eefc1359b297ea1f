MATCH (r:Repository {id: $repoId})
UNWIND $fileIds AS fileId
MATCH (f:Scope {id: fileId})
MERGE (r)-[:CONTAINS]->(f)
