// Where scopes with the given names are declared (path, first line): a name's occurrence there is
// its declaration, not a use.
MATCH (s:Scope {repoId: $repoId})
WHERE s.name IN $names
RETURN s.name AS name, s.path AS path, s.startLine AS startLine
