import { blendScores, keywordScore, keywordTerms } from './keyword-blend';

const doc = (over: Partial<Parameters<typeof keywordScore>[1]>) => ({
  id: 'x', name: '', qualifiedName: '', signature: null, docComment: null, source: null, ...over,
});

describe('semantic_rerank keyword blend', () => {
  it('reads query terms as identifier sub-tokens', () => {
    expect(keywordTerms('createInvoice for a customer')).toEqual(['create', 'invoice', 'for', 'a', 'customer']);
  });

  it('scores a name hit double a body hit', () => {
    const terms = ['create', 'invoice'];
    expect(keywordScore(terms, doc({ name: 'CreateInvoice' }))).toBe(1);
    expect(keywordScore(terms, doc({ source: 'create(invoice)' }))).toBe(0.5);
    expect(keywordScore(terms, doc({ name: 'create', source: 'save(invoice)' }))).toBe(0.75);
    expect(keywordScore(terms, doc({ name: 'other' }))).toBe(0);
    expect(keywordScore([], doc({ name: 'create' }))).toBe(0);
  });

  it('blends (1 - w) · cosine + w · keyword / best keyword and re-sorts', () => {
    // Pool in semantic order. w = 0.5. Keyword normalised by 0.8:
    //   a: 0.5·0.90 + 0.5·0.0     = 0.45
    //   b: 0.5·0.80 + 0.5·(0.8/0.8) = 0.90
    //   c: 0.5·0.70 + 0.5·(0.4/0.8) = 0.60
    const out = blendScores(
      [
        { id: 'a', semantic: 0.9, keyword: 0 },
        { id: 'b', semantic: 0.8, keyword: 0.8 },
        { id: 'c', semantic: 0.7, keyword: 0.4 },
      ],
      0.5,
    );
    expect(out.map((o) => o.id)).toEqual(['b', 'c', 'a']);
    expect(out.map((o) => o.score)).toEqual([expect.closeTo(0.9, 9), expect.closeTo(0.6, 9), expect.closeTo(0.45, 9)]);
    expect(out[0].semantic).toEqual({ score: 0.8, rank: 2, contribution: expect.closeTo(0.4, 9) });
    expect(out[0].keyword).toEqual({ raw: 0.8, score: 1, rank: 1, contribution: 0.5 });
  });

  it('keeps the semantic order when no candidate has a keyword', () => {
    const out = blendScores([{ id: 'a', semantic: 0.9, keyword: 0 }, { id: 'b', semantic: 0.8, keyword: 0 }], 0.3);
    expect(out.map((o) => o.id)).toEqual(['a', 'b']);
    expect(out[0].keyword.score).toBe(0);
  });
});
