import { PartnerRow, rankChangeSuggestions } from './change-suggestions';

const ref = (id: string, kind = 'function', startLine = 1) => ({ id, name: id, qualifiedName: id, kind, path: 'a.ts', startLine, endLine: startLine + 1 });
const row = (source: PartnerRow['source'], id: string, extra: Partial<PartnerRow> = {}): PartnerRow => ({ ...ref(id), source, links: null, query: null, distance: null, support: null, confidence: null, ...extra });

describe('rankChangeSuggestions', () => {
  it('fuses static, same-file and co-change by reciprocal rank, co-change at half weight, with provenance', () => {
    const rows = [
      row('static', 's1', { links: 2 }),
      row('static', 'both', { links: 1 }),
      row('same-file', 'both', { query: 'q', distance: 3 }),
      row('same-file', 'near', { query: 'q', distance: 1 }),
      row('co-change', 'co', { query: 'q', support: 4, confidence: 0.5 }),
      row('co-change', 'co', { query: 'q2', support: 2, confidence: 0.5 }),
    ];
    const out = rankChangeSuggestions(['q', 'q2'], rows, [{ scope: ref('dep'), depth: 2 }], 10);
    // both: 1/62 + 1/62; s1 and near: 1/61; dep: 1/63; co: 0.5/61.
    expect(out.map((s) => s.scope.id)).toEqual(['both', 'near', 's1', 'dep', 'co']);
    expect(out[0].sources).toEqual([
      expect.objectContaining({ kind: 'static', rank: 2, links: 1, depth: 1 }),
      expect.objectContaining({ kind: 'same-file', rank: 2, lineDistance: 3, with: ['q'] }),
    ]);
    expect(out.find((s) => s.scope.id === 'dep')!.sources).toEqual([expect.objectContaining({ kind: 'static', links: 0, depth: 2 })]);
    // Two rules of 0.5 combine to 0.75 (noisy-or); support is the strongest rule's.
    expect(out.find((s) => s.scope.id === 'co')!.sources).toEqual([expect.objectContaining({ kind: 'co-change', rank: 1, support: 4, confidence: 0.75, with: ['q', 'q2'] })]);
  });

  it('leaves out asked scopes, kinds other than functions and methods, weak rules and deep dependents', () => {
    const rows = [
      row('static', 'q', { links: 1 }),
      { ...row('static', 'cls', { links: 1 }), kind: 'class' },
      row('co-change', 'weak', { query: 'q', support: 1, confidence: 0.9 }),
      row('co-change', 'rare', { query: 'q', support: 5, confidence: 0.05 }),
    ];
    expect(rankChangeSuggestions(['q'], rows, [{ scope: ref('deep'), depth: 3 }], 10)).toEqual([]);
  });

  it('returns at most the limit', () => {
    const rows = ['a', 'b', 'c'].map((id, i) => row('same-file', id, { query: 'q', distance: i }));
    expect(rankChangeSuggestions(['q'], rows, [], 2).map((s) => s.scope.id)).toEqual(['a', 'b']);
  });
});
