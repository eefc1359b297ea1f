/**
 * A repository of about a million scopes: graph write time, embedding with a fast fake
 * OpenAI-compatible server, peak memory of the indexing process and of Neo4j, hybrid and GRAPH p95,
 * and an incremental re-index after touching 1% of the files.
 *
 *   npm run build && npm run bench:million -- [--scopes 1000000] [--queries 100] [--touch-percent 1]
 *        [--latency-ms 0] [--keep] [--skip-index [--repo <id>]] [--incremental-only --full-index-ms N --full-graph-ms N] [--no-warm-plans] [--generate-only] [--lists] [--breakdown] [--modes hybrid,graph,bm25]
 *
 * Corpus (generated, the shape of real code): salt 3007.17's Python sources (the bench:scale sdist,
 * 3,907 files, 53k scopes) copied ceil(--scopes / salt's scopes) times under c<k>/. In copy k every
 * name salt defines (def/class, dunders and Python builtins excepted) gets the suffix `_k<k>` wherever
 * it occurs, and the package `salt` becomes `salt_k<k>`: each copy is a distinct code base whose
 * files, scopes, references and their sizes are salt's own, and whose imports and calls resolve within
 * the copy. Cached in .cache/bench/million-<copies>.
 *
 * Embeddings: test/fakes' OpenAI-compatible server in this process (no latency by default): a text's
 * vector is the normalised sum of seeded random vectors of its first words, so texts sharing words are
 * near each other (clustered, as real embeddings are) and a query's vector is computed the same way.
 *
 * 1. Full index (graph and embeddings) in a child process (scale-child.ts): per-phase times, peak RSS
 *    of the process (getrusage) and of Neo4j (sampled).
 * 2. Queries, in this process through SearchService with the query vectors precomputed (the query
 *    embedding excluded, as bench:search does): hybrid over names and docstring phrases of the corpus,
 *    GRAPH over "who calls X" / "what does X call" for scopes with such edges. p50/p95 after warm-up.
 *    --lists: each list of hybrid's statement also alone (the keyword list at hybrid's 150 and at
 *    BM25 mode's 10, the semantic list filtered inside the index, post-filtered after the unfiltered
 *    index, and unfiltered; both joined), variants alternated per query, with the top-10 agreement of
 *    the two semantic strategies. --modes: which query modes to time. --breakdown: hybrid's 10 slowest
 *    queries round trip by round trip, each PROFILEd, the joined lists split (query-breakdown.ts).
 * 3. Incremental: --touch-percent of the files get a comment line appended; a re-index (a new process:
 *    Redis fingerprints and the parse cache save the work) is timed against the full index.
 *
 * Run it against Neo4j and Redis of your own (scripts/services.sh with other ports), not shared ones:
 * it writes a million nodes. Prints a table and one JSON line, with the load average beside figures.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { CypherFiles, cypherInt, Neo4jService, warmQueryPlans } from '@scopegraph/graph';
import type { RecordShape } from 'neo4j-driver';
import { IngestRepository } from '@scopegraph/ingest';
import { HashEmbeddingProvider } from '@scopegraph/llm';
import { type CypherFilters, defaultPlan, LANGUAGES, SCOPE_KINDS, type ScoredId, searchPlanWarmups, semanticQueryText, type SearchMode, SearchRepository, SearchService } from '@scopegraph/search';
import { keywordLuceneK, postfilterK } from '../../libs/search/src/filters/strategy';
import { buildLuceneQuery, keywordQuery } from '../../libs/search/src/query/lucene';
import { FakeOpenAiEmbeddings } from '../../test/fakes/fake-model-apis';
import { PrecomputedEmbedder } from '../search/precomputed-embedder';
import { arg, percentile, printTable } from '../support/bench-util';
import { ChildRun, mib, pythonFiles, runChild, touchFiles } from './scale-support';
import { profileRoundTrip, type RoundTrip, RoundTripLog, splitJoined } from './query-breakdown';

Logger.overrideLogger(['error']);

const SALT = { dir: 'salt-3007.17', scopes: 53_439 };
const DIMENSIONS = 384;
const MODEL = 'fake-million';
/** Words of a text that make its vector (the head of a scope: its name, signature, first lines). */
const VECTOR_WORDS = 48;
const WORD_CACHE = 100_000;
const WARMUP = 10;
/** How many of the slowest queries of each mode are shown with their stages (and asked again). */
const TAIL = 8;
/** How many of the slowest queries --breakdown PROFILEs round trip by round trip. */
const BREAKDOWN = 10;
const load = () => os.loadavg().map((x) => Number(x.toFixed(1)));

