import { type EvalQuery, QUERY_TYPES, type QueryType, queryLanguage } from './dataset';
import { firstRelevantRank, type Judgement } from './match';
import { meanMetrics, METRIC_CUTOFFS, percentileOf, type QueryMetrics, queryMetrics } from './metrics';

/** One query answered by one system (a search mode, or a peer). */
export interface EvalRun {
  system: string;
  query: EvalQuery;
  judgement: Judgement;
  /** Length of the judged list. */
  returned: number;
  /** Wall time seen by the caller (request to parsed answer). */
  latencyMs: number;
  /** The server's own `timings.total`, when known. */
  serverMs?: number;
}

/**
 * Graph questions (lines with `expand`) are reported apart from plain search questions, and typed
 * questions once more per type.
 */
export type Subset = 'all' | 'text' | 'graph' | QueryType;
const SUBSET_ORDER: readonly Subset[] = ['all', 'text', 'graph', ...QUERY_TYPES];

export function subsetOf(query: EvalQuery): 'text' | 'graph' {
  return query.expand ? 'graph' : 'text';
}

export interface Latency {
  p50: number;
  p95: number;
  mean: number;
}

export interface SystemReport {
  system: string;
  metrics: Partial<Record<Subset, QueryMetrics & { queries: number }>>;
  /** Client-side latency over all queries, and per subset in `latencyBySubset`. */
  latencyMs: Latency;
  latencyBySubset: Partial<Record<Subset, Latency>>;
  serverMs?: { p50: number; p95: number };
  /** When the questions span several languages (`meta.language`): the metrics per language, overall and per type. */
  byLanguage?: Record<string, LanguageMetrics>;
}

export type LanguageMetrics = Partial<Record<'all' | QueryType, QueryMetrics & { queries: number }>>;

export interface QueryReport {
  id: string;
  system: string;
  subset: 'text' | 'graph';
  type?: QueryType;
  language?: string;
  /** Rank of the first relevant scope, or null. */
  firstRank: number | null;
  /** Per target: path, name and the rank it was found at (null: not in the list). */
  targets: { path: string; name: string; rank: number | null }[];
  returned: number;
  metrics: QueryMetrics;
  latencyMs: number;
  serverMs?: number;
}

export interface EvalReport {
  k: number;
  cutoffs: { ndcg: number; mrr: number; recall: number; recallDeep: number; precision: number };
  systems: SystemReport[];
  queries: QueryReport[];
}

/** Per-system means (overall and per subset), latency percentiles and per-query ranks. */
export function buildReport(runs: readonly EvalRun[], k: number): EvalReport {
  const systems = [...new Set(runs.map((r) => r.system))];
  const queries: QueryReport[] = runs.map((r) => ({
    id: r.query.id,
    system: r.system,
    subset: subsetOf(r.query),
    ...(r.query.type ? { type: r.query.type } : {}),
    ...(queryLanguage(r.query) ? { language: queryLanguage(r.query) } : {}),
    firstRank: firstRelevantRank(r.judgement.judged),
    targets: r.query.relevant.map((t, i) => ({ path: t.path, name: t.name, rank: r.judgement.targetRanks[i] })),
    returned: r.returned,
    metrics: queryMetrics(r.judgement.judged, r.query.relevant.length, k),
    latencyMs: round(r.latencyMs),
    ...(r.serverMs !== undefined ? { serverMs: r.serverMs } : {}),
  }));
  return {
    k,
    cutoffs: { ndcg: k, mrr: k, recall: k, recallDeep: Math.max(k, METRIC_CUTOFFS.deepRecall), precision: METRIC_CUTOFFS.precision },
    systems: systems.map((system) => {
      const mine = queries.filter((q) => q.system === system);
      const metrics: SystemReport['metrics'] = { all: meanMetrics(mine.map((q) => q.metrics)) };
      const latencyBySubset: SystemReport['latencyBySubset'] = { all: latencyOf(mine) };
      for (const subset of ['text', 'graph'] as const) {
        const rows = mine.filter((q) => q.subset === subset);
        if (rows.length > 0 && rows.length < mine.length) {
          metrics[subset] = meanMetrics(rows.map((q) => q.metrics));
          latencyBySubset[subset] = latencyOf(rows);
        }
      }
      for (const type of QUERY_TYPES) {
        const rows = mine.filter((q) => q.type === type);
        if (rows.length > 0) {
          metrics[type] = meanMetrics(rows.map((q) => q.metrics));
          latencyBySubset[type] = latencyOf(rows);
        }
      }
      const server = mine.filter((q) => q.serverMs !== undefined).map((q) => q.serverMs!);
      const byLanguage = languageMetrics(mine);
      return {
        system,
        metrics,
        latencyMs: latencyBySubset.all!,
        latencyBySubset,
        ...(byLanguage ? { byLanguage } : {}),
        ...(server.length > 0 ? { serverMs: { p50: percentileOf(server, 50), p95: percentileOf(server, 95) } } : {}),
      };
    }),
    queries,
  };
}

