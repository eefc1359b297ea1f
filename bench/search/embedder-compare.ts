/**
 * Embedders and embedding texts side by side on BOTH dev sets, every mode, per question type, with
 * what they cost: documents embedded per second (the indexing time of the embedding phase) and the
 * latency of one query embedding (what every semantic or hybrid search waits for).
 *
 *   node dist/bench/search/embedder-compare.js --model all-MiniLM-L6-v2 [--text base,parent] [--repos rxjs,query-core] [--json FILE]
 *   node dist/bench/search/embedder-compare.js --compare A.json,B.json
 *   node dist/bench/search/embedder-compare.js --cost all-MiniLM-L6-v2,all-mpnet-base-v2 [--docs 256] [--queries 40] [--rounds 3]
 *
 * The scopes are those `npm run eval` and `npm run eval:devset` indexed (rxjs, query-core,
 * marshmallow, pythonnet). Each (model, text) pair embeds every scope once (vectors cached in
 * .cache/eval/vectors/), and the search runs in process through SearchService with the vector lists
 * answered by exact cosine over those vectors in memory, so one database compares models of
 * different dimensions without re-indexing; everything else (keyword list, fusion, rescore, graph
 * route) runs against Neo4j as in production.
 *
 * `--cost` measures both models side by side in one process, rounds alternating A, B, A, B: documents
 * (real scope texts, one embedDocuments call as the embedding phase makes) per second, and the
 * latency of one query embedding (dev-set questions, one at a time); medians over the rounds.
 *
 * Text variants (libs/ingest/src/pipeline/embedding-text.ts is `base`): `path` adds the file path,
 * `parent` the enclosing class (name and the head of its doc comment) for members, `owner` its name alone, `calls` the names
 * of callees and callers, `all` all three.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { identifierSubTokens } from '@scopegraph/code-model';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { createEmbeddingProvider, type EmbeddingProvider, getLocalModelSpec } from '@scopegraph/llm';
import {
  type CypherFilters,
  defaultPlan,
  type BothListsAnswer,
  type BothListsRequest,
  judge,
  listsOneByOne,
  meanMetrics,
  parseDataset,
  queryMetrics,
  type QueryMetrics,
  rankedScopes,
  type ScoredId,
  type SearchPlan,
  SearchRepository,
  SearchService,
  semanticQueryText,
} from '@scopegraph/search';
import { EMBED_SOURCE_CHARS, embeddingText } from '../../libs/ingest/src/pipeline/embedding-text';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, median, percentile, printTable } from '../support/bench-util';
import { DEV_SET_FILE } from './build-dataset';
import { benchCypher } from './derive-graph-questions';
import { DEVSET_FILE } from './devset-corpora';
import { PrecomputedEmbedder } from './precomputed-embedder';

Logger.overrideLogger(['error']);

const K = 10;
const TOP = 50;
const MODES: SearchPlan['mode'][] = ['semantic', 'bm25', 'hybrid', 'semantic_rerank'];
const ALL_REPOS = ['rxjs', 'query-core', 'marshmallow', 'pythonnet'];
/** Texts per model call, as the embedding phase sends a round. */
const ROUND = 1_024;
const MAX_NAMES = 8;
const PARENT_DOC_CHARS = 200;

interface ScopeRow {
  id: string;
  repoId: string;
  kind: string;
  language: string;
  path: string;
  name: string;
  qualifiedName: string;
  signature: string | null;
  docComment: string | null;
  source: string | null;
  parentKind: string | null;
  parentName: string | null;
  parentDoc: string | null;
  callees: string[];
  callers: string[];
}

const words = (name: string) => identifierSubTokens(name);

export const TEXT_VARIANTS: Record<string, (s: ScopeRow) => string> = {
  base: (s) => embeddingText(s, words),
  path: (s) => `${embeddingText(s, words)}\nin ${s.path}`,
  parent: (s) => withParent(s, embeddingText(s, words)),
  owner: (s) => withParent(s, embeddingText(s, words), false),
  calls: (s) => withCalls(s, embeddingText(s, words)),
  all: (s) => `${withCalls(s, withParent(s, embeddingText(s, words)))}\nin ${s.path}`,
};