// ---- the corpus -------------------------------------------------------------------------------------

function pythonBuiltins(): Set<string> {
  const out = execFileSync('python3', ['-c', 'import builtins, keyword; print(" ".join(dir(builtins) + keyword.kwlist))'], { encoding: 'utf8' });
  return new Set(out.trim().split(/\s+/));
}

/** N renamed copies of salt's Python files (see the header); returns the folder and its files. */
function generate(copies: number): { root: string; files: string[] } {
  const salt = path.join(projectRoot(), '.cache', 'bench', 'pypi', SALT.dir);
  if (!fs.existsSync(path.join(salt, '.complete'))) throw new Error(`${salt} is missing: run npm run bench:scale -- --skip-searchable --skip-embed once (it downloads salt)`);
  const root = path.join(projectRoot(), '.cache', 'bench', `million-${copies}`);
  const sources = pythonFiles(salt);
  const files = (k: number) => sources.map((f) => `c${k}/${f.split('/').map((seg) => (seg === 'salt' ? `salt_k${k}` : seg)).join('/')}`);
  const all = Array.from({ length: copies }, (_, k) => files(k)).flat();
  if (fs.existsSync(path.join(root, '.complete'))) return { root, files: all };
  fs.rmSync(root, { recursive: true, force: true });
  const texts = sources.map((f) => fs.readFileSync(path.join(salt, f), 'utf8'));
  const skip = pythonBuiltins();
  const defined = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/^\s*(?:async\s+def|def|class)\s+([A-Za-z_][A-Za-z0-9_]*)/gm)) if (!/^__.*__$/.test(m[1]) && !skip.has(m[1])) defined.add(m[1]);
  defined.add('salt');
  for (let k = 0; k < copies; k++) {
    const names = files(k);
    texts.forEach((text, i) => {
      const renamed = text.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (w) => (defined.has(w) ? `${w}_k${k}` : w));
      const out = path.join(root, names[i]);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, renamed);
    });
  }
  fs.writeFileSync(path.join(root, '.complete'), '');
  return { root, files: all };
}

// ---- vectors ----------------------------------------------------------------------------------------

const wordVectors = new Map<string, Float32Array>();

function wordVector(word: string): Float32Array {
  let v = wordVectors.get(word);
  if (v) return v;
  if (wordVectors.size >= WORD_CACHE) wordVectors.clear();
  // xorshift32 seeded by the word's hash: deterministic, and cheap enough for a million texts.
  let s = createHash('md5').update(word).digest().readUInt32LE(0) || 1;
  v = new Float32Array(DIMENSIONS);
  for (let i = 0; i < DIMENSIONS; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    v[i] = (s >>> 0) / 4294967296 - 0.5;
  }
  wordVectors.set(word, v);
  return v;
}

function textVector(text: string): number[] {
  const sum = new Float32Array(DIMENSIONS);
  const words = text.toLowerCase().match(/[a-z][a-z0-9]+/g) ?? ['empty'];
  for (const w of words.slice(0, VECTOR_WORDS)) {
    const v = wordVector(w);
    for (let i = 0; i < DIMENSIONS; i++) sum[i] += v[i];
  }
  let norm = 0;
  for (let i = 0; i < DIMENSIONS; i++) norm += sum[i] * sum[i];
  norm = Math.sqrt(norm) || 1;
  return Array.from(sum, (x) => Math.round((x / norm) * 1e4) / 1e4);
}

// ---- queries ----------------------------------------------------------------------------------------

interface Timed {
  ms: number[];
  empty: number;
  slowest: string;
  /** The slowest queries with each stage's ms, and their ms when asked again right after (plan or data?). */
  tail: { text: string; ms: number; again: number[]; stages: Record<string, number>; hits: number }[];
  /** Median ms of each stage SearchService times (where the time goes), and the vector strategy taken. */
  stages: Record<string, number>;
  strategy: string;
}

