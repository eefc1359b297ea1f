// What share of the searched repositories' scopes the vector list can see. A repository whose last
// run finished holds its counts on its node; one being indexed (or never finished) is counted live,
// so a search a few seconds into an index says how much of it has vectors yet. The WITH ... WHERE
// before the MATCH keeps finished repositories from being scanned.
MATCH (r:Repository)
WHERE $repoIds IS NULL OR r.id IN $repoIds
WITH r, coalesce(r.indexStatus, 'INDEXED') = 'INDEXED' AND r.scopes IS NOT NULL AND r.embedded IS NOT NULL AS settled
CALL (r, settled) {
  WITH r WHERE NOT settled
  MATCH (s:Scope {repoId: r.id})
  RETURN count(s) AS liveScopes, count(s.embeddingModel) AS liveEmbedded
}
RETURN sum(CASE WHEN settled THEN r.scopes ELSE liveScopes END) AS scopes,
       sum(CASE WHEN settled THEN r.embedded ELSE liveEmbedded END) AS embedded,
       count(CASE WHEN NOT settled THEN 1 END) AS indexing
