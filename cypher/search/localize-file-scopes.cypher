// LOCALIZE, file paths the issue names: the functions and methods declared in those files.
UNWIND range(0, size($paths) - 1) AS i
MATCH (s:Scope {repoId: $paths[i].repoId, path: $paths[i].path})
WHERE s.kind IN $kinds
WITH i, s ORDER BY s.startLine
WITH i, collect(s)[0..$perFile] AS scopes
UNWIND scopes AS s
RETURN i AS pathIndex, s.id AS id
ORDER BY pathIndex
