/**
 * Retrieval quality per question type on the UNION of both dev sets, in process (the same
 * SearchService the API runs), with the first-stage settings side by side:
 *
 *   node dist/bench/search/quality-tune.js [--index [--with-dist]] [--only a,b] [--json out.json]
 *
 * Datasets: rxjs-dev.jsonl (doc-comment questions, typed `doc`; its graph questions WITHOUT their
 * expand spec, typed `structural`) and questions-dev.jsonl (typed semantic / lexical / structural,
 * over @tanstack/query-core, marshmallow and pythonnet). Repositories are indexed under names of
 * their own (`q14-...`, and `rxjs` as `npm run eval` indexes it) so that other runs on the shared
 * database are left alone.
 * `--index` (re-)indexes them first: incremental, so a second run only walks and compares hashes.
 *
 * The published-package check indexes the dev set's npm package (`packageCorpus()`, query-core) as
 * published (sources + build/) with the default walk, and with build/ forced in (`--include
 * build/**`), and judges its questions on both (targets re-rooted under src/), next to its src/ alone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@scopegraph/config';
import { createEmbeddingProvider } from '@scopegraph/llm';
import {
  defaultPlan,
  type EvalQuery,
  judge,
  meanMetrics,
  parseDataset,
  queryMetrics,
  rankedScopes,
  type SearchPlan,
  SearchRepository,
  SearchService,
  semanticQueryText,
} from '@scopegraph/search';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, printTable } from '../support/bench-util';
import { DEV_SET_FILE, rxjsRoot } from './build-dataset';
import { corpusRoot, DEVSET_CORPORA, DEVSET_FILE, packageCorpus } from './devset-corpora';
import { PrecomputedEmbedder } from './precomputed-embedder';

Logger.overrideLogger(['error']);

const K = 10;
const TOP = 50;
const PREFIX = 'q14-';

interface Variant {
  name: string;
  plan: (q: EvalQuery) => SearchPlan;
}

const base = (mode: SearchPlan['mode'], q: EvalQuery): SearchPlan => {
  const plan = defaultPlan(mode, q.query);
  plan.limit = TOP;
  plan.sourceChars = 0;
  plan.filters = { repository: q.repo };
  return plan;
};
const tweak =
  (mode: SearchPlan['mode'], change: (p: SearchPlan) => void) =>
  (q: EvalQuery): SearchPlan => {
    const p = base(mode, q);
    change(p);
    return p;
  };

/** Each step of the issue's list, cumulative, then the fusion settings around the default. */
export const VARIANTS: Variant[] = [
  { name: 'semantic', plan: tweak('semantic', () => undefined) },
  { name: 'bm25 (terms only)', plan: tweak('bm25', (p) => (p.phrases = false)) },
  { name: 'bm25', plan: tweak('bm25', () => undefined) },
  { name: 'semantic_rerank', plan: tweak('semantic_rerank', () => undefined) },
  { name: 'graph', plan: tweak('graph', () => undefined) },
  { name: 'hybrid 0: before (terms only, no graph, no rescore)', plan: tweak('hybrid', (p) => ((p.phrases = false), (p.structural = false), (p.rescore = null))) },
  { name: 'hybrid 1: + phrases', plan: tweak('hybrid', (p) => ((p.structural = false), (p.rescore = null))) },
  { name: 'hybrid 2: + structural route', plan: tweak('hybrid', (p) => (p.rescore = null)) },
  { name: 'hybrid 3: + rescore (default)', plan: tweak('hybrid', () => undefined) },
  { name: 'hybrid 3 rescore kw 0.3', plan: tweak('hybrid', (p) => (p.rescore = { ...p.rescore!, keywordWeight: 0.3 })) },
  { name: 'hybrid 3 rescore kw 0.7', plan: tweak('hybrid', (p) => (p.rescore = { ...p.rescore!, keywordWeight: 0.7 })) },
  { name: 'hybrid 3 rescore depth 50', plan: tweak('hybrid', (p) => (p.rescore = { ...p.rescore!, depth: 50 })) },
  { name: 'hybrid 3 rescore name 0', plan: tweak('hybrid', (p) => (p.rescore = { ...p.rescore!, nameBonus: 0 })) },
  { name: 'hybrid 3 weights 2/1', plan: tweak('hybrid', (p) => (p.fusion.weights = { ...p.fusion.weights, semantic: 2, bm25: 1 })) },
  { name: 'hybrid 3 weights 1/1', plan: tweak('hybrid', (p) => (p.fusion.weights = { ...p.fusion.weights, semantic: 1, bm25: 1 })) },
  { name: 'hybrid 3 k 10', plan: tweak('hybrid', (p) => (p.fusion.k = 10)) },
  { name: 'hybrid 3 k 30', plan: tweak('hybrid', (p) => (p.fusion.k = 30)) },
  { name: 'hybrid 3 candidates 50', plan: tweak('hybrid', (p) => (p.semantic!.limit = p.bm25!.limit = 50)) },
];

/** Query type in the union: the new set's own, `doc` for rxjs's doc-comment questions, `structural` for its graph questions. */
function typeOf(q: EvalQuery): string {
  return q.type ?? (q.expand ? 'structural' : 'doc');
}

function loadUnion(): EvalQuery[] {
  const rxjs = parseDataset(fs.readFileSync(DEV_SET_FILE, 'utf8'), DEV_SET_FILE);
  const dev = parseDataset(fs.readFileSync(DEVSET_FILE, 'utf8'), DEVSET_FILE).map((q) => ({ ...q, repo: PREFIX + q.repo }));
  return [...rxjs, ...dev];
}

