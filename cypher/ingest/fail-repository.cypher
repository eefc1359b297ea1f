// The run of job $jobId did not finish: the repository is half-written (FAILED) until a new run
// completes it. Only while that run is the last one started (a newer run owns the status).
MATCH (r:Repository {id: $repoId})
WHERE r.indexStatus = 'INDEXING' AND (r.indexJobId = $jobId OR ($jobId IS NULL AND r.indexJobId IS NULL))
SET r.indexStatus = 'FAILED', r.indexError = $reason
RETURN count(r) AS marked
