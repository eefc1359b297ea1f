import { bothListsStatement } from './search.repository';

describe('bothListsStatement', () => {
  it('joins two list files as subqueries, hoisting a CYPHER version line and renaming the columns', () => {
    const semantic = '// a comment\nCYPHER 25\nMATCH (s) RETURN count(*) AS pool, collect(s.id) AS hits';
    const keyword = '// keyword list\nMATCH (s) WITH s LIMIT $bm25K\nRETURN collect(s.id) AS hits';
    expect(bothListsStatement(semantic, keyword, ['pool', 'hits'])).toBe(
      [
        'CYPHER 25',
        'CALL () {',
        'MATCH (s) RETURN count(*) AS pool, collect(s.id) AS hits',
        '}',
        'WITH pool AS semanticPool, hits AS semanticHits',
        'CALL () {',
        'MATCH (s) WITH s LIMIT $bm25K\nRETURN collect(s.id) AS hits',
        '}',
        'RETURN semanticPool, semanticHits, hits AS bm25Hits',
      ].join('\n'),
    );
    expect(bothListsStatement('RETURN [] AS hits', 'RETURN [] AS hits', ['hits']).startsWith('CALL () {')).toBe(true);
    // The keyword list's Lucene top k also returns its pool (fulltext-limited.cypher).
    expect(bothListsStatement('RETURN [] AS hits', 'RETURN 0 AS pool, [] AS hits', ['hits'], ['pool', 'hits']).split('\n').pop()).toBe('RETURN semanticHits, pool AS bm25Pool, hits AS bm25Hits');
  });
});
