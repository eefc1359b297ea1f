// LOCALIZE, the classes the prose search found: their functions and methods (as localize-members)
// with the fields a result shows and their source cut to $sourceChars, so that no second read is
// needed for those that reach the ranking's head.
UNWIND range(0, size($classIds) - 1) AS i
MATCH (c:Scope {id: $classIds[i]})-[:HAS_MEMBER]->(m:Scope)
WHERE m.kind IN $kinds
WITH i, c, m ORDER BY m.startLine
WITH i, c, collect(m)[0..$perClass] AS members
UNWIND members AS m
RETURN i AS classIndex, c.qualifiedName AS fromName, m.id AS id, m.repoId AS repoId, m.name AS name,
  m.qualifiedName AS qualifiedName, m.kind AS kind, m.language AS language, m.path AS path, m.parentId AS parentId,
  m.startLine AS startLine, m.endLine AS endLine, m.signature AS signature, m.docComment AS docComment,
  CASE WHEN $sourceChars IS NULL THEN m.source ELSE left(m.source, $sourceChars) END AS source,
  coalesce(size(m.source), 0) AS sourceLength
ORDER BY classIndex
