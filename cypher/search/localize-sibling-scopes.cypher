// LOCALIZE, the best files' other functions: the scopes of $kinds declared in each file, in
// declaration order (as localize-file-scopes.cypher), each with the fields of a result (as
// scopes-by-id.cypher) unless $knownIds holds it: one round trip where reading the ids and then the
// records of the new ones took two.
UNWIND range(0, size($paths) - 1) AS i
MATCH (s:Scope {repoId: $paths[i].repoId, path: $paths[i].path})
WHERE s.kind IN $kinds
WITH i, s ORDER BY s.startLine
WITH i, collect(s)[0..$perFile] AS scopes
UNWIND scopes AS s
RETURN i AS pathIndex, s.id AS id,
  CASE WHEN s.id IN $knownIds THEN null ELSE s {
    .id, .repoId, .name, .qualifiedName, .kind, .language, .path, .parentId, .startLine, .endLine, .signature, .docComment,
    source: CASE WHEN $sourceChars IS NULL THEN s.source ELSE left(s.source, $sourceChars) END,
    sourceLength: coalesce(size(s.source), 0)
  } END AS record
ORDER BY pathIndex
