MATCH (r:Repository {id: $repoId})
SET r.files = COUNT { MATCH (:File {repoId: $repoId}) },
    r.scopes = COUNT { MATCH (:Scope {repoId: $repoId}) },
    r.edges = COUNT { MATCH (:Scope {repoId: $repoId})-[:CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|OVERRIDES]->() },
    r.embedded = COUNT { MATCH (s:Scope {repoId: $repoId}) WHERE s.embedding IS NOT NULL },
    r.indexedAt = datetime(), r.lastJobId = $jobId
RETURN r.files AS files, r.scopes AS scopes, r.edges AS edges, r.embedded AS embedded
