import { firstRelevantRank, judge, rankedScopes, type RankedScope, scopeMatchesTarget } from './match';

const scope = (qualifiedName: string, over: Partial<RankedScope> = {}): RankedScope => ({
  id: `r:${over.path ?? 'a.ts'}#${qualifiedName}|${over.kind ?? 'function'}${over.id ?? ''}`,
  repoId: 'r',
  path: 'a.ts',
  name: qualifiedName.split('.').pop()!,
  qualifiedName,
  kind: 'function',
  ...over,
  ...(over.id ? { id: over.id } : {}),
});

describe('matching a returned scope to a target', () => {
  it('needs the repository, the path and the qualified name', () => {
    const s = scope('Subscriber.next', { kind: 'method' });
    expect(scopeMatchesTarget(s, 'r', { path: 'a.ts', name: 'Subscriber.next' })).toBe(true);
    expect(scopeMatchesTarget(s, 'other', { path: 'a.ts', name: 'Subscriber.next' })).toBe(false);
    expect(scopeMatchesTarget(s, 'r', { path: 'b.ts', name: 'Subscriber.next' })).toBe(false);
    // A member is named with its class: its own name alone does not match.
    expect(scopeMatchesTarget(s, 'r', { path: 'a.ts', name: 'next' })).toBe(false);
  });

  it('also accepts the own name of a nested function', () => {
    const nested = scope('fromAjax.addErrorEvent');
    expect(scopeMatchesTarget(nested, 'r', { path: 'a.ts', name: 'addErrorEvent' })).toBe(true);
    expect(scopeMatchesTarget(nested, 'r', { path: 'a.ts', name: 'fromAjax.addErrorEvent' })).toBe(true);
  });
});

describe('judging a ranked list', () => {
  it('marks the first match of each target and records its rank', () => {
    const ranked = [scope('x'), scope('b'), scope('y'), scope('a')];
    const { judged, targetRanks } = judge(ranked, 'r', [
      { path: 'a.ts', name: 'a' },
      { path: 'a.ts', name: 'b' },
      { path: 'a.ts', name: 'missing' },
    ]);
    expect(judged).toEqual([0, 1, 0, 1]);
    expect(targetRanks).toEqual([4, 2, null]);
    expect(firstRelevantRank(judged)).toBe(2);
  });

  it('counts a target once when several scopes match it (overloads)', () => {
    const ranked = [scope('of'), scope('of', { id: 'r:a.ts#of|function~1' }), scope('z')];
    const { judged, targetRanks } = judge(ranked, 'r', [{ path: 'a.ts', name: 'of' }]);
    expect(judged).toEqual([1, 0, 0]);
    expect(targetRanks).toEqual([1]);
    expect(firstRelevantRank([0, 0])).toBeNull();
  });
});

describe('the judged list with graph expansion', () => {
  const hits = [
    { scope: scope('Subscriber', { kind: 'class' }), neighbors: [{ scope: scope('SafeSubscriber', { kind: 'class' }) }, { scope: scope('OperatorSubscriber', { kind: 'class' }) }] },
    { scope: scope('SafeSubscriber', { kind: 'class' }), neighbors: [] },
    { scope: scope('Subscription', { kind: 'class' }), neighbors: [{ scope: scope('Subscriber', { kind: 'class' }) }] },
  ];

  it('puts each hit\'s neighbors right after it and keeps the first occurrence of a scope', () => {
    expect(rankedScopes(hits, true).map((s) => s.qualifiedName)).toEqual(['Subscriber', 'SafeSubscriber', 'OperatorSubscriber', 'Subscription']);
  });

  it('is the hits alone without expansion', () => {
    expect(rankedScopes(hits, false).map((s) => s.qualifiedName)).toEqual(['Subscriber', 'SafeSubscriber', 'Subscription']);
  });
});
