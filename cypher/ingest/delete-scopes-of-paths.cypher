// Every scope of files that are gone (deleted, or now skipped), file scope included.
UNWIND $paths AS path
MATCH (s:Scope {repoId: $repoId, path: path})
DETACH DELETE s
RETURN count(*) AS deleted
