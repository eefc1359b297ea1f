/**
 * Checks the retrieval-quality targets per question type on `scopegraph eval --json` reports and
 * prints a table and one JSON line (`{"targets": [...], "pass": bool}`):
 *
 *   - structural questions (no expand spec): hybrid Recall@10 >= 0.8;
 *   - lexical (exact string) questions: MRR@10 >= 0.9 in bm25 and in hybrid;
 *   - semantic questions: hybrid nDCG@10 >= semantic nDCG@10 + 0.05;
 *   - all questions: hybrid nDCG@10 >= every other mode's;
 *   - with --rxjs: no mode's nDCG@10 on the rxjs dev set below the recorded baseline by more than 0.02;
 *   - with --dist-check (the report of `npm run eval:dist`, dist-check.ts): a published package
 *     indexed whole with the default rules shows no scope twice in any result list, and its nDCG@10
 *     is within 0.02 of its src/ alone in every mode.
 *
 *   node dist/bench/search/devset-targets.js --devset .cache/eval/questions-dev.json \
 *     [--rxjs .cache/eval/rxjs-dev.json] [--rxjs-baseline FILE] [--dist-check .cache/eval/dist-check.json] [--out FILE]
 *
 * With --lang (the report of `npm run eval:lang`, questions in several languages): the same
 * structural, lexical and overall targets, over the whole set and per language (`meta.language`):
 *
 *   node dist/bench/search/devset-targets.js --lang .cache/eval/lang-dev.json [--out FILE]
 *
 * Exit code 0 whatever the outcome (the JSON says what passed): the script reports, CI decides.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import type { QueryMetrics, Subset } from '../../libs/search/src/eval';
import { arg, printTable } from '../support/bench-util';

export const RXJS_BASELINE_FILE = 'bench/search/datasets/rxjs-baseline.json';
const NDCG_TOLERANCE = 0.02;

type Metrics = Partial<Record<Subset, QueryMetrics & { queries: number }>>;

interface Report {
  systems: { system: string; metrics: Metrics; byLanguage?: Record<string, Metrics> }[];
}

export interface TargetResult {
  target: string;
  measured: number | null;
  threshold: number | null;
  pass: boolean | null;
  note?: string;
}

const metricOf = (r: Report, mode: string, subset: Subset, metric: keyof QueryMetrics): number | null => r.systems.find((s) => s.system === mode)?.metrics[subset]?.[metric] ?? null;

function atLeast(target: string, measured: number | null, threshold: number | null, note?: string): TargetResult {
  const pass = measured === null || threshold === null ? null : measured >= threshold - 1e-9;
  return { target, measured, threshold, pass, ...(note ? { note } : {}) };
}

/** The targets on the typed dev set. */
export function devsetTargets(r: Report): TargetResult[] {
  const out = [
    atLeast('structural: hybrid R@10 >= 0.8', metricOf(r, 'hybrid', 'structural', 'recall'), 0.8),
    atLeast('lexical: bm25 MRR@10 >= 0.9', metricOf(r, 'bm25', 'lexical', 'mrr'), 0.9),
    atLeast('lexical: hybrid MRR@10 >= 0.9', metricOf(r, 'hybrid', 'lexical', 'mrr'), 0.9),
  ];
  const semantic = metricOf(r, 'semantic', 'semantic', 'ndcg');
  out.push(atLeast('semantic: hybrid nDCG@10 >= semantic nDCG@10 + 0.05', metricOf(r, 'hybrid', 'semantic', 'ndcg'), semantic === null ? null : semantic + 0.05));
  const hybrid = metricOf(r, 'hybrid', 'all', 'ndcg');
  for (const s of r.systems.filter((x) => x.system !== 'hybrid')) {
    out.push(atLeast(`all: hybrid nDCG@10 >= ${s.system}`, hybrid, s.metrics.all?.ndcg ?? null));
  }
  return out;
}

