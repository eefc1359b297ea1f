/**
 * Ranking metrics with binary relevance, as information-retrieval papers define them (CodeSearchNet
 * reports nDCG and MRR this way). Pure functions over a judged ranked list: `relevant[i]` is 1 when
 * the hit at rank i + 1 is the first hit matching a target it had not matched before, else 0, and
 * `targets` is how many targets the query has. A hit repeating an already-found target counts 0, so
 * no metric can exceed 1.
 */

/** The cut-offs the evaluation reports; `k` is configurable (`scopegraph eval --k`), the others fixed. */
export const METRIC_CUTOFFS = { precision: 5, deepRecall: 50 } as const;

export type Judged = readonly (0 | 1)[];

/** Relevant hits in the first k, over k (a short list is not rewarded for stopping early). */
export function precisionAt(judged: Judged, k: number): number {
  checkK(k);
  return countRelevant(judged, k) / k;
}

/** Targets found in the first k, over all targets of the query. */
export function recallAt(judged: Judged, k: number, targets: number): number {
  checkK(k);
  if (targets <= 0) throw new RangeError('a query needs at least one target');
  return countRelevant(judged, k) / targets;
}

/** 1 / rank of the first relevant hit within the first k; 0 when none. */
export function reciprocalRankAt(judged: Judged, k: number): number {
  checkK(k);
  const n = Math.min(k, judged.length);
  for (let i = 0; i < n; i++) if (judged[i] === 1) return 1 / (i + 1);
  return 0;
}

/** Discounted cumulative gain: Σ rel_i / log2(i + 1) over ranks i = 1..k. */
export function dcgAt(judged: Judged, k: number): number {
  checkK(k);
  let dcg = 0;
  const n = Math.min(k, judged.length);
  for (let i = 0; i < n; i++) if (judged[i] === 1) dcg += 1 / Math.log2(i + 2);
  return dcg;
}

/** DCG of the perfect list: every target at the top, as many as fit in k. */
export function idealDcgAt(k: number, targets: number): number {
  checkK(k);
  let dcg = 0;
  for (let i = 0; i < Math.min(k, targets); i++) dcg += 1 / Math.log2(i + 2);
  return dcg;
}

/** DCG / ideal DCG, in [0, 1]. */
export function ndcgAt(judged: Judged, k: number, targets: number): number {
  if (targets <= 0) throw new RangeError('a query needs at least one target');
  return dcgAt(judged, k) / idealDcgAt(k, targets);
}

export interface QueryMetrics {
  ndcg: number;
  mrr: number;
  recall: number;
  recallDeep: number;
  precision: number;
}

/** The five numbers of one query: nDCG@k, MRR@k, Recall@k, Recall@50, Precision@5. */
export function queryMetrics(judged: Judged, targets: number, k: number): QueryMetrics {
  return {
    ndcg: ndcgAt(judged, k, targets),
    mrr: reciprocalRankAt(judged, k),
    recall: recallAt(judged, k, targets),
    recallDeep: recallAt(judged, Math.max(k, METRIC_CUTOFFS.deepRecall), targets),
    precision: precisionAt(judged, METRIC_CUTOFFS.precision),
  };
}

/** Mean of each metric over queries (all zeros for none, with `queries: 0`). */
export function meanMetrics(rows: QueryMetrics[]): QueryMetrics & { queries: number } {
  const n = rows.length;
  const mean = (key: keyof QueryMetrics) => (n === 0 ? 0 : rows.reduce((s, r) => s + r[key], 0) / n);
  return { queries: n, ndcg: mean('ndcg'), mrr: mean('mrr'), recall: mean('recall'), recallDeep: mean('recallDeep'), precision: mean('precision') };
}

/** Nearest-rank percentile (p in (0, 100]) of a sample; NaN for an empty one. */
export function percentileOf(values: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError('p must be in (0, 100]');
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function countRelevant(judged: Judged, k: number): number {
  let n = 0;
  for (let i = 0; i < Math.min(k, judged.length); i++) n += judged[i];
  return n;
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
}
