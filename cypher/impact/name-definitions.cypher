// Where scopes with the given names are declared (path, first line): a name's occurrence there is
// its declaration, not a use. The qualified name tells which class declares a method (overrides of
// dotted bases the graph has no edge for).
MATCH (s:Scope {repoId: $repoId})
WHERE s.name IN $names
RETURN s.name AS name, s.path AS path, s.startLine AS startLine, s.qualifiedName AS qualifiedName
