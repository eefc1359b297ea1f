// Commits read from git, newest first; MERGE on repository + sha makes a re-run harmless.
UNWIND $rows AS row
MERGE (c:Commit {id: row.id})
SET c.repoId = $repoId, c.sha = row.sha, c.time = row.time, c.authorName = row.authorName,
    c.authorEmail = row.authorEmail, c.subject = row.subject, c.files = row.files,
    c.fileLines = row.fileLines, c.scopes = row.scopes, c.scopeLines = row.scopeLines,
    c.leaves = row.leaves, c.mass = row.mass
