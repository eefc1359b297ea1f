import type { Judged } from './metrics';

/** What the evaluation needs to know about a returned scope (a hit or a neighbor). */
export interface RankedScope {
  id: string;
  repoId: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
}

/** One expected answer: a declaration in a repository-relative file. */
export interface EvalTarget {
  path: string;
  /** The declared identifier: `Class.method` for members, the qualified or own name for a nested function. */
  name: string;
  /** Informative (reports); matching is by repository, path and name. */
  kind?: string;
}

/** A hit with the neighbors graph expansion found around it. */
export interface RankedHit {
  scope: RankedScope;
  neighbors?: { scope: RankedScope }[] | null;
}

/**
 * A scope answers a target when repository and path agree and the target's name is the scope's
 * qualified name, or, for a nested function (`outer.inner`), its own name (`inner`).
 */
export function scopeMatchesTarget(scope: RankedScope, repo: string, target: EvalTarget): boolean {
  if (scope.repoId !== repo || scope.path !== target.path) return false;
  if (scope.qualifiedName === target.name) return true;
  return isNestedFunction(scope) && scope.name === target.name;
}

function isNestedFunction(scope: RankedScope): boolean {
  return scope.kind === 'function' && scope.qualifiedName !== scope.name;
}

/**
 * The list that is judged. Without expansion: the hits. With expansion: each hit followed by its
 * neighbors, in the order the API returns them, keeping the first occurrence of every scope. Putting
 * a hit's neighbors right after it (rather than after all hits) is what lets a graph question ("what
 * extends Subscriber") be answered in the top 10: the anchor is found by search, the answer is one
 * hop away.
 */
export function rankedScopes(hits: readonly RankedHit[], withNeighbors: boolean): RankedScope[] {
  const seen = new Set<string>();
  const out: RankedScope[] = [];
  const push = (scope: RankedScope) => {
    if (seen.has(scope.id)) return;
    seen.add(scope.id);
    out.push(scope);
  };
  for (const hit of hits) {
    push(hit.scope);
    if (withNeighbors) for (const n of hit.neighbors ?? []) push(n.scope);
  }
  return out;
}

export interface Judgement {
  /** Per position: 1 when that scope is the first match of a target not matched higher up. */
  judged: (0 | 1)[];
  /** Per target (dataset order): 1-based rank of its first match, or null when not in the list. */
  targetRanks: (number | null)[];
}

/**
 * Judges a ranked list against a query's targets. A scope that matches a target already found
 * (an overload, a getter/setter pair) counts 0, so metrics stay within [0, 1].
 */
export function judge(ranked: readonly RankedScope[], repo: string, targets: readonly EvalTarget[]): Judgement {
  const targetRanks: (number | null)[] = targets.map(() => null);
  const judged: (0 | 1)[] = ranked.map((scope, i) => {
    const t = targets.findIndex((target, j) => targetRanks[j] === null && scopeMatchesTarget(scope, repo, target));
    if (t === -1) return 0;
    targetRanks[t] = i + 1;
    return 1;
  });
  return { judged, targetRanks };
}

/** Rank of the first relevant position (1-based), or null. */
export function firstRelevantRank(judged: Judged): number | null {
  const i = judged.indexOf(1);
  return i === -1 ? null : i + 1;
}
