import type { ChangeStats } from './aggregate';

/**
 * History as a small prior on a ranked list (bug-localization studies find recently and frequently
 * changed code more often at fault). Off unless measured to help: see bench/localize/history-prior.ts.
 */
export type HistoryPriorKind = 'recency' | 'frequency' | 'recentChurn' | 'fileFrequency';

export interface HistoryPriorOptions {
  kind: HistoryPriorKind;
  /** score × (1 + weight × prior), prior in [0, 1]. */
  weight: number;
  /** Recency's half-life in days, counted back from `now` (the newest commit read). */
  halfLifeDays: number;
}

export interface PriorInputs {
  /** Stats by scope id and by file node id. */
  stats: Map<string, ChangeStats>;
  fileOf: (id: string) => string;
  now: number;
}

/** The prior of each candidate, in [0, 1], normalised over the candidates (log counts, decayed age). */
export function historyPrior(ids: string[], inp: PriorInputs, opts: HistoryPriorOptions): Map<string, number> {
  const raw = new Map<string, number>();
  for (const id of ids) {
    const s = inp.stats.get(opts.kind === 'fileFrequency' ? inp.fileOf(id) : id);
    let v = 0;
    if (s) {
      if (opts.kind === 'recency') v = Math.pow(0.5, Math.max(0, inp.now - s.lastChangedAt) / (opts.halfLifeDays * 86400));
      else if (opts.kind === 'recentChurn') v = Math.log1p(s.recentChanges);
      else v = Math.log1p(s.changeCount);
    }
    raw.set(id, v);
  }
  const max = Math.max(0, ...raw.values());
  if (opts.kind !== 'recency' && max > 0) for (const [id, v] of raw) raw.set(id, v / max);
  return raw;
}

/** Re-ranks scored candidates by score × (1 + weight × prior); ties keep the input order. */
export function applyHistoryPrior<T extends { id: string; score: number }>(hits: T[], inp: PriorInputs, opts: HistoryPriorOptions): T[] {
  if (opts.weight <= 0) return hits;
  const prior = historyPrior(
    hits.map((h) => h.id),
    inp,
    opts,
  );
  return hits
    .map((h, i) => ({ h, i, s: h.score * (1 + opts.weight * (prior.get(h.id) ?? 0)) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.h);
}
