// New imports of packages outside the repository (the diff found them missing): one shared
// ExternalModule node per repository and name, MERGEd; the edge created.
// A retry may follow a commit that happened: the edges are MERGEd then, never written twice.
// on-retry: ingest/merge-external-edges
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MERGE (m:ExternalModule {id: row.to})
ON CREATE SET m.repoId = $repoId, m.name = row.name
CREATE (a)-[r:$(row.type)]->(m)
SET r.line = toInteger(row.line)