async function timeQueries(service: SearchService, mode: SearchMode, texts: string[], repoId: string, breakdown?: { log: RoundTripLog; neo4j: Neo4jService }): Promise<Timed> {
  const plan = (t: string) => ({ ...defaultPlan(mode, t), filters: { repository: repoId }, sourceChars: 2000 });
  for (const t of texts.slice(0, WARMUP)) await service.execute(plan(t));
  const ms: number[] = [];
  let empty = 0;
  let slowest = { ms: 0, text: '' };
  const stages: Record<string, number[]> = {};
  let strategy = '';
  const perQuery: { text: string; ms: number; stages: Record<string, number>; hits: number; trips?: RoundTrip[] }[] = [];
  for (const t of texts) {
    breakdown?.log.start();
    const t0 = performance.now();
    const res = await service.execute(plan(t));
    const took = performance.now() - t0;
    const trips = breakdown?.log.stop();
    ms.push(took);
    for (const [stage, v] of Object.entries(res.timings)) if (v > 0) (stages[stage] ??= []).push(v);
    strategy ||= res.explain.vectorStrategy?.name ?? '';
    if (took > slowest.ms) slowest = { ms: took, text: t };
    if (res.results.length === 0) empty++;
    perQuery.push({ text: t, ms: took, stages: Object.fromEntries(Object.entries(res.timings).filter(([, v]) => v > 0)), hits: res.results.length, trips });
  }
  if (breakdown) await printBreakdown(mode, [...perQuery].sort((a, b) => b.ms - a.ms).slice(0, BREAKDOWN), breakdown.neo4j);
  // A tail that is as slow when asked again is the data's (a hub, a long posting list); one that is
  // fast again was the plan's or the cache's (a first plan, a cold page).
  const tail: Timed['tail'] = [];
  for (const q of [...perQuery].sort((a, b) => b.ms - a.ms).slice(0, TAIL)) {
    const again: number[] = [];
    for (let i = 0; i < 2; i++) {
      const t0 = performance.now();
      await service.execute(plan(q.text));
      again.push(Math.round(performance.now() - t0));
    }
    const { trips: _trips, ...shown } = q;
    tail.push({ ...shown, ms: Math.round(q.ms), again });
  }
  return { ms, empty, slowest: slowest.text, tail, stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(percentile(v, 50))])), strategy };
}

