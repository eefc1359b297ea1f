// Whether a repository exists, where it was read from, whether its history was read (git, none,
// or null: not yet), and when it was last indexed (what caches of its graph are keyed on).
MATCH (r:Repository {id: $repoId})
RETURN r.id AS id, r.rootPath AS rootPath, r.historyStatus AS history, toString(r.indexedAt) AS indexedAt,
       r.edges AS edges
