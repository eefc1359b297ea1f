// Keyword (BM25) list. $query is built by libs/search/src/query/lucene.ts: words and identifier
// sub-tokens, every Lucene special character escaped, plus a zero-boost repoId clause
// (withinRepositories) so that Lucene itself reads only the wanted repositories; the WHERE below
// still filters exactly. The procedure streams hits best first and
// Cypher pulls lazily, so filters here are applied as hits arrive and LIMIT stops the stream once
// $bm25K hits passed: a filtered query still gets k hits when they exist. No ORDER BY, which would
// force reading every match. One row holding the list in stream order: a row per hit cost the
// driver and Neo4j more than the hit itself. $bm25K rather than $k: the search runs this file and a
// semantic one (whose limit is $k) as one statement (search.repository.ts, bothLists).
CALL db.index.fulltext.queryNodes('scope_fulltext', $query) YIELD node AS s, score
WHERE s.repoId IN $repoIds
  AND s.kind IN $kinds
  AND s.language IN $languages
  AND ($paths IS NULL OR s.path IN $paths)
  AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
  AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
WITH s, score
LIMIT $bm25K
RETURN collect({id: s.id, score: score}) AS hits
