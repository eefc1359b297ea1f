// Drops a repository's running history counts (before new ones, or when its history is gone).
MATCH (h:HistoryCounts {repoId: $repoId})
DELETE h
RETURN count(*) AS deleted
