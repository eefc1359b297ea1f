import type { CoChange } from './aggregate';

/** A rule as ranking reads it: `to` changed in `support` of the commits that changed the query scope. */
export interface CoChangeRule {
  to: string;
  support: number;
  confidence: number;
}

export interface CoChangeScoreOptions {
  minSupport: number;
  minConfidence: number;
  /**
   * How the rules of several query scopes add up: `max` (the strongest single rule) or `noisyOr`
   * (1 - Π(1 - confidence): a partner of several query scopes outranks one of a single scope).
   */
  combine: 'max' | 'noisyOr';
}

/** Rules grouped by the scope they start from (what a ranking looks up per query scope). */
export function rulesByFrom(rules: CoChange[]): Map<string, CoChangeRule[]> {
  const out = new Map<string, CoChangeRule[]>();
  for (const r of rules) {
    const list = out.get(r.from) ?? [];
    list.push({ to: r.to, support: r.support, confidence: r.confidence });
    out.set(r.from, list);
  }
  return out;
}

/** Scopes that changed with the query scopes, best first, query scopes themselves left out. */
export function coChangeRanking(query: string[], rules: Map<string, CoChangeRule[]>, opts: CoChangeScoreOptions): string[] {
  const asked = new Set(query);
  const score = new Map<string, number>();
  for (const q of query) {
    for (const r of rules.get(q) ?? []) {
      if (asked.has(r.to) || r.support < opts.minSupport || r.confidence < opts.minConfidence) continue;
      const prev = score.get(r.to) ?? 0;
      score.set(r.to, opts.combine === 'max' ? Math.max(prev, r.confidence) : 1 - (1 - prev) * (1 - r.confidence));
    }
  }
  return byScore(score);
}

/**
 * Reciprocal-rank fusion of ranked lists with weights: robust to lists whose scores are not comparable
 * (static edge counts against rule confidences), which is why it is used instead of adding scores.
 */
export function fuseRanked(lists: { ids: string[]; weight: number }[], k = 60): string[] {
  const score = new Map<string, number>();
  for (const l of lists) l.ids.forEach((id, i) => score.set(id, (score.get(id) ?? 0) + l.weight / (k + i + 1)));
  return byScore(score);
}

/** `first`'s ranking, then what only `then` has, in its order. */
export function appendRanked(first: string[], then: string[]): string[] {
  const seen = new Set(first);
  return [...first, ...then.filter((id) => !seen.has(id))];
}

function byScore(score: Map<string, number>): string[] {
  return [...score.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
}

export interface FileHistoryInputs {
  /** The file node id of each candidate scope (functions and methods). */
  fileOf: Map<string, string>;
  /** File co-change rules, by file node id. */
  fileRules: Map<string, CoChangeRule[]>;
  scopesOfFile: Map<string, string[]>;
  /** Commits that changed each scope and each file (ChangeStats.changeCount by key). */
  changes: Map<string, number>;
  /** false: only files other than the query's own (what file co-change adds to "same file"). */
  ownFiles?: boolean;
}

/**
 * Scopes picked through file-level history: the query scopes' own files and the files that change with
 * them (rule confidence), then within a file the scopes that change most often when it does
 * (changes(scope) / changes(file)). File rules have far more support than scope rules on the same
 * commits, which is why they are tried as the way to pick where to look.
 */
export function fileHistoryRanking(query: string[], inp: FileHistoryInputs): string[] {
  const asked = new Set(query);
  const fileScore = new Map<string, number>();
  const queryFiles = new Set(query.map((q) => inp.fileOf.get(q)).filter((f): f is string => !!f));
  if (inp.ownFiles !== false) for (const f of queryFiles) fileScore.set(f, 1);
  for (const f of queryFiles) {
    for (const r of inp.fileRules.get(f) ?? []) if (!queryFiles.has(r.to)) fileScore.set(r.to, 1 - (1 - (fileScore.get(r.to) ?? 0)) * (1 - r.confidence));
  }
  const score = new Map<string, number>();
  for (const [f, fs] of fileScore) {
    const fileChanges = inp.changes.get(f) ?? 0;
    for (const s of inp.scopesOfFile.get(f) ?? []) {
      if (asked.has(s)) continue;
      // Smoothed: a scope never seen changing still ranks by its file, below those that were.
      score.set(s, fs * (((inp.changes.get(s) ?? 0) + 0.1) / (fileChanges + 1)));
    }
  }
  return byScore(score);
}
