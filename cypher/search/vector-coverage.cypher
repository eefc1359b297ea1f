// What share of the searched repositories' scopes the vector list can see. A repository whose last
// run finished holds its counts on its node; one being indexed (or never finished) is counted live,
// so a search a few seconds into an index says how much of it has vectors yet. Finished repositories
// must not be scanned: the seek's key is null for them (it matches nothing). A `WITH r WHERE searched
// AND NOT settled` before the MATCH did not do that: the planner put that filter after the index seek,
// which then read every scope of every repository (1M scopes: ~1M db hits each read, once every
// CATALOG_TTL_MS, a hybrid p95 tail of its own). `elsewhere`: vectors of the
// finished repositories not searched, and `elsewhereIndexing` those being indexed (not counted):
// with none of the latter, the searched repositories' share of the vector index is known
// (filters/strategy.ts, index-postfilter); `elsewhereScopes` likewise decides the full-text index's share
// (keywordLuceneK).
MATCH (r:Repository)
WITH r, $repoIds IS NULL OR r.id IN $repoIds AS searched,
  coalesce(r.indexStatus, 'INDEXED') = 'INDEXED' AND r.scopes IS NOT NULL AND r.embedded IS NOT NULL AS settled
CALL (r, settled, searched) {
  MATCH (s:Scope) WHERE s.repoId = CASE WHEN searched AND NOT settled THEN r.id END
  RETURN count(s) AS liveScopes, count(s.embeddingModel) AS liveEmbedded
}
RETURN sum(CASE WHEN NOT searched THEN 0 WHEN settled THEN r.scopes ELSE liveScopes END) AS scopes,
       sum(CASE WHEN NOT searched THEN 0 WHEN settled THEN r.embedded ELSE liveEmbedded END) AS embedded,
       count(CASE WHEN searched AND NOT settled THEN 1 END) AS indexing,
       sum(CASE WHEN NOT searched AND settled THEN r.embedded ELSE 0 END) AS elsewhere,
       sum(CASE WHEN NOT searched AND settled THEN r.scopes ELSE 0 END) AS elsewhereScopes,
       count(CASE WHEN NOT searched AND NOT settled THEN 1 END) AS elsewhereIndexing
