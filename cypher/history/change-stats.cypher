// The history of the most-changed scopes or files of a repository (optionally under a path prefix, or
// exactly the given ids), with co-change partners.
MATCH (s:Scope {repoId: $repoId})
WHERE s.changeCount IS NOT NULL
  AND ($ids IS NULL OR s.id IN $ids)
  AND ($files = ('File' IN labels(s)))
  AND ($pathPrefix IS NULL OR s.path STARTS WITH $pathPrefix)
WITH s ORDER BY s.changeCount DESC, s.lastChangedAt DESC, s.id LIMIT $limit
OPTIONAL MATCH (s)-[e:CO_CHANGED]->(p:Scope)
WITH s, e, p ORDER BY e.confidence DESC, e.support DESC, p.id
WITH s, [x IN collect(CASE WHEN p IS NULL THEN null ELSE {id: p.id, qualifiedName: p.qualifiedName, path: p.path, support: e.support, confidence: e.confidence} END) WHERE x IS NOT NULL][0..$partners] AS partners
RETURN s.id AS id, s.qualifiedName AS qualifiedName, s.kind AS kind, s.path AS path,
       s.changeCount AS changeCount, s.lastChangedAt AS lastChangedAt, s.lastCommit AS lastCommit,
       s.recentChurn AS recentChurn, s.recentChanges AS recentChanges, s.mainAuthors AS mainAuthors, partners
ORDER BY s.changeCount DESC, s.lastChangedAt DESC, s.id
