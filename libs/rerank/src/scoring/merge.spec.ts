import { mergeScores, normalizeRetrievalScores } from './merge';

describe('mergeScores', () => {
  const w = { vector: 0.3, llm: 0.7 };

  it('weighted: 0.3·vector + 0.7·llm with the default weights', () => {
    expect(mergeScores('weighted', 0.8, 0.4, w)).toBeCloseTo(0.3 * 0.8 + 0.7 * 0.4, 12);
    expect(mergeScores('weighted', 1, 1, w)).toBeCloseTo(1, 12);
    expect(mergeScores('weighted', 0, 0, w)).toBe(0);
  });

  it('weighted: other weights are normalised so the result stays on [0, 1]', () => {
    expect(mergeScores('weighted', 0.8, 0.4, { vector: 1, llm: 1 })).toBeCloseTo(0.6, 12);
    expect(mergeScores('weighted', 0.8, 0.4, { vector: 0, llm: 2 })).toBeCloseTo(0.4, 12);
    expect(mergeScores('weighted', 1, 1, { vector: 3, llm: 5 })).toBeCloseTo(1, 12);
  });

  it('multiplicative: both must agree', () => {
    expect(mergeScores('multiplicative', 0.8, 0.5, w)).toBeCloseTo(0.4, 12);
    expect(mergeScores('multiplicative', 0.9, 0, w)).toBe(0);
  });

  it('llm-override: the LLM alone above 0.9, an even blend otherwise', () => {
    expect(mergeScores('llm-override', 0.2, 0.95, w)).toBe(0.95);
    expect(mergeScores('llm-override', 0.2, 0.9, w)).toBeCloseTo(0.55, 12);
    expect(mergeScores('llm-override', 0.6, 0.4, w)).toBeCloseTo(0.5, 12);
  });
});

describe('normalizeRetrievalScores', () => {
  it('keeps scores already on [0, 1] (cosine) as they are', () => {
    expect(normalizeRetrievalScores([0.91, 0.5, 0])).toEqual([0.91, 0.5, 0]);
  });

  it('scales lists that leave [0, 1] (BM25, RRF sums) by their best; junk counts as 0', () => {
    expect(normalizeRetrievalScores([12, 6, 3])).toEqual([1, 0.5, 0.25]);
    expect(normalizeRetrievalScores([4, -1, NaN])).toEqual([1, 0, 0]);
  });
});
