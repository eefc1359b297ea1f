// Imports of packages outside the repository point at one ExternalModule node per repository and name.
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MERGE (m:ExternalModule {id: row.to})
ON CREATE SET m.repoId = $repoId, m.name = row.name
MERGE (a)-[r:$(row.type)]->(m)
SET r.line = toInteger(row.line)
