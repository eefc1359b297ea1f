// The repository node. Walk filters (include/exclude globs) are kept with it: given ones replace the
// stored ones, absent ones ($include/$exclude null) leave them as they are; the ones in force return.
MERGE (r:Repository {id: $repoId})
ON CREATE SET r.createdAt = datetime()
SET r.name = $name, r.rootPath = $rootPath,
    r.include = coalesce($include, r.include, []),
    r.exclude = coalesce($exclude, r.exclude, [])
RETURN r.id AS id, r.include AS include, r.exclude AS exclude
