// Before a file's edges are rewritten: until the run records its new edge hash, an interrupted run
// diffs that file's edges again.
UNWIND $ids AS id
MATCH (f:File {id: id})
SET f.edgeHash = null
