// Per language of a repository's code: references pinned to a scope (split by how: compiler, scip,
// name, heuristic), left to the standard library or a dependency (built-ins are counted per file, not
// stored as edges), through dynamic values, and not found; and its call sites alone (CALLS), for the
// share of in-repo call sites that found nothing. One row per language that has files.
MATCH (f:File {repoId: $repoId})
WITH f.language AS language, sum(coalesce(f.builtinRefs, 0)) AS builtin
CALL (language) {
  MATCH (a:Scope {repoId: $repoId})-[r:CALLS|REFERENCES|EXTENDS|IMPLEMENTS]->(b)
  WHERE a.language = language
  WITH r, b, CASE
      WHEN b:Scope THEN 'resolved'
      WHEN r.reason IN ['external', 'builtin'] THEN 'external'
      WHEN r.reason IN ['dynamic', 'local'] THEN 'dynamic'
      ELSE 'not-found' END AS kind,
    coalesce(r.provenance, CASE r.resolver WHEN 'precise' THEN 'compiler' WHEN 'scip' THEN 'scip' ELSE 'name' END) AS provenance
  RETURN
    sum(CASE WHEN kind = 'resolved' THEN 1 ELSE 0 END) AS resolved,
    sum(CASE WHEN kind = 'resolved' AND provenance = 'compiler' THEN 1 ELSE 0 END) AS byCompiler,
    sum(CASE WHEN kind = 'resolved' AND provenance = 'scip' THEN 1 ELSE 0 END) AS byScip,
    sum(CASE WHEN kind = 'resolved' AND provenance = 'name' THEN 1 ELSE 0 END) AS byName,
    sum(CASE WHEN kind = 'resolved' AND provenance = 'heuristic' THEN 1 ELSE 0 END) AS byHeuristic,
    sum(CASE WHEN kind = 'external' THEN 1 ELSE 0 END) AS external,
    sum(CASE WHEN kind = 'dynamic' THEN 1 ELSE 0 END) AS dynamic,
    sum(CASE WHEN kind = 'not-found' THEN 1 ELSE 0 END) AS notFound,
    sum(CASE WHEN type(r) = 'CALLS' AND kind = 'resolved' THEN 1 ELSE 0 END) AS callsResolved,
    sum(CASE WHEN type(r) = 'CALLS' AND kind = 'not-found' THEN 1 ELSE 0 END) AS callsNotFound
}
RETURN language, resolved, byCompiler, byScip, byName, byHeuristic, builtin + external AS external, dynamic,
  notFound AS unresolved, notFound, callsResolved, callsNotFound
ORDER BY language
