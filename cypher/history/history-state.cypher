// The repository's history bookkeeping: the last commit read and how many are kept.
MATCH (r:Repository {id: $repoId})
RETURN r.historyHead AS head, r.historyStatus AS status,
       COUNT { MATCH (:Commit {repoId: $repoId}) } AS commits
