// The commit marker of an index run: a file's content hash and scope count are recorded only after
// all its scopes and edges are written, its edge hash only after its edges are (null fileHash and
// scopeCount leave the stored ones), so an interrupted run re-parses or re-diffs that file next time.
UNWIND $rows AS row
MATCH (f:File {id: row.id})
SET f.fileHash = coalesce(row.fileHash, f.fileHash),
    f.scopeCount = coalesce(toInteger(row.scopeCount), f.scopeCount),
    f.edgeHash = row.edgeHash
