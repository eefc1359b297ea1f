// LOCALIZE, after the fusion: the functions and methods of the best files with the fields a result
// shows and their source cut to $sourceChars (the function stage reads it), in one read rather than
// the files' scope ids and then their records (localize-file-scopes, scopes-by-id).
UNWIND range(0, size($paths) - 1) AS i
MATCH (s:Scope {repoId: $paths[i].repoId, path: $paths[i].path})
WHERE s.kind IN $kinds
WITH i, s ORDER BY s.startLine
WITH i, collect(s)[0..$perFile] AS scopes
UNWIND scopes AS s
RETURN i AS pathIndex, s.id AS id, s.repoId AS repoId, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind,
  s.language AS language, s.path AS path, s.parentId AS parentId, s.startLine AS startLine, s.endLine AS endLine,
  s.signature AS signature, s.docComment AS docComment,
  CASE WHEN $sourceChars IS NULL THEN s.source ELSE left(s.source, $sourceChars) END AS source,
  coalesce(size(s.source), 0) AS sourceLength
ORDER BY pathIndex
