// How many commits of a repository are kept, the oldest one's time, and how many are mass commits.
MATCH (c:Commit {repoId: $repoId})
RETURN count(c) AS commits, min(c.time) AS oldest, max(c.time) AS newest,
       sum(CASE WHEN c.mass THEN 1 ELSE 0 END) AS mass
