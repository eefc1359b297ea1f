// The commit marker of an index run: a file's content hash, interface hash and scope count are
// recorded only after all its scopes and edges are written, its edge hash and reference counts only
// after its edges are (a null fileHash, interfaceHash or scopeCount leaves the stored one), so an
// interrupted run re-parses, re-resolves or re-diffs that file next time.
UNWIND $rows AS row
MATCH (f:File {id: row.id})
SET f.fileHash = coalesce(row.fileHash, f.fileHash),
    f.interfaceHash = coalesce(row.interfaceHash, f.interfaceHash),
    f.scopeCount = coalesce(toInteger(row.scopeCount), f.scopeCount),
    f.edgeHash = row.edgeHash,
    f.unresolvedRefs = toInteger(row.unresolvedRefs),
    f.builtinRefs = toInteger(row.builtinRefs)
