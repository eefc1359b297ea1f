// write-co-changed on a retried transaction (its first attempt may have committed): one rule per
// pair and level, found again instead of written twice.
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MATCH (b:Scope {id: row.to})
MERGE (a)-[e:CO_CHANGED {level: row.level}]->(b)
SET e.support = row.support, e.confidence = row.confidence
RETURN count(*) AS created
