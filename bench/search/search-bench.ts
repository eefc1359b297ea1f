/**
 * Search latency and throughput at 10k and 100k scopes.
 *
 *   npm run bench:search -- [--sizes 10000,100000] [--runs 3] [--queries 60] [--concurrency 32]
 *                           [--duration 10] [--no-graphql] [--no-peer] [--delete | --delete-only]
 *
 * Per size, a synthetic repository `bench-synth-<size>` (synthetic.ts: realistic paths, names,
 * kinds, sources and call edges, real 384-dimensional vectors) is reused when it holds the right
 * count, else written; other synthetic repositories are deleted first so the indexes hold that size
 * (plus whatever real repositories are indexed: the header says). Then, through SearchService:
 *
 *   - p50/p95 per mode (semantic, bm25, hybrid, semantic_rerank) and scenario: `repo` (the repository
 *     filter, as the product is used), `unfiltered`, `filtered` (repository + kind + path substring:
 *     the over-fetch path) and `expand` (repository + callers/callees of every hit), with the query
 *     embedding excluded (vectors computed beforehand, every other stage as in production) and, for
 *     `repo`, included (the local model embeds each query);
 *   - LangChain's Neo4jVectorStore hybrid over the same indexes in the same loop (interleaved with
 *     our unfiltered hybrid, both with a precomputed vector), when `@langchain/community` loads;
 *   - throughput with --concurrency clients for --duration seconds: in process (embedding excluded)
 *     and over GraphQL/HTTP against an API process started for the bench (embedding included: the
 *     server embeds every query).
 *
 * Latencies are medians over --runs runs of each run's p50/p95. Prints a table and one JSON line.
 * The last synthetic repository stays for the next run; --delete removes them at the end,
 * --delete-only removes them and exits. Needs Neo4j and Redis up and a build.
 */
import * as fs from 'node:fs';
import { Logger } from '@nestjs/common';
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { IngestRepository } from '@scopegraph/ingest';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { defaultPlan, expandDefaults, semanticQueryText, SEARCH_MODES, type SearchMode, type SearchPlan, SearchRepository, SearchService } from '@scopegraph/search';
import { parseDataset, percentileOf } from '../../libs/search/src/eval';
import { loadPeerOrNull } from '../peer/peer-loader';
import { arg, median, printTable } from '../support/bench-util';
import { DEV_SET_FILE } from './build-dataset';
import { PrecomputedEmbedder } from './precomputed-embedder';
import { ensureSynthetic, SYNTH_PREFIX, synthQueries, synthRepoId } from './synthetic';

// Over-fetch shortfalls are counted per row (`short`) instead of logged per query.
Logger.overrideLogger(['error']);

const TARGET_P95_MS = 25;
const RESULT_LIMIT = 10;
const WARMUP = 10;
type Scenario = 'repo' | 'unfiltered' | 'filtered' | 'expand';
const SCENARIOS: Scenario[] = ['repo', 'unfiltered', 'filtered', 'expand'];

interface Row {
  size: number;
  scenario: string;
  mode: string;
  embedding: 'excluded' | 'included';
  strategy: string;
  p50: number;
  p95: number;
  /** Queries (per run) whose semantic list came back with fewer than wanted (over-fetch gave up). */
  short: number;
}

const flag = (name: string) => process.argv.includes(`--${name}`);

