import { appendRanked, coChangeRanking, fileHistoryRanking, fuseRanked, rulesByFrom } from './co-change-rank';
import { applyHistoryPrior, historyPrior } from './history-prior';
import type { ChangeStats } from './aggregate';

describe('co-change ranking', () => {
  const rules = rulesByFrom([
    { from: 'a', to: 'x', support: 5, confidence: 0.5 },
    { from: 'b', to: 'x', support: 2, confidence: 0.4 },
    { from: 'a', to: 'y', support: 1, confidence: 0.6 },
    { from: 'a', to: 'b', support: 9, confidence: 0.9 },
  ]);

  it('adds evidence of several query scopes with noisy-or, keeps the strongest rule with max, and applies thresholds', () => {
    expect(coChangeRanking(['a', 'b'], rules, { minSupport: 1, minConfidence: 0, combine: 'noisyOr' })).toEqual(['x', 'y']);
    expect(coChangeRanking(['a', 'b'], rules, { minSupport: 1, minConfidence: 0, combine: 'max' })).toEqual(['y', 'x']);
    expect(coChangeRanking(['a'], rules, { minSupport: 2, minConfidence: 0, combine: 'max' })).toEqual(['b', 'x']);
  });

  it('fuses ranked lists by weighted reciprocal rank and appends what the first list lacks', () => {
    expect(fuseRanked([{ ids: ['p', 'q'], weight: 1 }, { ids: ['q', 'r'], weight: 1 }])).toEqual(['q', 'p', 'r']);
    expect(fuseRanked([{ ids: ['p', 'q'], weight: 1 }, { ids: ['q'], weight: 0.01 }])[0]).toBe('p');
    expect(appendRanked(['p', 'q'], ['q', 'r', 'p', 's'])).toEqual(['p', 'q', 'r', 's']);
  });

  it('picks scopes through file history: own and co-changed files, then how often a scope changes with its file', () => {
    const fileOf = new Map([['q1', 'F'], ['s1', 'F'], ['s2', 'F'], ['t1', 'G'], ['u1', 'H']]);
    const ranked = fileHistoryRanking(['q1'], {
      fileOf,
      fileRules: rulesByFrom([{ from: 'F', to: 'G', support: 3, confidence: 0.5 }]),
      scopesOfFile: new Map([['F', ['q1', 's1', 's2']], ['G', ['t1']], ['H', ['u1']]]),
      changes: new Map([['F', 10], ['s1', 1], ['s2', 8], ['G', 4], ['t1', 4]]),
    });
    expect(ranked).toEqual(['s2', 't1', 's1']);
  });
});

describe('history prior', () => {
  const stat = (key: string, changeCount: number, lastChangedAt: number, recentChanges = 0): ChangeStats => ({ key, changeCount, lastChangedAt, lastCommit: '', recentChurn: 0, recentChanges, mainAuthors: [] });
  const stats = new Map([['old', stat('old', 1, 0)], ['hot', stat('hot', 20, 1000 * 86400, 5)]]);
  const inp = { stats, now: 1000 * 86400, fileOf: (id: string) => id };

  it('normalises counts over the candidates and decays age by the half-life', () => {
    const f = historyPrior(['old', 'hot', 'none'], inp, { kind: 'frequency', weight: 1, halfLifeDays: 0 });
    expect(f.get('hot')).toBe(1);
    expect(f.get('old')).toBeCloseTo(Math.log1p(1) / Math.log1p(20));
    expect(f.get('none')).toBe(0);
    const r = historyPrior(['old', 'hot'], inp, { kind: 'recency', weight: 1, halfLifeDays: 500 });
    expect(r.get('hot')).toBe(1);
    expect(r.get('old')).toBeCloseTo(0.25);
  });

  it('re-ranks by score × (1 + weight × prior), and leaves the list alone at weight 0', () => {
    const hits = [{ id: 'old', score: 1 }, { id: 'hot', score: 0.9 }];
    expect(applyHistoryPrior(hits, inp, { kind: 'frequency', weight: 0.2, halfLifeDays: 0 }).map((h) => h.id)).toEqual(['hot', 'old']);
    expect(applyHistoryPrior(hits, inp, { kind: 'frequency', weight: 0.05, halfLifeDays: 0 }).map((h) => h.id)).toEqual(['old', 'hot']);
    expect(applyHistoryPrior(hits, inp, { kind: 'frequency', weight: 0, halfLifeDays: 0 })).toBe(hits);
  });
});
