import type { EvalQuery } from './dataset';
import type { Judgement } from './match';

/**
 * Issue localization as the literature measures it (SWE-bench Lite, LocAgent arXiv 2503.09089,
 * SweRank arXiv 2505.07849): function Acc@k = every function the real fix changed is in the top k;
 * file Acc@k = every file it changed is among the top k files; any-hit@10 = at least one of its
 * functions is in the top 10. Pure functions over judged lists.
 */
export const LOCALIZATION_CUTOFFS = { functions: [1, 5, 10], files: [1, 5], anyHit: 10 } as const;

export interface LocalizationRun {
  system: string;
  query: EvalQuery;
  judgement: Judgement;
  /** The system's files, best first (LOCALIZE's roll-up; otherwise the ranked scopes' files in order of first appearance). */
  files: string[];
}

export interface LocalizationMetrics {
  queries: number;
  functionAcc: Record<number, number>;
  fileAcc: Record<number, number>;
  anyHit: number;
}

/** The project a query is about (its `meta.project`, else its repository): the per-repository rows. */
export function projectOf(query: EvalQuery): string {
  const project = query.meta?.project;
  return typeof project === 'string' && project ? project : query.repo;
}

/** The files in order of first appearance in a ranked list. */
export function filesInOrder(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

export function localizationOf(run: LocalizationRun): { functionAcc: Record<number, 0 | 1>; fileAcc: Record<number, 0 | 1>; anyHit: 0 | 1 } {
  const ranks = run.judgement.targetRanks;
  const allWithin = (k: number): 0 | 1 => (ranks.every((r) => r !== null && r <= k) ? 1 : 0);
  const targetFiles = [...new Set(run.query.relevant.map((t) => t.path))];
  const fileWithin = (k: number): 0 | 1 => (targetFiles.every((f) => { const i = run.files.indexOf(f); return i !== -1 && i < k; }) ? 1 : 0);
  return {
    functionAcc: Object.fromEntries(LOCALIZATION_CUTOFFS.functions.map((k) => [k, allWithin(k)])),
    fileAcc: Object.fromEntries(LOCALIZATION_CUTOFFS.files.map((k) => [k, fileWithin(k)])),
    anyHit: ranks.some((r) => r !== null && r <= LOCALIZATION_CUTOFFS.anyHit) ? 1 : 0,
  };
}

/** Means per system, overall and per project, over the runs of `issue` queries. */
export function localizationReport(runs: readonly LocalizationRun[]): { system: string; project: string; metrics: LocalizationMetrics }[] {
  const groups = new Map<string, { system: string; project: string; rows: ReturnType<typeof localizationOf>[] }>();
  for (const run of runs) {
    const row = localizationOf(run);
    for (const project of ['all', projectOf(run.query)]) {
      const key = `${run.system}\u0000${project}`;
      const g = groups.get(key) ?? { system: run.system, project, rows: [] };
      g.rows.push(row);
      groups.set(key, g);
    }
  }
  return [...groups.values()].map(({ system, project, rows }) => {
    const mean = (pick: (r: ReturnType<typeof localizationOf>) => number) => rows.reduce((s, r) => s + pick(r), 0) / rows.length;
    return {
      system,
      project,
      metrics: {
        queries: rows.length,
        functionAcc: Object.fromEntries(LOCALIZATION_CUTOFFS.functions.map((k) => [k, mean((r) => r.functionAcc[k])])),
        fileAcc: Object.fromEntries(LOCALIZATION_CUTOFFS.files.map((k) => [k, mean((r) => r.fileAcc[k])])),
        anyHit: mean((r) => r.anyHit),
      },
    };
  });
}

/** Table rows (header first): per project (overall first), one row per system. */
export function localizationRows(report: ReturnType<typeof localizationReport>): (string | number)[][] {
  const header = ['project', 'system', 'issues', ...LOCALIZATION_CUTOFFS.functions.map((k) => `fn Acc@${k}`), ...LOCALIZATION_CUTOFFS.files.map((k) => `file Acc@${k}`), `any@${LOCALIZATION_CUTOFFS.anyHit}`];
  const projects = [...new Set(report.map((r) => r.project))].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
  const rows: (string | number)[][] = [header];
  for (const project of projects) {
    for (const r of report.filter((x) => x.project === project)) {
      const m = r.metrics;
      rows.push([project, r.system, m.queries, ...LOCALIZATION_CUTOFFS.functions.map((k) => m.functionAcc[k].toFixed(3)), ...LOCALIZATION_CUTOFFS.files.map((k) => m.fileAcc[k].toFixed(3)), m.anyHit.toFixed(3)]);
    }
  }
  return rows;
}
