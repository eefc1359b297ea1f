// New references the resolver could not pin (the diff found them missing): the Unresolved symbol
// node is shared, so it is MERGEd; the edge itself is created without searching for a twin.
// A retry may follow a commit that happened: the edges are MERGEd then, never written twice.
// on-retry: ingest/merge-unresolved-edges
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MERGE (u:Unresolved {id: row.to})
ON CREATE SET u.repoId = $repoId, u.name = row.name
CREATE (a)-[r:$(row.type)]->(u)
SET r.line = toInteger(row.line), r.reason = row.reason, r.resolver = row.resolver, r.origin = row.origin
