// The scopes an impact question starts from: given ids, or exact qualified names, of one repository.
// A class, interface or file stands for its members too (a change to it is a change to them).
MATCH (t:Scope {repoId: $repoId})
WHERE t.id IN $ids OR t.qualifiedName IN $names
OPTIONAL MATCH (t)-[:HAS_MEMBER|DECLARES*1..3]->(m:Scope)
WITH collect(DISTINCT t) + collect(DISTINCT m) AS all
UNWIND all AS s
WITH DISTINCT s WHERE s IS NOT NULL
RETURN s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
       s.startLine AS startLine, s.endLine AS endLine, s.id IN $ids OR s.qualifiedName IN $names AS asked
