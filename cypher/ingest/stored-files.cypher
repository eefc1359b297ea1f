// What the graph holds per file of a repository, to decide what a re-index must read and resolve: the
// file's scope count, content, interface and edge hashes and reference counts as recorded when it was
// last fully written (hashes are null while a run that touched the file has not finished), and how
// many scopes there are in all.
MATCH (f:File {repoId: $repoId})
WITH collect({path: f.path, scopes: f.scopeCount, fileHash: f.fileHash, interfaceHash: f.interfaceHash, edgeHash: f.edgeHash,
              unresolvedRefs: f.unresolvedRefs, builtinRefs: f.builtinRefs}) AS files
RETURN files, COUNT { MATCH (s:Scope {repoId: $repoId}) } AS scopes
