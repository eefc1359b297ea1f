UNWIND $rows AS row
MATCH (a:Scope {id: row.from})-[r]->(b)
WHERE type(r) = row.type AND b.id = row.to
DELETE r
