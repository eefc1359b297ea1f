// New imports of packages outside the repository (the diff found them missing): one shared
// ExternalModule node per repository and name, MERGEd; the edge created.
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MERGE (m:ExternalModule {id: row.to})
ON CREATE SET m.repoId = $repoId, m.name = row.name
CREATE (a)-[r:$(row.type)]->(m)
SET r.line = toInteger(row.line)
