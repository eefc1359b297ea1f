// The newest commits that touched a path or a scope (or any, when both are null).
MATCH (c:Commit {repoId: $repoId})
WHERE ($path IS NULL OR $path IN c.files) AND ($scopeId IS NULL OR $scopeId IN c.scopes)
RETURN c.sha AS sha, c.time AS time, c.authorName AS authorName, c.authorEmail AS authorEmail,
       c.subject AS subject, size(c.files) AS files
ORDER BY c.time DESC, c.sha
LIMIT $limit
