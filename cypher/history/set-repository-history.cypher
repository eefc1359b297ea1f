// What the last history read found: git or not, the newest commit read, how many commits are kept.
MATCH (r:Repository {id: $repoId})
SET r.historyStatus = $status, r.historyHead = $head, r.historyCommits = $commits,
    r.historyNewest = $newest, r.historyOldest = $oldest, r.historyReadAt = datetime(),
    r.historyMassCommits = $mass