/** A file's statement as bothListsStatement embeds it: without comment lines and the CYPHER version line. */
function embeddedBody(text: string): string {
  const body = text
    .split('\n')
    .filter((line) => !/^\s*\/\//.test(line))
    .join('\n')
    .trim();
  return body.replace(/^CYPHER\s+\d+\s*\n/, '');
}

/**
 * --breakdown: the slowest queries' round trips (name, ms, rows; `otherMs` = the query's time outside
 * them: fusion, rescoring, the driver), each round trip PROFILEd once more, and hybrid's joined
 * statement split into its lists (alone, one after the other, at once; medians of 3).
 */
async function printBreakdown(mode: string, slowest: { text: string; ms: number; stages: Record<string, number>; trips?: RoundTrip[] }[], neo4j: Neo4jService): Promise<void> {
  const files = (names: string[]) => names.map((name) => ({ name, body: embeddedBody(neo4j.text(name)) }));
  const semanticFiles = files(['search/vector-index-postfiltered', 'search/vector-index-filtered', 'search/vector-exact', 'search/vector-index']);
  const keywordFiles = files(['search/fulltext-limited', 'search/fulltext']);
  for (const q of slowest) {
    const trips = q.trips ?? [];
    const inTrips = trips.reduce((n, t) => n + t.ms, 0);
    const profiles = [];
    for (const trip of trips) {
      const p = await profileRoundTrip(neo4j, trip);
      profiles.push({ ...p, ops: p.ops.filter((o) => o.dbHits > 0 || o.rows > 0 || o.ms !== undefined) });
    }
    const joined = trips.find((t) => t.name === 'search/both-lists');
    const semantic = joined && semanticFiles.find((f) => joined.statement.includes(f.body));
    const keyword = joined && keywordFiles.find((f) => joined.statement.includes(f.body));
    const split = joined && semantic && keyword ? { semanticFile: semantic.name, keywordFile: keyword.name, ...(await splitJoined(neo4j, joined, semantic.name, keyword.name)) } : undefined;
    console.log(
      `breakdown ${mode}: ${JSON.stringify({
        text: q.text,
        ms: Math.round(q.ms),
        stages: q.stages,
        trips: trips.map((t) => ({ name: t.name, ms: t.ms, rows: t.rows })),
        otherMs: Math.round(q.ms - inTrips),
        split,
        profiles,
      })}`,
    );
  }
}

/** Each list of hybrid's joined statement alone and joined, variants alternated per query (see the header, --lists). */
async function timeLists(repo: SearchRepository, texts: string[], repoId: string): Promise<Record<string, unknown>> {
  const filters: CypherFilters = { repoIds: [repoId], kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null };
  const coverage = await repo.vectorCoverage([repoId]);
  const share = coverage.embedded / Math.max(1, coverage.embedded + coverage.elsewhere);
  const keywordShare = coverage.scopes / Math.max(1, coverage.scopes + coverage.elsewhereScopes);
  const wanted = 150;
  const k = postfilterK(wanted, share);
  const variants: Record<string, (v: number[], q: string) => Promise<ScoredId[]>> = {
    'bm25 k=150': (_v, q) => repo.fullText(q, filters, wanted),
    'bm25 k=10': (_v, q) => repo.fullText(q, filters, 10),
    'bm25 k=150 lucene top-k': (_v, q) => repo.fullText(q, filters, wanted, { luceneK: wanted }),
    'bm25 k=150 lucene top-k, no repository clause': (_v, q) => repo.fullText(q, filters, wanted, keywordLuceneK(wanted, keywordShare)),
    'semantic index-filter': async (v) => (await repo.vectorIndexFiltered(v, filters, wanted, wanted)).hits,
    'semantic index-postfilter': async (v) => (await repo.vectorIndexPostfiltered(v, filters, k, wanted)).hits,
    'semantic unfiltered': (v) => repo.vectorIndex(v, wanted),
    'joined index-filter': async (v, q) => (await repo.bothLists({ list: 'vectorIndexFiltered', vector: v, k: wanted, limit: wanted }, { query: q, k: wanted }, filters)).semantic.hits,
    'joined index-postfilter': async (v, q) => (await repo.bothLists({ list: 'vectorIndexPostfiltered', vector: v, k, limit: wanted }, { query: q, k: wanted }, filters)).semantic.hits,
    'joined index-postfilter lucene top-k': async (v, q) => (await repo.bothLists({ list: 'vectorIndexPostfiltered', vector: v, k, limit: wanted }, { query: q, k: wanted, ...keywordLuceneK(wanted, keywordShare) }, filters)).semantic.hits,
  };
  // A store without vectors (a run stopped before embedding) times the keyword variants alone.
  const names = Object.keys(variants).filter((n) => coverage.embedded > 0 || n.startsWith('bm25'));
  const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  let agree = 0;
  let short = 0;
  // Lucene's top k against the unlimited keyword list: equal but for the order of equal scores.
  let bm25Agree = 0;
  for (const [i, text] of texts.entries()) {
    const v = textVector(semanticQueryText(text));
    const q = keywordQuery(buildLuceneQuery(text));
    const hits: Record<string, ScoredId[]> = {};
    // A different first variant each query: none always runs on a cold cache or after another's work.
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length];
      const t0 = performance.now();
      hits[name] = await variants[name](v, q);
      ms[name].push(performance.now() - t0);
    }
    if (coverage.embedded > 0) {
      const top = new Set(hits['semantic index-filter'].slice(0, 10).map((h) => h.id));
      agree += hits['semantic index-postfilter'].slice(0, 10).filter((h) => top.has(h.id)).length / Math.max(1, Math.min(10, top.size));
      if (hits['semantic index-postfilter'].length < wanted) short++;
    }
    const full = hits['bm25 k=150'].slice(0, 10);
    const fullIds = new Set(full.map((h) => h.id));
    bm25Agree += hits['bm25 k=150 lucene top-k, no repository clause'].slice(0, 10).filter((h) => fullIds.has(h.id)).length / Math.max(1, full.length);
  }
  const out: Record<string, unknown> = { share: Number(share.toFixed(4)), postfilterK: k, queries: texts.length, top10AgreementPostVsFilter: Number((agree / texts.length).toFixed(3)), postfilterShort: short, bm25Top10AgreementTopKVsFull: Number((bm25Agree / texts.length).toFixed(3)) };
  for (const n of names) out[n] = { p50: Math.round(percentile(ms[n], 50)), p95: Math.round(percentile(ms[n], 95)) };
  return out;
}

