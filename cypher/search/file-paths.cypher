// Distinct file paths of the given repositories; a path glob is matched against them in TypeScript
// (libs/search/src/filters/glob.ts) and the matches come back as the $paths filter.
MATCH (f:File)
WHERE f.repoId IN $repoIds
RETURN DISTINCT f.path AS path
