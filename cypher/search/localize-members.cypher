// LOCALIZE, spreading: the functions and methods a class the issue names declares (its members).
UNWIND range(0, size($classIds) - 1) AS i
MATCH (c:Scope {id: $classIds[i]})-[:HAS_MEMBER]->(m:Scope)
WHERE m.kind IN $kinds
WITH i, c, m ORDER BY m.startLine
WITH i, c, collect(m)[0..$perClass] AS members
UNWIND members AS m
RETURN i AS classIndex, c.qualifiedName AS fromName, m.id AS id
ORDER BY classIndex
