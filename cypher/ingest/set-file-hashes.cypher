// The commit marker of an index run: a file's hash is recorded only after all its scopes and edges
// are written, so an interrupted run re-parses that file next time.
UNWIND $rows AS row
MATCH (f:File {id: row.id})
SET f.fileHash = row.fileHash
