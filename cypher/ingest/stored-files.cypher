// What the graph holds per file of a repository, to decide what a re-index must read and resolve: the
// file's path, scope count, content, interface and edge hashes and reference counts as recorded when
// it was last fully written (hashes are null while a run that touched the file has not finished), and
// how many scopes there are in all. One list per file: decoded faster than a map.
MATCH (f:File {repoId: $repoId})
WITH collect([f.path, f.scopeCount, f.fileHash, f.interfaceHash, f.edgeHash, f.unresolvedRefs, f.builtinRefs]) AS files
RETURN files, COUNT { MATCH (s:Scope {repoId: $repoId}) } AS scopes
