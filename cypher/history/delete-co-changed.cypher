// Removes the given co-change edges (rules that changed or no longer hold).
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})-[e:CO_CHANGED]->(b:Scope {id: row.to})
WHERE e.level = row.level
DELETE e
RETURN count(*) AS deleted
