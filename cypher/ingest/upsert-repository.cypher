// The repository node. Walk filters (include/exclude globs) are kept with it: given ones replace the
// stored ones, absent ones ($include/$exclude null) leave them as they are; the ones in force return.
// The resolution key of the last finished run comes back and is cleared: a run that does not finish
// leaves none, so the next run resolves every file's references again.
// The run's status: INDEXING under its job id until finish-repository (INDEXED) or fail-repository.
MERGE (r:Repository {id: $repoId})
ON CREATE SET r.createdAt = datetime()
WITH r, r.resolutionKey AS resolutionKey
SET r.name = $name, r.rootPath = $rootPath,
    r.include = coalesce($include, r.include, []),
    r.exclude = coalesce($exclude, r.exclude, []),
    r.resolutionKey = null,
    r.indexStatus = 'INDEXING', r.indexJobId = $jobId, r.indexStartedAt = datetime(), r.indexError = null
RETURN r.id AS id, r.include AS include, r.exclude AS exclude, resolutionKey
