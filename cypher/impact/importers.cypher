// Files that import the files the changed scopes live in.
UNWIND $paths AS p
MATCH (f:File {repoId: $repoId, path: p})<-[e:IMPORTS]-(g:File)
RETURN f.path AS imported, g.id AS id, g.path AS path, e.line AS line
