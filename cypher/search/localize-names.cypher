// LOCALIZE, identifiers: scopes whose name or qualified name is one the issue mentions ($names are
// the spellings of each mention, strongest first). Two index lookups (name, qualified name), at
// most $perName scopes per spelling, so a common name cannot flood the list.
UNWIND range(0, size($names) - 1) AS i
CALL (i) {
  MATCH (s:Scope)
  WHERE s.name = $names[i] AND s.repoId IN $repoIds AND s.kind IN $kinds
  RETURN s
  UNION
  MATCH (s:Scope)
  WHERE s.qualifiedName = $names[i] AND s.repoId IN $repoIds AND s.kind IN $kinds
  RETURN s
}
WITH i, s ORDER BY s.path, s.startLine
WITH i, collect(s)[0..$perName] AS found, count(s) AS total
UNWIND found AS s
RETURN i AS nameIndex, total, s.id AS id, s.kind AS kind, s.qualifiedName AS qualifiedName
ORDER BY nameIndex
