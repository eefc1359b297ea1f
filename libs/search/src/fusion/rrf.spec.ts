import { connectionList, rrfContribution, rrfFuse } from './rrf';

const items = (...ids: string[]) => ids.map((id, i) => ({ id, score: 1 - i / 10 }));

describe('weighted RRF', () => {
  it('matches a hand-computed example (k = 60, semantic 2, bm25 3)', () => {
    // semantic: A B C     bm25: B D A
    // A = 2/61 + 3/63 = 0.0327869 + 0.0476190 = 0.0804059
    // B = 2/62 + 3/61 = 0.0322581 + 0.0491803 = 0.0814384
    // C = 2/63        = 0.0317460
    // D = 3/62        = 0.0483871
    const fused = rrfFuse(
      [
        { name: 'semantic', weight: 2, items: items('A', 'B', 'C') },
        { name: 'bm25', weight: 3, items: items('B', 'D', 'A') },
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual(['B', 'A', 'D', 'C']);
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(score.A).toBeCloseTo(0.0804059, 6);
    expect(score.B).toBeCloseTo(0.0814384, 6);
    expect(score.C).toBeCloseTo(0.031746, 6);
    expect(score.D).toBeCloseTo(0.0483871, 6);
    const a = fused.find((f) => f.id === 'A')!;
    expect(a.lists.semantic).toEqual({ score: 1, rank: 1, contribution: 2 / 61 });
    expect(a.lists.bm25).toEqual({ score: expect.closeTo(0.8, 9), rank: 3, contribution: 3 / 63 });
    expect(fused.find((f) => f.id === 'D')!.lists.semantic).toBeUndefined();
  });

  it('breaks ties by best rank, then by id', () => {
    const fused = rrfFuse(
      [
        { name: 'semantic', weight: 1, items: items('B', 'A', 'C') },
        { name: 'bm25', weight: 1, items: items('A', 'B', 'D') },
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual(['A', 'B', 'C', 'D']);
    expect(fused[0].score).toBeCloseTo(fused[1].score, 12);
  });

  it('lets a weight of 0 report ranks without adding to the score', () => {
    const fused = rrfFuse(
      [
        { name: 'semantic', weight: 0, items: items('A') },
        { name: 'bm25', weight: 1, items: items('B') },
      ],
      60,
    );
    expect(fused.map((f) => [f.id, f.score])).toEqual([
      ['B', 1 / 61],
      ['A', 0],
    ]);
    expect(fused[1].lists.semantic?.rank).toBe(1);
  });

  it('changes with k as the formula says', () => {
    expect(rrfContribution(3, 60, 1)).toBeCloseTo(3 / 61, 12);
    expect(rrfContribution(3, 0, 1)).toBe(3);
  });

  it('counts an id repeated within one list once', () => {
    const [only] = rrfFuse([{ name: 'semantic', weight: 1, items: items('A', 'A') }], 60);
    expect(only.score).toBeCloseTo(1 / 61, 12);
  });

  it('ranks the graph signal by connections and leaves unconnected candidates out', () => {
    const list = connectionList(new Map([['a', 1], ['b', 3], ['c', 0], ['d', 3]]), 2);
    expect(list).toEqual({ name: 'graph', weight: 2, items: [{ id: 'b', score: 3 }, { id: 'd', score: 3 }, { id: 'a', score: 1 }] });
  });
});