function withParent(s: ScopeRow, text: string, parentDoc = true): string {
  if (!s.parentName || s.parentKind === 'file' || s.parentKind === 'module') return text;
  const doc = parentDoc && s.parentDoc ? `: ${s.parentDoc.slice(0, PARENT_DOC_CHARS)}` : '';
  const [head, ...rest] = text.split('\n');
  return [head, `member of ${s.parentKind} ${s.parentName}${doc}`, ...rest].join('\n');
}

function withCalls(s: ScopeRow, text: string): string {
  const parts = [text];
  if (s.callees.length) parts.push(`calls ${s.callees.join(', ')}`);
  if (s.callers.length) parts.push(`called by ${s.callers.join(', ')}`);
  return parts.join('\n');
}

interface VectorStore {
  rows: ScopeRow[];
  vectors: Float32Array[];
}

/** The vector lists answered by exact cosine over vectors held in memory (filters as the Cypher files apply them). */
class InMemoryVectorRepository extends SearchRepository {
  constructor(
    neo4j: ConstructorParameters<typeof SearchRepository>[0],
    private readonly store: VectorStore,
  ) {
    super(neo4j);
  }

  private nearest(vector: number[], f: CypherFilters | null, k: number): ScoredId[] {
    const q = normalised(Float32Array.from(vector));
    const out: ScoredId[] = [];
    this.store.rows.forEach((s, i) => {
      if (f && !(f.repoIds.includes(s.repoId) && f.kinds.includes(s.kind) && f.languages.includes(s.language))) return;
      if (f?.paths && !f.paths.includes(s.path)) return;
      if (f?.pathContains && !s.path.includes(f.pathContains)) return;
      if (f?.name && s.name !== f.name && s.qualifiedName !== f.name) return;
      out.push({ id: s.id, score: (1 + dot(q, this.store.vectors[i])) / 2 });
    });
    return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k);
  }

  override async vectorIndex(vector: number[], k: number): Promise<ScoredId[]> {
    return this.nearest(vector, null, k);
  }

  override async vectorExact(vector: number[], filters: CypherFilters, k: number): Promise<ScoredId[]> {
    return this.nearest(vector, filters, k);
  }

  override async vectorIndexFiltered(vector: number[], filters: CypherFilters, k: number, limit: number): Promise<{ pool: number; hits: ScoredId[] }> {
    const hits = this.nearest(vector, filters, Math.min(k, limit));
    return { pool: hits.length, hits };
  }

  /** Hybrid asks for both lists in one round trip: the vector list from memory, the keyword list from Neo4j. */
  override async bothLists(vector: BothListsRequest['vector'], keyword: BothListsRequest['keyword'], filters: CypherFilters): Promise<BothListsAnswer> {
    return listsOneByOne(this, { vector, keyword }, filters);
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function normalised(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}

/** Vectors of one (model, text variant), embedded once and kept in .cache/eval/vectors. */
async function vectorsFor(embedder: EmbeddingProvider, rows: ScopeRow[], variant: string, repos: string[]): Promise<{ vectors: Float32Array[]; perSecond: number | null }> {
  const dir = path.resolve(projectRoot(), '.cache/eval/vectors', embedder.model);
  const tag = repos.length === ALL_REPOS.length ? variant : `${variant}-${repos.join('-')}`;
  const file = path.join(dir, `${tag}.bin`);
  const idsFile = path.join(dir, `${tag}.ids.json`);
  const metaFile = path.join(dir, `${tag}.meta.json`);
  const dims = embedder.dimensions;
  if (fs.existsSync(file) && fs.existsSync(idsFile)) {
    const ids: string[] = JSON.parse(fs.readFileSync(idsFile, 'utf8'));
    if (ids.length === rows.length && ids.every((id, i) => id === rows[i].id)) {
      const buf = fs.readFileSync(file);
      const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
      const meta = fs.existsSync(metaFile) ? JSON.parse(fs.readFileSync(metaFile, 'utf8')) : {};
      return { vectors: rows.map((_, i) => normalised(all.slice(i * dims, (i + 1) * dims))), perSecond: meta.perSecond ?? null };
    }
  }
  const texts = rows.map(TEXT_VARIANTS[variant]);
  const out = new Float32Array(rows.length * dims);
  const t0 = performance.now();
  for (let start = 0; start < texts.length; start += ROUND) {
    const vs = await embedder.embedDocuments(texts.slice(start, start + ROUND));
    vs.forEach((v, j) => out.set(v, (start + j) * dims));
    process.stderr.write(`  ${embedder.model} ${variant}: ${Math.min(start + ROUND, texts.length)}/${texts.length}\n`);
  }
  const perSecond = texts.length / ((performance.now() - t0) / 1000);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, Buffer.from(out.buffer));
  fs.writeFileSync(idsFile, JSON.stringify(rows.map((r) => r.id)));
  fs.writeFileSync(metaFile, JSON.stringify({ perSecond, texts: texts.length, meanChars: texts.reduce((s, t) => s + t.length, 0) / texts.length }));
  return { vectors: rows.map((_, i) => normalised(out.slice(i * dims, (i + 1) * dims))), perSecond };
}

