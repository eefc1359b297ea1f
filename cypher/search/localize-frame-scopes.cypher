// LOCALIZE, stack frames: the innermost function or method of each frame's file that spans the
// frame's line (a frame without a line: the callable of that name in the file). $frames rows are
// {frame, repoId, path, line, name}; paths were matched to the repository's files in TypeScript.
UNWIND $frames AS f
MATCH (s:Scope {repoId: f.repoId, path: f.path})
WHERE s.kind IN $kinds
  AND ((f.line IS NOT NULL AND s.startLine <= f.line AND s.endLine >= f.line)
    OR (f.line IS NULL AND f.name IS NOT NULL AND (s.name = f.name OR s.qualifiedName = f.name)))
WITH f, s ORDER BY s.endLine - s.startLine
WITH f, head(collect(s)) AS s
RETURN f.frame AS frame, s.id AS id, s.qualifiedName AS qualifiedName
ORDER BY frame