/** The targets on a dataset in several languages: over all of it, then per language. */
export function languageTargets(r: Report): TargetResult[] {
  const scopes: { label: string; report: Report }[] = [{ label: 'all languages', report: r }];
  const languages = [...new Set(r.systems.flatMap((s) => Object.keys(s.byLanguage ?? {})))].sort();
  for (const language of languages) {
    scopes.push({ label: language, report: { systems: r.systems.map((s) => ({ system: s.system, metrics: s.byLanguage?.[language] ?? {} })) } });
  }
  const out: TargetResult[] = [];
  for (const { label, report } of scopes) {
    out.push(
      atLeast(`${label}, structural: hybrid R@10 >= 0.8`, metricOf(report, 'hybrid', 'structural', 'recall'), 0.8),
      atLeast(`${label}, lexical: hybrid MRR@10 >= 0.9`, metricOf(report, 'hybrid', 'lexical', 'mrr'), 0.9),
      atLeast(`${label}, lexical: bm25 MRR@10 >= 0.9`, metricOf(report, 'bm25', 'lexical', 'mrr'), 0.9),
    );
    const hybrid = metricOf(report, 'hybrid', 'all', 'ndcg');
    for (const s of report.systems.filter((x) => x.system !== 'hybrid')) {
      out.push(atLeast(`${label}, all: hybrid nDCG@10 >= ${s.system}`, hybrid, s.metrics.all?.ndcg ?? null));
    }
  }
  return out;
}

/** Every mode of `current` against the baseline's nDCG@10, allowing `NDCG_TOLERANCE`. */
export function noRegression(label: string, current: Report, baseline: Record<string, number>): TargetResult[] {
  return Object.entries(baseline).map(([mode, ndcg]) => {
    const measured = metricOf(current, mode, 'all', 'ndcg');
    return atLeast(`${label}: ${mode} nDCG@10 >= ${ndcg.toFixed(3)} - ${NDCG_TOLERANCE}`, measured, ndcg - NDCG_TOLERANCE, measured === null ? 'mode not in the report' : undefined);
  });
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.resolve(projectRoot(), file), 'utf8')) as T;

function report(results: TargetResult[]): void {
  const show = (n: number | null) => (n === null ? '-' : n.toFixed(3));
  printTable([['target', 'measured', 'threshold', 'result'], ...results.map((t) => [t.target, show(t.measured), show(t.threshold), t.pass === null ? t.note ?? 'not measured' : t.pass ? 'PASS' : 'FAIL'])]);
  const measured = results.filter((t) => t.pass !== null);
  const line = { targets: results, pass: measured.length > 0 && measured.every((t) => t.pass), measured: measured.length, passed: measured.filter((t) => t.pass).length };
  process.stdout.write(JSON.stringify(line) + '\n');
  const out = arg('out', '');
  if (out) fs.writeFileSync(path.resolve(projectRoot(), out), JSON.stringify(line, null, 2) + '\n');
}

function main(): void {
  const lang = arg('lang', '');
  if (lang) return report(languageTargets(readJson<Report>(lang)));
  const results = devsetTargets(readJson<Report>(arg('devset', '.cache/eval/questions-dev.json')));
  const rxjs = arg('rxjs', '');
  if (rxjs && !fs.existsSync(path.resolve(projectRoot(), arg('rxjs-baseline', RXJS_BASELINE_FILE)))) {
    results.push({ target: 'rxjs: no mode regresses by more than 0.02', measured: null, threshold: null, pass: null, note: `no baseline (record one as {"ndcg": {mode: value}} in ${RXJS_BASELINE_FILE})` });
  } else if (rxjs) {
    const baseline = readJson<{ ndcg: Record<string, number> }>(arg('rxjs-baseline', RXJS_BASELINE_FILE));
    results.push(...noRegression('rxjs', readJson<Report>(rxjs), baseline.ndcg));
  } else results.push({ target: 'rxjs: no mode regresses by more than 0.02', measured: null, threshold: null, pass: null, note: 'not measured (run npm run eval first)' });
  const distCheck = arg('dist-check', '');
  if (distCheck && fs.existsSync(path.resolve(projectRoot(), distCheck))) {
    for (const t of readJson<{ targets: { target: string; measured: number; threshold: number; pass: boolean }[] }>(distCheck).targets) {
      results.push({ target: t.target, measured: t.measured, threshold: t.threshold, pass: t.pass });
    }
  } else results.push({ target: 'package with its build output: nDCG@10 within 0.02 of src/ alone, no scope twice', measured: null, threshold: null, pass: null, note: 'not measured (run npm run eval:dist first)' });
  report(results);
}

if (require.main === module) main();