function typeOf(q: { type?: string; expand?: unknown }): string {
  return q.type ?? (q.expand ? 'rxjs-graph' : 'doc');
}

interface Report {
  model: string;
  text: string;
  embedPerSecond: number | null;
  queryEmbedMs: { p50: number; p95: number };
  metrics: Record<string, Record<string, QueryMetrics & { queries: number }>>;
}

async function measure(): Promise<void> {
  const config = loadConfig();
  const modelName = arg('model', config.embedding.model ?? 'all-MiniLM-L6-v2');
  const spec = getLocalModelSpec(modelName);
  if (!spec) throw new Error(`--model ${modelName} is not a local model`);
  const variants = arg('text', 'base').split(',');
  const repos = arg('repos', ALL_REPOS.join(',')).split(',');
  const embedder = createEmbeddingProvider({ provider: 'local', model: spec.id, dimensions: spec.dimensions, modelsDir: config.embedding.modelsDir });
  const h = new IngestHarness();
  // The harness's migrations check the index against the configured dimensions, not this model's.
  await h.init(createEmbeddingProvider({ provider: 'hash', dimensions: config.embedding.dimensions }));
  const read = (file: string) => parseDataset(fs.readFileSync(path.resolve(projectRoot(), file), 'utf8'), file);
  const queries = [...read(DEV_SET_FILE), ...read(DEVSET_FILE)].filter((q) => repos.includes(q.repo));
  const reports: Report[] = [];
  try {
    const rows = await h.neo4j.runStatement<ScopeRow>(benchCypher('scopes-for-embedding'), { repoIds: repos, maxNames: MAX_NAMES, maxSourceChars: EMBED_SOURCE_CHARS });
    process.stderr.write(`${rows.length} scopes in ${repos.join(', ')}, ${queries.length} questions\n`);
    // Query embedding latency: one query at a time, as a search embeds it (after one warm-up).
    await embedder.embedQuery('warm up');
    const precomputed = new PrecomputedEmbedder(embedder);
    const queryMs: number[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      await precomputed.add(semanticQueryText(q.query));
      queryMs.push(performance.now() - t0);
    }
    for (const variant of variants) {
      const { vectors, perSecond } = await vectorsFor(embedder, rows, variant, repos);
      const service = new SearchService(new InMemoryVectorRepository(h.neo4j, { rows, vectors }), precomputed);
      const metrics: Report['metrics'] = {};
      for (const mode of MODES) {
        const by = new Map<string, QueryMetrics[]>();
        for (const q of queries) {
          const plan = defaultPlan(mode, q.query);
          plan.limit = TOP;
          plan.sourceChars = 0;
          plan.filters = { repository: q.repo };
          const res = await service.execute(plan);
          const m = queryMetrics(judge(rankedScopes(res.results, false), q.repo, q.relevant).judged, q.relevant.length, K);
          for (const g of ['all', q.repo === 'rxjs' ? 'rxjs' : 'new set', typeOf(q)]) by.set(g, [...(by.get(g) ?? []), m]);
        }
        metrics[mode] = Object.fromEntries([...by].map(([g, ms]) => [g, meanMetrics(ms)]));
      }
      reports.push({ model: spec.id, text: repos.length === ALL_REPOS.length ? variant : `${variant} (${repos.join(', ')})`, embedPerSecond: perSecond, queryEmbedMs: { p50: median(queryMs), p95: percentile(queryMs, 95) }, metrics });
      process.stderr.write(`${spec.id} ${variant}: done\n`);
    }
  } finally {
    await h.dispose([]);
    await embedder.close?.();
  }
  print(reports);
  const out = arg('json', '');
  if (out) fs.writeFileSync(out, JSON.stringify(reports, null, 2));
  process.stdout.write(JSON.stringify(reports.map((r) => ({ model: r.model, text: r.text, embedPerSecond: r.embedPerSecond, queryEmbedMs: r.queryEmbedMs, ndcg: Object.fromEntries(Object.entries(r.metrics).map(([m, g]) => [m, Object.fromEntries(Object.entries(g).map(([k, v]) => [k, v.ndcg]))])) }))) + '\n');
}

