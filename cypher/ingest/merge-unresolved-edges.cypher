// A reference the resolver could not pin to a scope is kept, pointing at an Unresolved symbol node.
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MERGE (u:Unresolved {id: row.to})
ON CREATE SET u.repoId = $repoId, u.name = row.name
MERGE (a)-[r:$(row.type)]->(u)
SET r.line = toInteger(row.line), r.reason = row.reason, r.resolver = row.resolver, r.origin = row.origin
