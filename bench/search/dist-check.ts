/**
 * A published package indexed as published (sources AND its build output) against its sources
 * alone: @tanstack/query-core 5.108.4's npm package (src/ plus build/ with legacy and modern
 * CommonJS/ESM builds, source maps and .d.ts files), judged on the query-core questions of the
 * second dev set in every mode.
 *
 *   node dist/bench/search/dist-check.js [--json .cache/eval/dist-check.json]   (npm run eval:dist)
 *
 * Indexed in process (IngestHarness: the real walker, parser, Neo4j and the configured local
 * embedder), under repository names of their own so nothing else is touched:
 *   - `dist-query-core-src`      package/src alone (what the dev set's answers were written against);
 *   - `dist-query-core-package`  the whole package/ folder with the default rules (what a user gets);
 *   - `dist-query-core-forced`   the whole package/ folder with build/ forced back in (`--include 'build/**'`).
 * The targets: with the default rules, no result list shows the same scope twice and nDCG@10 is
 * within 0.02 of src/ alone in every mode. "The same scope twice": two hits in one top 10 with the
 * same kind, qualified name and code (whitespace aside) at different paths: a copy. Also counted,
 * for information, lists naming one declaration twice at different paths (same kind and qualified
 * name, any code): in src/ alone these are different functions that share a name; with build/ forced
 * in, mostly the builds' compiled copies and .d.ts declarations.
 * The forced-in row shows what the default rules protect from; it is reported, not a target.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { defaultPlan, type EvalQuery, judge, meanMetrics, parseDataset, queryMetrics, type QueryMetrics, rankedScopes, type SearchPlan, SearchRepository, SearchService } from '@scopegraph/search';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, printTable } from '../support/bench-util';
import { corpusRoot, DEVSET_FILE, packageCorpus } from './devset-corpora';

Logger.overrideLogger(['error']);

const K = 10;
const TOP = 50;
const TOLERANCE = 0.02;
const MODES: SearchPlan['mode'][] = ['semantic', 'bm25', 'hybrid', 'semantic_rerank', 'graph'];

interface Indexed {
  label: string;
  repo: string;
  /** Prefix of the dataset's paths in this repository. */
  prefix: string;
  include?: string[];
  scopes?: number;
  skipped?: Record<string, number>;
}

export interface DistCheckRow {
  label: string;
  repo: string;
  scopes: number;
  skipped: Record<string, number>;
  /** Per mode: metrics over all the package's questions, nDCG@10 per type, lists showing one scope (same code) twice, lists naming one declaration twice. */
  modes: Record<string, { all: QueryMetrics & { queries: number }; byType: Record<string, number>; listsWithDuplicates: number; listsWithSameName: number; lists: number }>;
}

export interface DistCheckReport {
  k: number;
  questions: number;
  rows: DistCheckRow[];
  targets: { target: string; measured: number; threshold: number; pass: boolean }[];
}

/** Hits in one top k that are one declaration at different paths: same kind and qualified name, and with `sameCode` the same source whitespace aside. */
export function hasDuplicateScope(hits: readonly { scope: { kind: string; qualifiedName: string; path: string; source: string | null } }[], sameCode: boolean): boolean {
  const seen = new Map<string, string>();
  for (const { scope } of hits) {
    const key = `${scope.kind}\u0000${scope.qualifiedName}${sameCode ? `\u0000${(scope.source ?? '').replace(/\s+/g, ' ').trim()}` : ''}`;
    const at = seen.get(key);
    if (at !== undefined && at !== scope.path) return true;
    seen.set(key, scope.path);
  }
  return false;
}

