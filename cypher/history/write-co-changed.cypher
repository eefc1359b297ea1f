// Association rules from history: (a)-[:CO_CHANGED]->(b) reads "when a changed, b changed too" with
// `confidence` of the time, over `support` commits; `level` is file or scope.
// A retry may follow a commit that happened: the rules are MERGEd then, never written twice.
// on-retry: history/merge-co-changed
UNWIND $rows AS row
MATCH (a:Scope {id: row.from})
MATCH (b:Scope {id: row.to})
CREATE (a)-[:CO_CHANGED {support: row.support, confidence: row.confidence, level: row.level}]->(b)
RETURN count(*) AS created
