import { dcgAt, idealDcgAt, meanMetrics, ndcgAt, percentileOf, precisionAt, queryMetrics, recallAt, reciprocalRankAt } from './metrics';

// Hand-computed examples. log2(2) = 1, log2(3) = 1.5849625, log2(4) = 2, log2(5) = 2.3219281.
describe('ranking metrics (binary relevance)', () => {
  // Ranks 1..5: miss, HIT, miss, HIT, miss; the query has 2 targets.
  const judged = [0, 1, 0, 1, 0] as const;

  it('DCG, ideal DCG and nDCG', () => {
    // DCG@5 = 1/log2(3) + 1/log2(5) = 0.6309298 + 0.4306766 = 1.0616064
    expect(dcgAt(judged, 5)).toBeCloseTo(1.0616064, 6);
    // IDCG@5 for 2 targets = 1/log2(2) + 1/log2(3) = 1 + 0.6309298 = 1.6309298
    expect(idealDcgAt(5, 2)).toBeCloseTo(1.6309298, 6);
    // nDCG@5 = 1.0616064 / 1.6309298 = 0.6509209
    expect(ndcgAt(judged, 5, 2)).toBeCloseTo(0.6509209, 6);
    // Only the hit at rank 2 is inside k = 3: 0.6309298 / 1.6309298 = 0.3868528
    expect(ndcgAt(judged, 3, 2)).toBeCloseTo(0.3868528, 6);
  });

  it('MRR, recall and precision', () => {
    expect(reciprocalRankAt(judged, 10)).toBe(0.5);
    expect(reciprocalRankAt(judged, 1)).toBe(0);
    expect(recallAt(judged, 5, 2)).toBe(1);
    expect(recallAt(judged, 3, 2)).toBe(0.5);
    expect(precisionAt(judged, 5)).toBe(0.4);
    expect(precisionAt(judged, 2)).toBe(0.5);
  });

  it('gives 1 everywhere it can for a single answer at rank 1', () => {
    expect(queryMetrics([1], 1, 10)).toEqual({ ndcg: 1, mrr: 1, recall: 1, recallDeep: 1, precision: 0.2 });
  });

  it('divides precision by k even when fewer results came back', () => {
    expect(precisionAt([1, 1], 5)).toBe(0.4);
  });

  it('caps the ideal list at k when a query has more targets than k', () => {
    // 3 hits in 3 slots, 5 targets: the best possible top 3, so nDCG@3 = 1 while recall@3 = 3/5.
    expect(ndcgAt([1, 1, 1], 3, 5)).toBeCloseTo(1, 12);
    expect(recallAt([1, 1, 1], 3, 5)).toBe(0.6);
  });

  it('ignores relevant hits below the cut-off', () => {
    // Three targets found at ranks 1, 4 and 12: nDCG@10 = (1 + 1/log2(5)) / (1 + 1/log2(3) + 1/log2(4)) = 0.6713861
    const ranks = Array.from({ length: 12 }, (_, i) => ([0, 3, 11].includes(i) ? 1 : 0)) as (0 | 1)[];
    const m = queryMetrics(ranks, 3, 10);
    expect(m.ndcg).toBeCloseTo(0.6713861, 6);
    expect(m.mrr).toBe(1);
    expect(m.recall).toBeCloseTo(2 / 3, 12);
    expect(m.recallDeep).toBe(1);
    // Ranks 1 and 4 are in the top 5: 2 / 5.
    expect(m.precision).toBe(0.4);
  });

  it('scores an empty or all-miss list 0', () => {
    expect(queryMetrics([], 2, 10)).toEqual({ ndcg: 0, mrr: 0, recall: 0, recallDeep: 0, precision: 0 });
    expect(queryMetrics([0, 0, 0], 1, 10)).toEqual({ ndcg: 0, mrr: 0, recall: 0, recallDeep: 0, precision: 0 });
  });

  it('refuses a query without targets and a bad k', () => {
    expect(() => ndcgAt([1], 10, 0)).toThrow(/at least one target/);
    expect(() => recallAt([1], 10, 0)).toThrow(/at least one target/);
    expect(() => precisionAt([1], 0)).toThrow(/positive integer/);
  });

  it('averages per metric', () => {
    const mean = meanMetrics([queryMetrics([1], 1, 10), queryMetrics([0, 1], 1, 10)]);
    // MRR: (1 + 1/2) / 2 = 0.75; nDCG: (1 + 0.6309298) / 2 = 0.8154649; P@5: (0.2 + 0.2) / 2
    expect(mean).toEqual({ queries: 2, ndcg: expect.closeTo(0.8154649, 6), mrr: 0.75, recall: 1, recallDeep: 1, precision: 0.2 });
    expect(meanMetrics([])).toEqual({ queries: 0, ndcg: 0, mrr: 0, recall: 0, recallDeep: 0, precision: 0 });
  });

  it('takes nearest-rank percentiles', () => {
    const xs = Array.from({ length: 20 }, (_, i) => 20 - i); // 20..1, unsorted on purpose
    expect(percentileOf(xs, 50)).toBe(10);
    expect(percentileOf(xs, 95)).toBe(19);
    expect(percentileOf(xs, 100)).toBe(20);
    expect(percentileOf([7], 95)).toBe(7);
    expect(percentileOf([], 50)).toBeNaN();
  });
});
