// Edges the diff found missing from the graph (one writer per repository holds the index lock):
// CREATE skips MERGE's search of each endpoint's relationships, which grows with hub nodes.
// Edge type from a fixed allow-list in code; endpoints by unique id.
// A retry may follow a commit that happened: the edges are MERGEd then, never written twice.
// on-retry: ingest/merge-scope-edges
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MATCH (b:Scope {id: row.to})
CREATE (a)-[r:$(row.type)]->(b)
SET r.line = toInteger(row.line), r.resolver = row.resolver, r.provenance = row.provenance, r.confidence = row.confidence
