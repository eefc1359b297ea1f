// A repository's history summary, with its most frequent authors (names only; emails on request).
MATCH (r:Repository {id: $repoId})
OPTIONAL MATCH (c:Commit {repoId: $repoId})
WITH r, c.authorName AS name, c.authorEmail AS email, count(c) AS commits
ORDER BY commits DESC, name
WITH r, [x IN collect({name: name, email: email, commits: commits}) WHERE x.name IS NOT NULL] AS authors
RETURN r.historyStatus AS status, r.historyHead AS head, r.historyCommits AS commits,
       r.historyNewest AS newest, r.historyOldest AS oldest, r.historyMassCommits AS massCommits,
       toString(r.historyReadAt) AS readAt, authors[0..$authors] AS authors
