/**
 * LLM rerank latency, end to end: GraphQL mutation on the API process -> BullMQ batches on the worker
 * process -> the real LangChain Gemini client -> a fake Gemini answering after a fixed latency L ->
 * merged into Redis -> progress events back over graphql-ws.
 *
 * Setup: 100 candidates (scopes written to Neo4j under a bench repository id, removed at the end),
 * batch 10, parallel 5, so B = 10 batches and the ideal time is ceil(B/P)·L (what a perfect scheduler
 * with zero overhead would take). Measured, medians of several runs:
 *   - mutation -> final subscription event, against the ideal (target <= 1.10 × ideal);
 *   - mutation -> first progress event (target <= L + 100 ms);
 *   - a cached repeat: mutation round trip until the result is in hand, p95 over N repeats, and the
 *     LLM calls it made (target p95 <= 30 ms, 0 calls);
 *   - jittered latency (L ± 50%, the same per-batch latencies for both): our pool scheduler against
 *     waves of P (the naive scheme: the next P batches start when the slowest of the wave returns).
 *
 * Needs Neo4j and Redis running (npm run services:up) and a build (npm run build). Run:
 *   node dist/bench/rerank/rerank-bench.js [--runs 5] [--latency 300] [--repeats 20]
 * Prints a table and one JSON line. RERANK_BENCH_TRACE=1 also prints each rerank's LLM request timeline.
 */
import { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../../test/fakes/fake-gemini';
import { pointwiseJudge, promptCandidates, promptQuestion } from '../../test/fakes/rerank-scripts';
import { gql } from '../../test/support/graphql-client';
import { API_READY, freePort, runId, WORKER_READY } from '../../test/support/processes';
import { arg, median, percentile, printTable, startBuiltApp as startApp, stopApp as stop } from '../support/bench-util';

const CANDIDATES = 100;
const BATCH = 10;
const PARALLEL = 5;
const JITTER = 0.5;
const TARGET_E2E_RATIO = 1.1;
const TARGET_FIRST_EVENT_SLACK_MS = 100;
const TARGET_CACHED_P95_MS = 30;

const START = 'mutation($input: StartRerankInput!) { startRerank(input: $input) { jobId status result { llmCalls cache { hits misses } hits { scopeId } } } }';
const PROGRESS = 'subscription($jobId: ID!) { rerankProgress(jobId: $jobId) { kind done total } }';

interface RunTimes {
  firstMs: number;
  finalMs: number;
  calls: number;
  /** Where the overhead goes: the mutation's round trip, mutation -> first LLM request, last LLM answer -> final event. */
  mutationMs: number;
  toFirstRequestMs: number;
  lastAnswerToFinalMs: number;
}

/** Per-batch latency for jittered runs: the same for a given (run, batch) whichever scheduler runs it. */
function jitteredLatency(latency: number, run: number, batch: number): number {
  const h = createHash('sha256').update(`${run}:${batch}`).digest().readUInt32LE(0) / 2 ** 32;
  return Math.round(latency * (1 - JITTER + 2 * JITTER * h));
}

async function main(): Promise<void> {
  const runs = Number(arg('runs', '5'));
  const latency = Number(arg('latency', '300'));
  const repeats = Number(arg('repeats', '20'));
  const batches = Math.ceil(CANDIDATES / BATCH);
  const ideal = Math.ceil(batches / PARALLEL) * latency;

  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const repo = runId('rrbench');
  const gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
  // Questions look like "<mode> run <n>": the run picks the latency pattern, the scopes' index the batch.
  gemini.onGenerate(async (request) => {
    const question = promptQuestion(request.text);
    const candidates = promptCandidates(request.text);
    const batch = Math.floor(Number(/(\d+)$/.exec(candidates[0].name)?.[1] ?? 0) / BATCH);
    const run = Number(/run (\d+)/.exec(question)?.[1] ?? 0);
    const wait = question.startsWith('jitter') ? jitteredLatency(latency, run, batch) : latency;
    return { ...(await pointwiseJudge({ score: (c) => (Number(/(\d+)$/.exec(c.name)?.[1]) % 10) / 10 })(request)), latencyMs: wait };
  });

  const prefix = runId('rrb');
  const env = { QUEUE_PREFIX: prefix, GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GEMINI_BASE_URL: gemini.baseUrl, RERANK_PROVIDER: 'gemini', LOG_LEVEL: 'warn' };
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let ws: Client | undefined;
  try {
    [api, worker] = await Promise.all([
      startApp('api', { ...env, API_PORT: String(port), LOG_LEVEL: 'log' }, API_READY),
      startApp('worker', { ...env, LOG_LEVEL: 'log' }, WORKER_READY),
    ]);
    const ids = await seed(neo4j, repo);
    ws = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, lazy: false, retryAttempts: 0 });

    const rerank = async (question: string, scheduling: 'POOL' | 'WAVES' = 'POOL'): Promise<RunTimes> => {
      const callsBefore = gemini.calls('generateContent');
      const requestsBefore = gemini.requests.length;
      const wall0 = Date.now();
      const t0 = performance.now();
      const started = await gql(url, START, { input: { question, scopeIds: ids, options: { batchSize: BATCH, parallel: PARALLEL, scheduling, timeoutMs: 60_000 } } });
      const mutationMs = performance.now() - t0;
      if (started.body.errors) throw new Error(JSON.stringify(started.body.errors));
      const { jobId } = started.body.data.startRerank;
      let firstMs = NaN;
      const finalMs = await new Promise<number>((resolve, reject) => {
        ws!.subscribe<{ rerankProgress: { kind: string; done: number } }>(
          { query: PROGRESS, variables: { jobId } },
          {
            next: (v) => {
              const e = v.data!.rerankProgress;
              if (e.kind === 'PROGRESS' && Number.isNaN(firstMs)) firstMs = performance.now() - t0;
              if (e.kind === 'COMPLETED') resolve(performance.now() - t0);
            },
            error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
            complete: () => undefined,
          },
        );
      });
      const mine = gemini.requests.slice(requestsBefore).filter((r) => r.action === 'generateContent');
      if (process.env.RERANK_BENCH_TRACE) {
        const rel = (t?: number) => (t === undefined ? '-' : String(t - wall0));
        process.stdout.write(`${question}: mutation ${mutationMs.toFixed(1)} first ${firstMs.toFixed(1)} final ${finalMs.toFixed(1)}; requests ${mine.map((r) => `${rel(r.receivedAt)}..${rel(r.respondedAt)}`).join(' ')}\n`);
      }
      const firstRequest = Math.min(...mine.map((r) => r.receivedAt)) - wall0;
      const lastAnswer = Math.max(...mine.map((r) => r.respondedAt ?? Number.NaN)) - wall0;
      return { firstMs, finalMs, calls: mine.length, mutationMs, toFirstRequestMs: firstRequest, lastAnswerToFinalMs: finalMs - lastAnswer };
    };

    await rerank('warm-up run 0');
    const fixed: RunTimes[] = [];
    const pool: RunTimes[] = [];
    const waves: RunTimes[] = [];
    for (let r = 1; r <= runs; r++) {
      fixed.push(await rerank(`fixed run ${r}`));
      // Interleaved, each pair with the same per-batch latencies.
      pool.push(await rerank(`jitter pool run ${r}`, 'POOL'));
      waves.push(await rerank(`jitter waves run ${r}`, 'WAVES'));
    }
    for (const t of [...fixed, ...pool, ...waves]) if (t.calls !== batches) throw new Error(`expected ${batches} LLM calls per rerank, saw ${t.calls}`);

    // Cached repeats: the same question and candidates as a finished rerank.
    const cachedQuestion = `fixed run 1`;
    const callsBefore = gemini.calls('generateContent');
    const cached: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const t0 = performance.now();
      const res = await gql(url, START, { input: { question: cachedQuestion, scopeIds: ids, options: { batchSize: BATCH, parallel: PARALLEL } } });
      const result = res.body.data?.startRerank?.result;
      cached.push(performance.now() - t0);
      if (!result || result.llmCalls !== 0 || result.cache.hits !== batches || result.hits.length !== CANDIDATES) throw new Error(`repeat ${i} was not a full cache hit: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    const cachedCalls = gemini.calls('generateContent') - callsBefore;

    const m = (xs: RunTimes[], key: keyof RunTimes) => median(xs.map((x) => x[key]));
    const fixedFinal = m(fixed, 'finalMs');
    const fixedFirst = m(fixed, 'firstMs');
    const cachedP95 = percentile(cached, 95);
    const poolFinal = m(pool, 'finalMs');
    const wavesFinal = m(waves, 'finalMs');
    process.stdout.write(`\nrerank bench: ${CANDIDATES} candidates, batch ${BATCH}, parallel ${PARALLEL}, B = ${batches} batches, L = ${latency} ms, ${runs} runs (medians)\n\n`);
    printTable([
      ['measure', 'value ms', 'reference ms', 'ratio', 'target', 'ok'],
      ['mutation -> final event (fixed L)', fixedFinal, ideal, fixedFinal / ideal, `<= ${TARGET_E2E_RATIO} x ideal`, ok(fixedFinal <= TARGET_E2E_RATIO * ideal)],
      ['mutation -> first progress (fixed L)', fixedFirst, latency, fixedFirst / latency, `<= L + ${TARGET_FIRST_EVENT_SLACK_MS}`, ok(fixedFirst <= latency + TARGET_FIRST_EVENT_SLACK_MS)],
      [`cached repeat p95 (n=${repeats})`, cachedP95, TARGET_CACHED_P95_MS, cachedP95 / TARGET_CACHED_P95_MS, `<= ${TARGET_CACHED_P95_MS}, 0 calls`, ok(cachedP95 <= TARGET_CACHED_P95_MS && cachedCalls === 0)],
      ['cached repeat p50', median(cached), '', '', '', ''],
      ['LLM calls in cached repeats', cachedCalls, 0, '', '0', ok(cachedCalls === 0)],
      ['jitter L±50%: pool -> final', poolFinal, wavesFinal, poolFinal / wavesFinal, '< waves', ok(poolFinal < wavesFinal)],
      ['jitter L±50%: waves of P -> final', wavesFinal, '', '', '', ''],
      ['jitter L±50%: pool first progress', m(pool, 'firstMs'), '', '', '', ''],
      ['overhead: mutation round trip', m(fixed, 'mutationMs'), '', '', '', ''],
      ['overhead: mutation -> first LLM request', m(fixed, 'toFirstRequestMs'), '', '', '', ''],
      ['overhead: last LLM answer -> final event', m(fixed, 'lastAnswerToFinalMs'), '', '', '', ''],
    ]);
    const summary = {
      bench: 'rerank',
      candidates: CANDIDATES,
      batchSize: BATCH,
      parallel: PARALLEL,
      batches,
      latencyMs: latency,
      runs,
      idealMs: ideal,
      e2eMedianMs: round(fixedFinal),
      e2eRatio: round(fixedFinal / ideal, 3),
      e2eRuns: fixed.map((t) => round(t.finalMs)),
      firstProgressMedianMs: round(fixedFirst),
      mutationMedianMs: round(m(fixed, 'mutationMs')),
      toFirstLlmRequestMedianMs: round(m(fixed, 'toFirstRequestMs')),
      lastAnswerToFinalMedianMs: round(m(fixed, 'lastAnswerToFinalMs')),
      cachedP50Ms: round(median(cached)),
      cachedP95Ms: round(cachedP95),
      cachedLlmCalls: cachedCalls,
      jitterPoolMedianMs: round(poolFinal),
      jitterWavesMedianMs: round(wavesFinal),
      jitterPoolRuns: pool.map((t) => round(t.finalMs)),
      jitterWavesRuns: waves.map((t) => round(t.finalMs)),
      targetsMet: fixedFinal <= TARGET_E2E_RATIO * ideal && fixedFirst <= latency + TARGET_FIRST_EVENT_SLACK_MS && cachedP95 <= TARGET_CACHED_P95_MS && cachedCalls === 0,
    };
    process.stdout.write(`\n${JSON.stringify(summary)}\n`);
  } finally {
    await ws?.dispose();
    await Promise.all([stop(api), stop(worker)]);
    await neo4j.runStatement('MATCH (s:Scope {repoId: $repo}) DETACH DELETE s', { repo }).catch(() => undefined);
    await neo4j.onModuleDestroy();
    await gemini.close();
  }
}

async function seed(neo4j: Neo4jService, repo: string): Promise<string[]> {
  const rows = Array.from({ length: CANDIDATES }, (_, i) => {
    const source = `export function fn${i}(input: string): number {\n  // candidate ${i}\n  return input.length * ${i};\n}`;
    return {
      id: `${repo}:src/m${i % 9}/f${i}.ts#fn${i}|function`,
      repoId: repo,
      name: `fn${i}`,
      qualifiedName: `fn${i}`,
      kind: 'function',
      language: 'typescript',
      path: `src/m${i % 9}/f${i}.ts`,
      signature: `fn${i}(input: string): number`,
      source,
      contentHash: createHash('sha256').update(source).digest('hex').slice(0, 16),
    };
  });
  await neo4j.runStatement('UNWIND $rows AS row MERGE (s:Scope {id: row.id}) SET s += row', { rows });
  return rows.map((r) => r.id);
}

function ok(pass: boolean): string {
  return pass ? 'yes' : 'NO';
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