async function main(): Promise<void> {
  const target = Number(arg('scopes', '1000000'));
  const queryCount = Number(arg('queries', '100'));
  const touchPercent = Number(arg('touch-percent', '1'));
  // --incremental-only: the repository is already indexed (--keep): only the 1 % step, against the
  // full index time given (--full-index-ms) from that run.
  const incrementalOnly = process.argv.includes('--incremental-only');
  const latencyMs = Number(arg('latency-ms', '0'));
  const copies = Math.max(1, Math.ceil(target / SALT.scopes));
  // --repo: query another stored repository (with --skip-index), e.g. one of the shared store's.
  const repoId = arg('repo', `bench-million-${copies}`);
  const prefix = `bench-million-${copies}`;
  const out: Record<string, unknown> = { corpus: `salt 3007.17 Python sources × ${copies}, names renamed per copy`, copies, cpus: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30) };

  const t0 = performance.now();
  // --skip-index only queries what a store holds: the corpus is not needed (nor regenerated when an
  // incremental step marked it stale).
  const { root, files } = process.argv.includes('--skip-index') ? { root: '-', files: [] as string[] } : generate(copies);
  out.files = files.length;
  out.generateMs = Math.round(performance.now() - t0);
  console.log(`corpus ${root}: ${files.length} files (${out.generateMs} ms)`);
  if (process.argv.includes('--generate-only')) process.exit(0);

  const fake = await FakeOpenAiEmbeddings.start();
  fake.setLatency(latencyMs);
  let texts = 0;
  fake.reply((request) => {
    // The fake keeps every request for tests to inspect: not a million of them here.
    fake.requests.length = 0;
    texts += request.input.length;
    return { data: request.input.map((text, index) => ({ index, embedding: textVector(text) })) };
  });
  const env = {
    EMBEDDING_PROVIDER: 'openai',
    EMBEDDING_OPENAI_BASE_URL: `${fake.baseUrl}/v1`,
    EMBEDDING_MODEL: MODEL,
    EMBEDDING_DIMENSIONS: String(DIMENSIONS),
  };
  const index = (fresh: boolean): Promise<ChildRun> => runChild({ path: root, name: repoId, embed: true, fresh, clearCaches: fresh, prefix, configEmbedder: true }, undefined, env);

  let full: ChildRun | undefined;
  const loadBefore = load();
  if (!process.argv.includes('--skip-index') && !incrementalOnly) {
    full = await index(true);
    const r = full.result;
    out.full = {
      scopes: r.scopes.total, edges: r.edges.total, embedded: r.embedded, wallMs: Math.round(full.wallMs), indexMs: r.indexMs,
      graphMs: r.indexMs - (r.timingsMs.embed ?? 0), embedMs: r.timingsMs.embed, phasesMs: r.timingsMs, errors: r.errorCount,
      cpuMs: Math.round(full.cpuMs ?? 0), neo4jCpuMs: Math.round(full.neo4jCpuMs), workerPeakRssMiB: mib(full.maxRssKb), neo4jPeakRssMiB: mib(full.neo4jPeakRssKb),
      fakeTexts: texts, load: [loadBefore, load()],
    };
    console.log(`full: ${JSON.stringify(out.full)}`);
  }

  // Queries, against what the index wrote.
  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  if (!incrementalOnly) try {
    await neo4j.runStatement('CALL db.awaitIndexes(600)');
    const [{ n }] = await neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $repoId}) RETURN count(s) AS n', { repoId });
    out.scopesInGraph = Number(n);
    // Names and docstring phrases of scopes spread over the corpus (ten stretches), and scopes with callers / callees.
    const spread = async <T extends RecordShape>(cypher: string, per: number): Promise<T[]> => {
      const rows: T[] = [];
      for (let i = 0; i < 10; i++) rows.push(...(await neo4j.runStatement<T>(cypher, { repoId, skip: cypherInt(Math.floor((i * Number(n)) / 12)), n: cypherInt(per) })));
      return rows;
    };
    const sample = await spread<{ name: string; doc: string | null }>(
      'MATCH (s:Scope {repoId: $repoId}) WHERE s.kind IN ["function", "method", "class"] WITH s SKIP $skip LIMIT $n RETURN s.name AS name, s.docComment AS doc',
      Math.ceil(queryCount / 2),
    );
    const names = sample.filter((_, i) => i % 5 === 0).map((s) => s.name).filter(Boolean);
    const phrases = sample.map((s) => s.doc?.split('\n').find((l) => l.trim().length > 20)?.trim()).filter((x): x is string => !!x);
    const hybridTexts = [...names.slice(0, Math.ceil(queryCount / 2)), ...phrases.filter((_, i) => i % 3 === 0).slice(0, Math.floor(queryCount / 2))];
    const modes = arg('modes', 'hybrid,graph,bm25').split(',');
    // The GRAPH questions' scopes are looked up only when GRAPH is timed (seconds over a million scopes).
    const graphTexts: string[] = [];
    if (modes.includes('graph')) {
      const callers = await spread<{ name: string }>(
        'MATCH (s:Scope {repoId: $repoId}) WHERE s.kind IN ["function", "method"] WITH s SKIP $skip MATCH (s) WHERE EXISTS { (:Scope)-[:CALLS]->(s) } RETURN s.name AS name LIMIT $n',
        Math.ceil(queryCount / 20),
      );
      const callees = await spread<{ name: string }>(
        'MATCH (s:Scope {repoId: $repoId}) WHERE s.kind IN ["function", "method"] WITH s SKIP $skip MATCH (s) WHERE EXISTS { (s)-[:CALLS]->(:Scope) } RETURN s.name AS name LIMIT $n',
        Math.ceil(queryCount / 20),
      );
      graphTexts.push(...callers.slice(0, Math.ceil(queryCount / 2)).map((c) => `who calls ${c.name}`), ...callees.slice(0, Math.floor(queryCount / 2)).map((c) => `what does ${c.name} call`));
    }
    const precomputed = new PrecomputedEmbedder(new HashEmbeddingProvider(DIMENSIONS));
    for (const t of hybridTexts) precomputed.set(semanticQueryText(t), textVector(semanticQueryText(t)));
    Object.assign(precomputed, { model: MODEL });
    // --breakdown: every read of the searches timed is recorded (see query-breakdown.ts).
    const breakdown = process.argv.includes('--breakdown') ? { log: new RoundTripLog(neo4j), neo4j } : undefined;
    const service = new SearchService(new SearchRepository(neo4j), precomputed);
    // As the API does at its start (--no-warm-plans: the first query of each statement plans it).
    if (!process.argv.includes('--no-warm-plans')) await warmQueryPlans(neo4j, await searchPlanWarmups(neo4j, DIMENSIONS), { log: () => undefined, warn: (m: string) => console.warn(m) });
    const loadQ = load();
    const none: Timed = { ms: [NaN], empty: 0, slowest: '', tail: [], stages: {}, strategy: '' };
    const hybrid = modes.includes('hybrid') ? await timeQueries(service, 'hybrid', hybridTexts, repoId, breakdown) : none;
    const graph = modes.includes('graph') ? await timeQueries(service, 'graph', graphTexts, repoId) : none;
    const bm25 = modes.includes('bm25') ? await timeQueries(service, 'bm25', hybridTexts, repoId) : none;
    const row = (q: Timed) => ({
      queries: q.ms.length, p50: Math.round(percentile(q.ms, 50)), p95: Math.round(percentile(q.ms, 95)), max: Math.round(Math.max(...q.ms)), empty: q.empty, slowest: q.slowest,
      stagesP50Ms: q.stages, strategy: q.strategy,
    });
    out.queries = { hybrid: row(hybrid), graph: row(graph), bm25: row(bm25), load: [loadQ, load()] };
    console.log(`queries: ${JSON.stringify(out.queries)}`);
    for (const [mode, q] of [['hybrid', hybrid], ['graph', graph], ['bm25', bm25]] as const) for (const t of q.tail) console.log(`tail ${mode}: ${JSON.stringify(t)}`);
    if (process.argv.includes('--lists')) {
      const loadL = load();
      out.lists = { ...(await timeLists(new SearchRepository(neo4j), hybridTexts, repoId)), load: [loadL, load()] };
      console.log(`lists: ${JSON.stringify(out.lists)}`);
    }
  } finally {
    await neo4j.onModuleDestroy();
  }

  // Incremental: 1% of the files touched, re-indexed (embedding the changed scopes).
  if (full || incrementalOnly) {
    const fullIndexMs = full ? full.result.indexMs : Number(arg('full-index-ms', 'NaN'));
    const fullGraphMs = full ? full.result.indexMs - (full.result.timingsMs.embed ?? 0) : Number(arg('full-graph-ms', 'NaN'));
    if (incrementalOnly) {
      // The corpus was generated again, which reverted the last run's touched files: bring the graph
      // back in line first (itself a 1 % change, reported as such).
      const back = await index(false);
      out.revert = { parsed: back.result.files.parsed, indexMs: back.result.indexMs, phasesMs: back.result.timingsMs, ratioOfFull: Number((back.result.indexMs / fullIndexMs).toFixed(3)), workerPeakRssMiB: mib(back.maxRssKb) };
      console.log(`revert: ${JSON.stringify(out.revert)}`);
    }
    const touched = touchFiles(root, files, touchPercent);
    const loadI = load();
    const incr = await index(false);
    const r = incr.result;
    out.incremental = {
      touchedFiles: touched.length, parsed: r.files.parsed, reused: r.files.reused, scopesChanged: r.scopes.changed + r.scopes.added + r.scopes.deleted,
      embeddedThisRun: r.embeddedThisRun, indexMs: r.indexMs, phasesMs: r.timingsMs, ratioOfFull: Number((r.indexMs / fullIndexMs).toFixed(3)),
      ratioOfGraphWrite: Number(((r.indexMs - (r.timingsMs.embed ?? 0)) / fullGraphMs).toFixed(3)),
      ...(full ? { cpuRatioOfFull: Number((((incr.cpuMs ?? 0) + incr.neo4jCpuMs) / ((full.cpuMs ?? 0) + full.neo4jCpuMs)).toFixed(3)) } : {}),
      workerPeakRssMiB: mib(incr.maxRssKb), neo4jPeakRssMiB: mib(incr.neo4jPeakRssKb), load: [loadI, load()],
    };
    console.log(`incremental: ${JSON.stringify(out.incremental)}`);
    // The touched files are restored by the next generation only; mark the corpus stale.
    fs.rmSync(path.join(root, '.complete'), { force: true });
  }
  await fake.close();

  const fr = out.full as Record<string, any> | undefined;
  const q = out.queries as Record<string, any> | undefined;
  const inc = out.incremental as Record<string, any> | undefined;
  out.target = { hybridP95Ms: 100, graphP95Ms: 100, workerPeakRssMiB: 2048, incrementalRatio: 0.05 };
  printTable([
    ['metric', 'value', 'target'],
    ['files / scopes / edges', fr ? `${files.length} / ${fr.scopes} / ${fr.edges}` : `${files.length} / ${out.scopesInGraph} / -`, '1M scopes'],
    ['full index ms (graph / embedding)', fr ? `${fr.indexMs} (${fr.graphMs} / ${fr.embedMs})` : '-', ''],
    ['worker peak RSS MiB', fr ? fr.workerPeakRssMiB : '-', '< 2048'],
    ['Neo4j peak RSS MiB', fr ? fr.neo4jPeakRssMiB : '-', ''],
    ['hybrid p50 / p95 ms (query embedding excluded)', q ? `${q.hybrid.p50} / ${q.hybrid.p95}` : '-', '≤ 100'],
    ['GRAPH p50 / p95 ms', q ? `${q.graph.p50} / ${q.graph.p95}` : '-', '≤ 100'],
    ['BM25 p50 / p95 ms', q ? `${q.bm25.p50} / ${q.bm25.p95}` : '-', ''],
    ['incremental ms / ratio of full (of graph write)', inc ? `${inc.indexMs} / ${inc.ratioOfFull} (${inc.ratioOfGraphWrite})` : '-', '≤ 0.05'],
  ]);
  console.log(JSON.stringify(out));
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
