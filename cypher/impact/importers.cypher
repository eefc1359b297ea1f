// Files that import the files the changed scopes live in (looked up by file id: the id index, not a
// scan of the repository's files per path).
UNWIND $fileIds AS fid
MATCH (f:File {id: fid})<-[e:IMPORTS]-(g:File)
RETURN f.path AS imported, g.id AS id, g.path AS path, e.line AS line