function print(reports: Report[]): void {
  const groups = ['all', 'rxjs', 'doc', 'rxjs-graph', 'new set', 'semantic', 'lexical', 'structural'];
  process.stdout.write(`nDCG@${K} per mode and question type (rxjs = its dev set judged without expansion), embeddings/s, query embedding ms p50/p95\n`);
  printTable([
    ['model / text / mode', ...groups, 'emb/s', 'query ms'],
    ...reports.flatMap((r) =>
      MODES.map((mode) => [
        `${r.model.replace(/-onnx-int8$/, '')} / ${r.text} / ${mode}`,
        ...groups.map((g) => r.metrics[mode]?.[g]?.ndcg.toFixed(3) ?? ''),
        r.embedPerSecond === null ? '-' : r.embedPerSecond.toFixed(1),
        `${r.queryEmbedMs.p50.toFixed(1)} / ${r.queryEmbedMs.p95.toFixed(1)}`,
      ]),
    ),
  ]);
}

async function cost(): Promise<void> {
  const config = loadConfig();
  const names = arg('cost', '').split(',');
  const docs = Number(arg('docs', '256'));
  const nQueries = Number(arg('queries', '40'));
  const rounds = Number(arg('rounds', '3'));
  const h = new IngestHarness();
  await h.init(createEmbeddingProvider({ provider: 'hash', dimensions: config.embedding.dimensions }));
  const models = names.map((n) => {
    const spec = getLocalModelSpec(n);
    if (!spec) throw new Error(`--cost: ${n} is not a local model`);
    return createEmbeddingProvider({ provider: 'local', model: spec.id, dimensions: spec.dimensions, modelsDir: config.embedding.modelsDir });
  });
  const read = (file: string) => parseDataset(fs.readFileSync(path.resolve(projectRoot(), file), 'utf8'), file);
  const queries = [...read(DEVSET_FILE), ...read(DEV_SET_FILE)].slice(0, nQueries).map((q) => semanticQueryText(q.query));
  const perSecond: number[][] = models.map(() => []);
  const queryMs: number[][] = models.map(() => []);
  try {
    const rows = await h.neo4j.runStatement<ScopeRow>(benchCypher('scopes-for-embedding'), { repoIds: ALL_REPOS, maxNames: MAX_NAMES, maxSourceChars: EMBED_SOURCE_CHARS });
    // Every 25th scope: all four codebases and every kind, in a fixed order.
    const texts = rows.filter((_, i) => i % 25 === 0).slice(0, docs).map(TEXT_VARIANTS.base);
    for (const m of models) await m.embedDocuments(texts.slice(0, 8)); // load and warm up
    for (let r = 0; r < rounds; r++) {
      for (const [i, m] of models.entries()) {
        const t0 = performance.now();
        await m.embedDocuments(texts);
        perSecond[i].push(texts.length / ((performance.now() - t0) / 1000));
        for (const q of queries) {
          const t1 = performance.now();
          await m.embedQuery(q);
          queryMs[i].push(performance.now() - t1);
        }
      }
      process.stderr.write(`round ${r + 1}/${rounds} done\n`);
    }
  } finally {
    for (const m of models) await m.close?.();
    await h.dispose([]);
  }
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(`${docs} scope texts per round, ${queries.length} single query embeddings per round, ${rounds} rounds alternating, load average ${load}\n`);
  printTable([
    ['model', 'documents/s (median)', 'query ms p50', 'query ms p95'],
    ...models.map((m, i) => [m.model, median(perSecond[i]).toFixed(1), median(queryMs[i]).toFixed(1), percentile(queryMs[i], 95).toFixed(1)]),
  ]);
  process.stdout.write(JSON.stringify({ load, models: models.map((m, i) => ({ model: m.model, docsPerSecond: median(perSecond[i]), queryMs: { p50: median(queryMs[i]), p95: percentile(queryMs[i], 95) } })) }) + '\n');
}

async function main(): Promise<void> {
  if (arg('cost', '')) return cost();
  const compare = arg('compare', '');
  if (compare) {
    print(compare.split(',').flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Report[]));
    return;
  }
  await measure();
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