async function main(): Promise<void> {
  const sizes = arg('sizes', '10000,100000').split(',').map(Number);
  const runs = Math.max(1, Number(arg('runs', '3')));
  const queryCount = Math.max(4, Number(arg('queries', '60')));
  const concurrency = Math.max(1, Number(arg('concurrency', '32')));
  const durationS = Math.max(1, Number(arg('duration', '10')));
  const log = (m: string) => process.stderr.write(`${m}\n`);

  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const ingestRepo = new IngestRepository(neo4j);
  const searchRepo = new SearchRepository(neo4j);
  const embedder = createEmbeddingProvider({ provider: 'local', dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir });
  const precomputed = new PrecomputedEmbedder(embedder);
  const withEmbed = new SearchService(searchRepo, embedder);
  const noEmbed = new SearchService(searchRepo, precomputed);
  const synthRepos = async () => (await ingestRepo.repositories()).filter((r) => r.id.startsWith(SYNTH_PREFIX)).map((r) => r.id);

  try {
    if (flag('delete-only')) {
      for (const id of await synthRepos()) {
        log(`deleting ${id}`);
        await ingestRepo.deleteRepository(id);
      }
      return;
    }
    // Half descriptions (the dev set's text questions), half identifiers and phrases of the synthetic vocabulary.
    const dev = parseDataset(fs.readFileSync(DEV_SET_FILE, 'utf8'), DEV_SET_FILE).filter((q) => !q.expand).map((q) => q.query);
    const queries = [...dev.slice(0, Math.ceil(queryCount / 2)), ...synthQueries(Math.floor(queryCount / 2))];
    const vectors = new Map<string, number[]>();
    for (const q of queries) vectors.set(q, await precomputed.add(semanticQueryText(q)));

    const peer = flag('no-peer') ? null : await loadPeerOrNull(embedder, log);
    const rows: Row[] = [];
    const throughput: Record<string, unknown>[] = [];
    const built: Record<string, unknown>[] = [];

    for (const size of sizes) {
      const repoId = synthRepoId(size);
      for (const other of await synthRepos()) {
        if (other === repoId) continue;
        log(`deleting ${other} so that the indexes hold ${size} synthetic scopes`);
        await ingestRepo.deleteRepository(other);
      }
      const made = await ensureSynthetic(ingestRepo, embedder, size, log);
      built.push({ size, ...made });
      log(`${repoId}: ${made.reused ? 'reused' : `written in ${made.seconds.toFixed(0)} s`}`);
      await neo4j.runStatement('CALL db.awaitIndexes(300)');
      await waitForFullText(noEmbed, repoId);
      const [{ total }] = await neo4j.runStatement<{ total: number }>('MATCH (s:Scope) WHERE s.embedding IS NOT NULL RETURN count(*) AS total');
      log(`${size}: index holds ${total} embedded scopes in all`);

      const planFor = (scenario: Scenario, mode: SearchMode, text: string): SearchPlan => {
        const plan = defaultPlan(mode, text);
        plan.limit = RESULT_LIMIT;
        plan.sourceChars = 2000; // the API's default
        if (scenario !== 'unfiltered') plan.filters = { repository: repoId };
        if (scenario === 'filtered') plan.filters = { repository: repoId, kinds: ['method'], path: { contains: 'billing' } };
        if (scenario === 'expand') plan.expand = expandDefaults({ depth: 1, edges: ['CALLS'], direction: 'both', maxNodes: 50 });
        return plan;
      };

      const samples = new Map<string, { strategy: string; p50: number[]; p95: number[]; short: number[] }>();
      const record = (key: string, strategy: string, ms: number[], short = 0) => {
        const s = samples.get(key) ?? { strategy, p50: [], p95: [], short: [] };
        s.p50.push(percentileOf(ms, 50));
        s.p95.push(percentileOf(ms, 95));
        s.short.push(short);
        samples.set(key, s);
      };
      const time = async (work: () => Promise<unknown>) => {
        const t0 = performance.now();
        await work();
        return performance.now() - t0;
      };

      for (let run = 0; run < runs; run++) {
        for (const scenario of SCENARIOS) {
          for (const mode of SEARCH_MODES) {
            for (const q of queries.slice(0, WARMUP)) await noEmbed.execute(planFor(scenario, mode, q));
            const ms: number[] = [];
            let strategy = '';
            let short = 0;
            for (const q of queries) {
              const t0 = performance.now();
              const res = await noEmbed.execute(planFor(scenario, mode, q));
              ms.push(performance.now() - t0);
              strategy ||= res.explain.vectorStrategy.name;
              if (res.explain.notes.some((n) => n.startsWith('over-fetch stopped'))) short++;
            }
            record(`${scenario}|${mode}|excluded`, strategy, ms, short);
            if (scenario === 'repo' && mode !== 'bm25') {
              const withMs: number[] = [];
              for (const q of queries) withMs.push(await time(() => withEmbed.execute(planFor(scenario, mode, q))));
              record(`${scenario}|${mode}|included`, strategy, withMs);
            }
          }
        }
        if (peer) {
          // Same loop, alternating who goes first: our unfiltered hybrid and the peer's, both with the vector given.
          const oursMs: number[] = [];
          const peerMs: number[] = [];
          for (const [i, q] of queries.entries()) {
            const ours = () => time(() => noEmbed.execute(planFor('unfiltered', 'hybrid', q)));
            const theirs = () => time(() => peer.store.similaritySearchVectorWithScore(vectors.get(q)!, RESULT_LIMIT, q).catch(() => []));
            if (i % 2 === 0) oursMs.push(await ours()), peerMs.push(await theirs());
            else peerMs.push(await theirs()), oursMs.push(await ours());
          }
          record('unfiltered|hybrid (vs peer)|excluded', 'unfiltered-index', oursMs);
          record('unfiltered|langchain hybrid|excluded', 'langchain', peerMs);
        }
        log(`${size}: run ${run + 1}/${runs} done`);
      }
      for (const [key, s] of samples) {
        const [scenario, mode, embedding] = key.split('|');
        rows.push({ size, scenario, mode, embedding: embedding as Row['embedding'], strategy: s.strategy, p50: median(s.p50), p95: median(s.p95), short: Math.max(...s.short) });
      }

      // Throughput: in process, embedding excluded.
      throughput.push({ size, via: 'in-process SearchService', embedding: 'excluded', ...(await load(concurrency, durationS, (i) => noEmbed.execute(planFor('repo', 'hybrid', queries[i % queries.length])))) });
      log(`${size}: in-process throughput measured`);
      // Throughput over GraphQL/HTTP against an API process of its own: embedding included.
      if (!flag('no-graphql')) {
        let api: { stop: () => Promise<void> } | undefined;
        try {
          const started = await startApi();
          api = started;
          const port = started.port;
          const url = `http://127.0.0.1:${port}/graphql`;
          const query = 'query($i: SearchInput!) { search(input: $i) { results { rank scope { id path qualifiedName } } } }';
          const post = async (text: string) => {
            const res = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query, variables: { i: { text, mode: 'HYBRID', topK: RESULT_LIMIT, repository: repoId } } }),
            });
            const body = (await res.json()) as { errors?: { message: string }[] };
            if (body.errors) throw new Error(body.errors[0].message);
          };
          for (const q of queries.slice(0, WARMUP)) await post(q);
          throughput.push({ size, via: 'GraphQL over HTTP (own API process)', embedding: 'included (server-side)', ...(await load(concurrency, durationS, (i) => post(queries[i % queries.length]))) });
          log(`${size}: GraphQL throughput measured`);
        } catch (error) {
          // A concurrent `npm run build` empties dist/ for a moment; the other figures still stand.
          log(`${size}: GraphQL throughput left out: ${(error as Error).message.split('\n')[0]}`);
        } finally {
          await api?.stop();
        }
      }
      // Each size is printed as soon as it is measured (a long run keeps what it has).
      printTable([
        ['size', 'scenario', 'mode', 'embedding', 'vector strategy', 'p50 ms', 'p95 ms', 'short lists'],
        ...rows.filter((r) => r.size === size).map((r) => [String(r.size), r.scenario, r.mode, r.embedding, r.strategy, r.p50, r.p95, `${r.short}/${queries.length}`]),
      ]);
      process.stdout.write('\n');
      printTable([
        ['size', 'via', 'embedding', 'clients', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'errors'],
        ...throughput.filter((t) => t.size === size).map((t) => [String(t.size), String(t.via), String(t.embedding), String(t.clients), String(t.requests), t.rps as number, t.p50 as number, t.p95 as number, String(t.errors)]),
      ]);
      process.stdout.write(`${JSON.stringify({ size, totalEmbeddedScopes: total, latency: rows.filter((r) => r.size === size), throughput: throughput.filter((t) => t.size === size) })}\n\n`);
    }

    if (flag('delete')) for (const id of await synthRepos()) await ingestRepo.deleteRepository(id), log(`deleted ${id}`);

    const largest = Math.max(...sizes);
    const hybridRepo = rows.find((r) => r.size === largest && r.scenario === 'repo' && r.mode === 'hybrid' && r.embedding === 'excluded');
    const oursVsPeer = rows.find((r) => r.size === largest && r.mode === 'hybrid (vs peer)');
    const peerRow = rows.find((r) => r.size === largest && r.mode === 'langchain hybrid');
    const targets = {
      hybridP95AtLargestMs: hybridRepo?.p95,
      hybridP95TargetMs: TARGET_P95_MS,
      hybridP95Met: hybridRepo ? hybridRepo.p95 <= TARGET_P95_MS : null,
      peerP95Ms: peerRow?.p95 ?? null,
      oursUnfilteredP95Ms: oursVsPeer?.p95 ?? null,
      noSlowerThanPeer: peerRow && oursVsPeer ? oursVsPeer.p95 <= peerRow.p95 : null,
    };
    process.stdout.write(`\ntargets at ${largest} scopes: ${JSON.stringify(targets)}\n`);
    process.stdout.write(JSON.stringify({ sizes, runs, queries: queries.length, resultLimit: RESULT_LIMIT, built, latency: rows, throughput, targets }) + '\n');
    await peer?.store.close();
  } finally {
    await embedder.close?.();
    await neo4j.onModuleDestroy();
  }
}

