// Candidates for "what else changes with these scopes" (impact's changesWith), in one round trip:
// static neighbours the asked scopes depend on (counted over the asked scopes; their dependents come
// from impact's walk, which reads them anyway: reading a hub's thousand callers twice doubled its
// p95 under load), the functions and methods of
// the asked scopes' files nearest by line, and history's scope-level CO_CHANGED rules ($coChange false:
// the caller brings its own rules). Functions and methods only: what the ranking was measured on.
// Each source is bounded ($perSource rows; same-file per asked scope) so a hub costs no more than a leaf.
CALL () {
  UNWIND $ids AS id
  MATCH (q:Scope {id: id})-[:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]->(s:Scope)
  WHERE s.kind IN ['function', 'method'] AND NOT s.id IN $ids
  WITH s, count(DISTINCT q) AS links
  ORDER BY links DESC, s.id
  LIMIT $perSource
  RETURN 'static' AS source, s, links, null AS query, null AS distance, null AS support, null AS confidence
  UNION ALL
  UNWIND $ids AS id
  MATCH (q:Scope {id: id})
  CALL (q) {
    MATCH (s:Scope {repoId: q.repoId, path: q.path})
    WHERE s.kind IN ['function', 'method'] AND NOT s.id IN $ids
    WITH s, abs(coalesce(s.startLine, 0) - coalesce(q.startLine, 0)) AS distance
    ORDER BY distance, s.id
    LIMIT $perSource
    RETURN s, distance
  }
  RETURN 'same-file' AS source, s, null AS links, q.id AS query, distance, null AS support, null AS confidence
  UNION ALL
  UNWIND CASE WHEN $coChange THEN $ids ELSE [] END AS id
  MATCH (q:Scope {id: id})-[e:CO_CHANGED]->(s:Scope)
  WHERE e.level = 'scope' AND s.kind IN ['function', 'method'] AND NOT s.id IN $ids
  RETURN 'co-change' AS source, s, null AS links, q.id AS query, null AS distance, e.support AS support, e.confidence AS confidence
}
RETURN source, s.id AS id, s.name AS name, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
       s.startLine AS startLine, s.endLine AS endLine, links, query, distance, support, confidence