/** Metrics per language and type, or undefined when the questions are in fewer than two languages. */
function languageMetrics(rows: readonly QueryReport[]): Record<string, LanguageMetrics> | undefined {
  const languages = [...new Set(rows.map((q) => q.language).filter((l): l is string => l !== undefined))].sort();
  if (languages.length < 2) return undefined;
  const out: Record<string, LanguageMetrics> = {};
  for (const language of languages) {
    const mine = rows.filter((q) => q.language === language);
    const metrics: LanguageMetrics = { all: meanMetrics(mine.map((q) => q.metrics)) };
    for (const type of QUERY_TYPES) {
      const typed = mine.filter((q) => q.type === type);
      if (typed.length > 0) metrics[type] = meanMetrics(typed.map((q) => q.metrics));
    }
    out[language] = metrics;
  }
  return out;
}

/**
 * Rows for the per-language table (header first): one row per language and system, with what each
 * question type is judged by (semantic nDCG, lexical MRR, structural Recall), or null without languages.
 */
export function languageRows(report: EvalReport): (string | number)[][] | null {
  const c = report.cutoffs;
  const withLanguages = report.systems.filter((s) => s.byLanguage);
  if (withLanguages.length === 0) return null;
  const rows: (string | number)[][] = [['language', 'system', 'queries', `nDCG@${c.ndcg}`, `semantic nDCG@${c.ndcg}`, `lexical MRR@${c.mrr}`, `structural R@${c.recall}`]];
  const languages = [...new Set(withLanguages.flatMap((s) => Object.keys(s.byLanguage!)))].sort();
  const cell = (m: (QueryMetrics & { queries: number }) | undefined, metric: keyof QueryMetrics) => (m ? fixed(m[metric]) : '-');
  for (const language of languages) {
    for (const s of withLanguages) {
      const m = s.byLanguage![language];
      if (!m?.all) continue;
      rows.push([language, s.system, m.all.queries, cell(m.all, 'ndcg'), cell(m.semantic, 'ndcg'), cell(m.lexical, 'mrr'), cell(m.structural, 'recall')]);
    }
  }
  return rows;
}

/** Rows for a table (header first) of one subset: the metrics, then client latency p50/p95. */
export function reportRows(report: EvalReport, subset: Subset): (string | number)[][] {
  const c = report.cutoffs;
  const header = ['system', 'queries', `nDCG@${c.ndcg}`, `MRR@${c.mrr}`, `R@${c.recall}`, `R@${c.recallDeep}`, `P@${c.precision}`, 'p50 ms', 'p95 ms'];
  const rows: (string | number)[][] = [header];
  for (const s of report.systems) {
    const m = s.metrics[subset];
    if (!m) continue;
    const latency = s.latencyBySubset[subset] ?? s.latencyMs;
    rows.push([s.system, m.queries, fixed(m.ndcg), fixed(m.mrr), fixed(m.recall), fixed(m.recallDeep), fixed(m.precision), fixed(latency.p50, 1), fixed(latency.p95, 1)]);
  }
  return rows;
}

/** Subsets present in a report, `all` first, then text/graph, then the question types. */
export function reportSubsets(report: EvalReport): Subset[] {
  const present = new Set<Subset>(['all']);
  for (const s of report.systems) for (const key of Object.keys(s.metrics)) present.add(key as Subset);
  return SUBSET_ORDER.filter((s) => present.has(s));
}

function latencyOf(rows: readonly { latencyMs: number }[]): Latency {
  const ms = rows.map((r) => r.latencyMs);
  return { p50: percentileOf(ms, 50), p95: percentileOf(ms, 95), mean: round(ms.reduce((s, x) => s + x, 0) / Math.max(1, ms.length)) };
}

function fixed(n: number, digits = 3): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** Aligned plain-text table (first row is the header): first column left, the others right-aligned. */
export function formatTable(rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const out: string[] = [];
  cells.forEach((r, n) => {
    out.push(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd());
    if (n === 0) out.push(widths.map((w) => '-'.repeat(w)).join('  '));
  });
  return out.join('\n');
}
