import type { ChangeReview } from '@scopegraph/impact';
import { countTokens } from '../budget/tokenizer';
import { reviewPrompt, WrittenReviewService } from './written-review';

const ref = (name: string, path = 'src/a.ts') => ({ id: `r:${path}#${name}|function`, name, qualifiedName: name, kind: 'function', path, startLine: 1, endLine: 3 });

function review(callers: number, diffLines = 3): ChangeReview {
  const changed = ref('changed');
  return {
    repository: 'r',
    base: null,
    head: null,
    files: [{ path: 'src/a.ts', change: 'modified', linesAdded: 1, linesDeleted: 1, parsed: true, isTest: false }],
    changedScopes: [{ id: 'src/a.ts#changed|function', graphId: changed.id, name: 'changed', qualifiedName: 'changed', kind: 'function', path: 'src/a.ts', change: 'modified', startLine: 1, endLine: 3, inGraph: true }],
    impact: {
      repository: 'r',
      targets: [changed],
      depth: 2,
      levels: [{ depth: 1, scopes: Array.from({ length: callers }, (_, i) => ({ scope: ref(`caller${i}`, 'src/b.ts'), depth: 1, relation: 'caller' as const, isTest: false, path: [{ from: ref(`caller${i}`, 'src/b.ts').id, edge: 'CALLS', to: changed.id, line: 2, resolver: 'fast', via: null }] })) }],
      importers: [],
      tests: [],
      coverage: { edges: callers, nameOnlyEdges: callers, preciseEdges: 0, unresolvedSameName: 0, unresolvedInReached: 0, testsFound: false, truncated: false, summary: 'no tests found' },
      coChanged: [],
      history: 'git',
      elapsedMs: 1,
    },
    coChangeMissing: [],
    tests: [],
    warnings: [],
    diff: Array.from({ length: diffLines }, (_, i) => `+line ${i} of the change`).join('\n'),
  } as unknown as ChangeReview;
}

describe('written review prompt', () => {
  it('lists the changed scope first, citable by its id, dependents with their edges by name', () => {
    const p = reviewPrompt(review(2), 8_000);
    expect(p.user.split('\n')[1]).toBe('[r:src/a.ts#changed|function] modified function changed (src/a.ts:1-3)');
    expect(p.user).toContain('[r:src/b.ts#caller1|function] caller at depth 1: function caller1 (src/b.ts:1-3) via caller1 -CALLS[name]-> changed');
    expect(p.user).toContain('no test covering the changed code was found');
    expect([...p.citable.keys()]).toEqual(['r:src/a.ts#changed|function', 'r:src/b.ts#caller0|function', 'r:src/b.ts#caller1|function']);
    expect(p).toMatchObject({ factsOmitted: 0, diffTruncated: false });
  });

  it('fits its budget: facts past their share are left out (and not citable), the diff is cut', () => {
    const p = reviewPrompt(review(300, 2_000), 1_000);
    expect(p.tokens).toBeLessThanOrEqual(1_000);
    expect(countTokens(p.system) + countTokens(p.user)).toBe(p.tokens);
    expect(p.factsOmitted).toBeGreaterThan(200);
    expect(p.diffTruncated).toBe(true);
    expect(p.citable.has('r:src/a.ts#changed|function')).toBe(true);
    expect(p.citable.has('r:src/b.ts#caller299|function')).toBe(false);
  });

  it('without a chat model: unavailable, saying so', async () => {
    const service = new WrittenReviewService({ client: null }, { rerank: { maxAttempts: 1, retryBaseMs: 1 }, review: { modelTimeoutMs: 1_000, maxPromptTokens: 1_000, maxOutputTokens: 100 } } as never);
    const w = await service.write(review(1));
    expect(w).toMatchObject({ status: 'unavailable', text: null, citations: [] });
    expect(w.reason).toMatch(/^written review unavailable: no chat model is configured/);
  });
});
