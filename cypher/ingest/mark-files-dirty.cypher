// Before any write to a file's scopes: until the run records them again at its end, the file's
// content, interface and edge hashes say "not fully written", so an interrupted run re-parses,
// re-resolves and re-diffs it.
UNWIND $ids AS id
MATCH (f:File {id: id})
SET f.fileHash = null, f.interfaceHash = null, f.edgeHash = null
