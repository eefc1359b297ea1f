// LOCALIZE: every file of the given repositories with its repository, so that paths printed in a
// stack trace or named in an issue can be matched to them (libs/search/src/localize/paths.ts).
MATCH (f:File)
WHERE f.repoId IN $repoIds
RETURN f.repoId AS repoId, f.path AS path
