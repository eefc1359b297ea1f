// Kept commits of a repository, one page (newest first), for the statistics and co-change rules
// (recomputed each run). Paged: one read of 10k commits with their scope lists outlasts the read timeout.
MATCH (c:Commit {repoId: $repoId})
RETURN c.sha AS sha, c.time AS time, c.authorName AS authorName, c.authorEmail AS authorEmail,
       c.subject AS subject, c.files AS files, c.fileLines AS fileLines, c.scopes AS scopes,
       c.scopeLines AS scopeLines, c.leaves AS leaves, c.mass AS mass
ORDER BY c.time DESC, c.sha
SKIP $skip LIMIT $limit
