// Keyword (BM25) list when the Lucene query itself narrows to everything the filters keep (repository
// clauses of withinRepositories; every kind and language; no path or name filter): Lucene is asked
// for the top $bm25K only (the `limit` option), so it collects a top-k instead of every match. At a
// million scopes a query of common words matches hundreds of thousands of documents, and collecting
// all of them is most of the keyword list's time (docs/ingest-scale.md, "Query tails at 1M"). The
// filters are still applied exactly; "pool" = how many Lucene returned: with fewer than $bm25K kept
// and pool = $luceneK the caller asks fulltext.cypher instead. When the searched repositories hold
// nearly all of the index, $query has no repository clause (a required clause matching a million
// documents was most of the cost) and $luceneK is a little over $bm25K / share.
// Ties (equal scores) come in Lucene's top-k order, which may differ from fulltext.cypher's.
CALL db.index.fulltext.queryNodes('scope_fulltext', $query, {limit: $luceneK}) YIELD node AS s, score
WITH count(*) AS pool,
  collect(CASE
    WHEN s.repoId IN $repoIds
      AND s.kind IN $kinds
      AND s.language IN $languages
      AND ($paths IS NULL OR s.path IN $paths)
      AND ($pathContains IS NULL OR s.path CONTAINS $pathContains)
      AND ($name IS NULL OR s.name = $name OR s.qualifiedName = $name)
    THEN {id: s.id, score: score}
  END) AS hits
RETURN pool, hits[0..$bm25K] AS hits
