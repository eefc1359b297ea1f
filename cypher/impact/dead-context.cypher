// What a dead-code judgement reads besides the candidates: every file's text (names used as strings
// or words), the entry files (package entries and what imports re-export), and unpinned reference names.
MATCH (f:File {repoId: $repoId})
RETURN f.path AS path, f.source AS source,
       [(g:File)-[:IMPORTS]->(f) | g.path] AS importedBy
