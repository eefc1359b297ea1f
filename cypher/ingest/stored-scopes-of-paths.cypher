// The stored scopes of some files (those re-parsed in this run), to diff their new parse against.
UNWIND $paths AS path
MATCH (s:Scope {repoId: $repoId, path: path})
RETURN s.id AS id, s.contentHash AS contentHash, s.startLine AS startLine, s.endLine AS endLine
