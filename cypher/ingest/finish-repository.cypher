// Counts, and the key of what this run resolved references against (file set, resolver settings and
// code): while it holds, the next run may re-resolve only the files that changed.
MATCH (r:Repository {id: $repoId})
SET r.files = COUNT { MATCH (:File {repoId: $repoId}) },
    r.scopes = COUNT { MATCH (:Scope {repoId: $repoId}) },
    r.edges = COUNT { MATCH (:Scope {repoId: $repoId})-[:CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|OVERRIDES]->() },
    r.embedded = COUNT { MATCH (s:Scope {repoId: $repoId}) WHERE s.embeddingModel IS NOT NULL },
    r.indexedAt = datetime(), r.lastJobId = $jobId, r.resolutionKey = $resolutionKey,
    r.indexStatus = 'INDEXED', r.indexError = null
RETURN r.files AS files, r.scopes AS scopes, r.edges AS edges, r.embedded AS embedded