/** An API process from dist/ on a free port, for the HTTP throughput run; stopped by the bench. */
async function startApi(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port: p } = server.address() as net.AddressInfo;
      server.close(() => resolve(p));
    });
    server.on('error', reject);
  });
  const root = projectRoot();
  const main = path.join(root, 'dist/apps/api/src/main.js');
  for (let i = 0; i < 120 && !fs.existsSync(main); i++) await new Promise((r) => setTimeout(r, 500)); // a build in progress
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, API_PORT: String(port), QUEUE_PREFIX: `bench${Date.now().toString(36)}`, LOG_LEVEL: 'warn', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      if (res.ok) return { port, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not answer within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The full-text index is eventually consistent: wait until it serves the synthetic repository. */
async function waitForFullText(service: SearchService, repoId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const plan = defaultPlan('bm25', 'billing');
    plan.filters = { repository: repoId };
    plan.limit = 1;
    if ((await service.execute(plan)).results.length > 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the full-text index does not serve ${repoId} after 5 minutes`);
}

/** `clients` loops issuing requests back to back for `seconds`; requests/s and latency under load. */
async function load(clients: number, seconds: number, request: (i: number) => Promise<unknown>) {
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const i = next++;
        const t0 = performance.now();
        try {
          await request(i);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { clients, seconds, requests: latencies.length, errors, rps: latencies.length / elapsed, p50: percentileOf(latencies, 50), p95: percentileOf(latencies, 95) };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
