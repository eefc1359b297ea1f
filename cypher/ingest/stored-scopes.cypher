// What the graph holds for a repository, to diff a new parse against.
MATCH (s:Scope {repoId: $repoId})
RETURN s.id AS id, s.contentHash AS contentHash, s.fileHash AS fileHash, s.kind AS kind, s.path AS path,
       s.startLine AS startLine, s.endLine AS endLine
