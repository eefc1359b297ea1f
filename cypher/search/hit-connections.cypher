// Graph signal: for each candidate, how many other candidates it touches through one edge of an
// allowed type (either direction). Types arrive as a list parameter and are compared with type(r).
UNWIND $ids AS id
MATCH (a:Scope {id: id})
OPTIONAL MATCH (a)-[r]-(b:Scope)
WHERE b.id IN $ids AND b <> a AND type(r) IN $edgeTypes
RETURN a.id AS id, count(DISTINCT b) AS connections