async function main(): Promise<void> {
  const corpus = packageCorpus();
  const src = corpusRoot(corpus);
  const pkg = path.dirname(src);
  const questions = parseDataset(fs.readFileSync(path.resolve(projectRoot(), DEVSET_FILE), 'utf8'), DEVSET_FILE).filter((q) => q.repo === corpus.repo);
  const indexed: Indexed[] = [
    { label: 'src/ alone', repo: `dist-${corpus.repo}-src`, prefix: '' },
    { label: 'package, default rules', repo: `dist-${corpus.repo}-package`, prefix: `${corpus.subdir}/`, include: [] },
    { label: `package, ${corpus.buildDir}/ forced in`, repo: `dist-${corpus.repo}-forced`, prefix: `${corpus.subdir}/`, include: [`${corpus.buildDir}/**`] },
  ];
  const config = loadConfig();
  const h = new IngestHarness();
  await h.init(createEmbeddingProvider({ provider: 'local', model: config.embedding.model, dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir }));
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const rows: DistCheckRow[] = [];
  try {
    for (const x of indexed) {
      const t0 = performance.now();
      const r = await h.ingest.index({ path: x.label === 'src/ alone' ? src : pkg, name: x.repo, include: x.include, exclude: [] });
      x.scopes = r.scopes.total;
      x.skipped = r.files.skipped as Record<string, number>;
      log(`indexed ${x.repo}: ${r.files.indexed} files, ${r.scopes.total} scopes, skipped ${JSON.stringify(r.files.skipped)} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    const service = new SearchService(new SearchRepository(h.neo4j), h.embedder);
    for (const x of indexed) {
      const row: DistCheckRow = { label: x.label, repo: x.repo, scopes: x.scopes!, skipped: x.skipped!, modes: {} };
      for (const mode of MODES) {
        const all: QueryMetrics[] = [];
        const byType = new Map<string, QueryMetrics[]>();
        let duplicates = 0;
        let sameName = 0;
        for (const q of questions) {
          const moved: EvalQuery = { ...q, repo: x.repo, relevant: q.relevant.map((t) => ({ ...t, path: x.prefix + t.path })) };
          const plan = defaultPlan(mode, q.query);
          plan.limit = TOP;
          plan.sourceChars = null;
          plan.filters = { repository: x.repo };
          const res = await service.execute(plan);
          if (hasDuplicateScope(res.results.slice(0, K), true)) duplicates++;
          if (hasDuplicateScope(res.results.slice(0, K), false)) sameName++;
          const m = queryMetrics(judge(rankedScopes(res.results, false), x.repo, moved.relevant).judged, moved.relevant.length, K);
          all.push(m);
          byType.set(q.type ?? 'text', [...(byType.get(q.type ?? 'text') ?? []), m]);
        }
        row.modes[mode] = {
          all: meanMetrics(all),
          byType: Object.fromEntries([...byType].map(([t, ms]) => [t, meanMetrics(ms).ndcg])),
          listsWithDuplicates: duplicates,
          listsWithSameName: sameName,
          lists: questions.length,
        };
      }
      rows.push(row);
      log(`${x.label}: judged`);
    }
  } finally {
    await h.dispose([]);
  }

  const [srcRow, pkgRow] = rows;
  const targets: DistCheckReport['targets'] = [];
  for (const mode of MODES) {
    const a = srcRow.modes[mode].all.ndcg;
    const b = pkgRow.modes[mode].all.ndcg;
    targets.push({ target: `package (default rules) vs src/ alone, ${mode}: |nDCG@10 difference| <= ${TOLERANCE}`, measured: Math.abs(b - a), threshold: TOLERANCE, pass: Math.abs(b - a) <= TOLERANCE + 1e-9 });
  }
  const dupLists = MODES.reduce((n, m) => n + pkgRow.modes[m].listsWithDuplicates, 0);
  targets.push({ target: 'package (default rules): result lists showing one scope (same code) twice, every mode = 0', measured: dupLists, threshold: 0, pass: dupLists === 0 });

  process.stdout.write(`${corpus.name} ${corpus.version} npm package, ${questions.length} ${corpus.repo} questions of the second dev set, top ${K}\n`);
  printTable([
    ['indexed', 'scopes', 'mode', `nDCG@${K}`, 'semantic', 'lexical', 'structural', `MRR@${K}`, `R@${K}`, 'lists with a scope twice', 'lists naming one twice'],
    ...rows.flatMap((r) =>
      MODES.map((mode) => {
        const m = r.modes[mode];
        return [r.label, String(r.scopes), mode, m.all.ndcg.toFixed(3), ...['semantic', 'lexical', 'structural'].map((t) => m.byType[t]?.toFixed(3) ?? '-'), m.all.mrr.toFixed(3), m.all.recall.toFixed(3), `${m.listsWithDuplicates}/${m.lists}`, `${m.listsWithSameName}/${m.lists}`];
      }),
    ),
  ]);
  process.stdout.write('\n');
  printTable([['target', 'measured', 'threshold', 'result'], ...targets.map((t) => [t.target, t.measured.toFixed(3), t.threshold.toFixed(3), t.pass ? 'PASS' : 'FAIL'])]);
  const report: DistCheckReport = { k: K, questions: questions.length, rows, targets };
  const out = arg('json', '.cache/eval/dist-check.json');
  fs.mkdirSync(path.dirname(path.resolve(projectRoot(), out)), { recursive: true });
  fs.writeFileSync(path.resolve(projectRoot(), out), JSON.stringify(report, null, 2));
  process.stdout.write(JSON.stringify({ targets, pass: targets.every((t) => t.pass) }) + '\n');
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