async function main(): Promise<void> {
  const only = arg('only', '');
  const jsonOut = arg('json', '');
  const variants = only ? VARIANTS.filter((v) => only.split(',').some((o) => v.name.startsWith(o))) : VARIANTS;
  const h = new IngestHarness();
  const config = loadConfig();
  const embedder = createEmbeddingProvider({ provider: 'local', dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir });
  await h.init(embedder);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  try {
    const pkgCorpus = packageCorpus();
    const pkgRoot = path.dirname(corpusRoot(pkgCorpus));
    if (process.argv.includes('--index')) {
      const jobs: [string, string, Record<string, unknown>][] = [
        ['rxjs', rxjsRoot(), { excludeDocComments: true }],
        ...DEVSET_CORPORA.map((c) => [PREFIX + c.repo, corpusRoot(c), {}] as [string, string, Record<string, unknown>]),
        [`${PREFIX}${pkgCorpus.repo}-package`, pkgRoot, { include: [], exclude: [] }],
        // The build output forced in makes several times the scopes to embed: only on request.
        ...(process.argv.includes('--with-dist') ? [[`${PREFIX}${pkgCorpus.repo}-package-dist`, pkgRoot, { include: [`${pkgCorpus.buildDir}/**`], exclude: [] }] as [string, string, Record<string, unknown>]] : []),
      ];
      for (const [name, root, extra] of jobs) {
        const t0 = performance.now();
        const r = await h.ingest.index({ path: root, name, ...extra });
        log(`indexed ${name}: ${r.files.indexed} files, ${r.scopes.total} scopes, skipped ${JSON.stringify(r.files.skipped)} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
    }

    const queries = loadUnion();
    const precomputed = new PrecomputedEmbedder(embedder);
    for (const q of queries) await precomputed.add(semanticQueryText(q.query));
    const service = new SearchService(new SearchRepository(h.neo4j), precomputed);

    const results: Record<string, Record<string, ReturnType<typeof meanMetrics>>> = {};
    const types = ['doc', 'semantic', 'lexical', 'structural'];
    for (const v of variants) {
      const byType = new Map<string, ReturnType<typeof queryMetrics>[]>();
      for (const q of queries) {
        const res = await service.execute(v.plan(q));
        const j = judge(rankedScopes(res.results, false), q.repo, q.relevant);
        const m = queryMetrics(j.judged, q.relevant.length, K);
        for (const key of [typeOf(q), 'all', ...(q.repo.startsWith(PREFIX) ? ['new set'] : ['rxjs set'])]) byType.set(key, [...(byType.get(key) ?? []), m]);
      }
      results[v.name] = Object.fromEntries([...byType].map(([t, ms]) => [t, meanMetrics(ms)]));
      log(`${v.name}: done`);
    }
    const cols = ['all', 'rxjs set', 'new set', ...types];
    process.stdout.write(`nDCG@${K} / MRR@${K} / R@${K} per question type (union of both dev sets, ${queries.length} queries)\n`);
    printTable([
      ['variant', ...cols.map((c) => `${c} (${results[variants[0].name][c]?.queries ?? 0})`)],
      ...variants.map((v) => [v.name, ...cols.map((c) => fmt(results[v.name][c]))]),
    ]);

    // Published package: its questions on src/ alone, on the package with the default walk, and with the build output forced in.
    const pkgQs = queries.filter((q) => q.repo === `${PREFIX}${pkgCorpus.repo}`);
    const under = `${pkgCorpus.subdir}/`;
    const pkg: Record<string, Record<string, unknown>> = {};
    for (const [label, repo, prefix] of [
      [`${pkgCorpus.repo} ${under} only`, `${PREFIX}${pkgCorpus.repo}`, ''],
      [`${pkgCorpus.repo} package, default walk`, `${PREFIX}${pkgCorpus.repo}-package`, under],
      [`${pkgCorpus.repo} package, ${pkgCorpus.buildDir}/ forced in`, `${PREFIX}${pkgCorpus.repo}-package-dist`, under],
    ] as const) {
      if (!(await h.repo.repositories()).some((r) => r.id === repo)) continue;
      const ms: ReturnType<typeof queryMetrics>[] = [];
      let duplicates = 0;
      let lists = 0;
      for (const q of pkgQs) {
        const moved = { ...q, repo, relevant: q.relevant.map((t) => ({ ...t, path: prefix + t.path })) };
        const res = await service.execute(VARIANTS.find((v) => v.name.startsWith('hybrid 3: '))!.plan(moved));
        const top = res.results.slice(0, K);
        const keys = top.map((r) => `${r.scope.kind}|${r.scope.qualifiedName}`);
        if (new Set(keys).size < keys.length) duplicates++;
        lists++;
        ms.push(queryMetrics(judge(rankedScopes(res.results, false), repo, moved.relevant).judged, moved.relevant.length, K));
      }
      pkg[label] = { ...meanMetrics(ms), listsWithASameNamedScopeTwice: `${duplicates}/${lists}` };
    }
    process.stdout.write(`\n${pkgCorpus.repo} questions, hybrid (default), by what was indexed:\n`);
    printTable([['indexed', 'nDCG@10', 'MRR@10', 'R@10', 'top-10 lists naming one scope twice'], ...Object.entries(pkg).map(([k, m]) => [k, r3(m.ndcg), r3(m.mrr), r3(m.recall), String(m.listsWithASameNamedScopeTwice)])]);
    const out = { k: K, queries: queries.length, variants: results, publishedPackage: pkg };
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(out, null, 2));
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await h.dispose([]); // closes the embedder too
  }
}

function r3(x: unknown): string {
  return typeof x === 'number' ? x.toFixed(3) : '';
}

function fmt(m: { ndcg: number; mrr: number; recall: number } | undefined): string {
  return m ? `${r3(m.ndcg)} / ${r3(m.mrr)} / ${r3(m.recall)}` : '';
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
