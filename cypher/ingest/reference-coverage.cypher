// Per language of a repository's code: references pinned to a scope, left to the standard library or a
// dependency (built-ins are counted per file, not stored as edges), through dynamic values, and not
// found. One row per language that has files.
MATCH (f:File {repoId: $repoId})
WITH f.language AS language, sum(coalesce(f.builtinRefs, 0)) AS builtin
CALL (language) {
  MATCH (a:Scope {repoId: $repoId})-[r:CALLS|REFERENCES|EXTENDS|IMPLEMENTS]->(b)
  WHERE a.language = language
  RETURN
    sum(CASE WHEN b:Scope THEN 1 ELSE 0 END) AS resolved,
    sum(CASE WHEN b:Unresolved AND r.reason = 'external' THEN 1 ELSE 0 END) AS external,
    sum(CASE WHEN b:Unresolved AND r.reason IN ['dynamic', 'local'] THEN 1 ELSE 0 END) AS dynamic,
    sum(CASE WHEN b:Unresolved AND NOT r.reason IN ['external', 'dynamic', 'local'] THEN 1 ELSE 0 END) AS unresolved
}
RETURN language, resolved, builtin + external AS external, dynamic, unresolved
ORDER BY language
