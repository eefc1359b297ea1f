// Whether a repository exists, where it was read from, and whether its history was read (git, none,
// or null: not yet).
MATCH (r:Repository {id: $repoId})
RETURN r.id AS id, r.rootPath AS rootPath, r.historyStatus AS history
