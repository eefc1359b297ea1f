// What the graph holds per file path, counted from the scopes themselves (when the files' own
// counts do not add up: an interrupted run, or a graph written before files kept counts). A path
// with scopes but no file scope (left by an interrupted deletion) comes back with null hashes, so
// it is diffed in full or deleted.
MATCH (s:Scope {repoId: $repoId})
WITH s.path AS path, count(s) AS scopes,
     collect(CASE WHEN s:File THEN [s.fileHash, s.interfaceHash, s.edgeHash, s.unresolvedRefs, s.builtinRefs] END) AS file
RETURN path, scopes, file[0][0] AS fileHash, file[0][1] AS interfaceHash, file[0][2] AS edgeHash,
       file[0][3] AS unresolvedRefs, file[0][4] AS builtinRefs
