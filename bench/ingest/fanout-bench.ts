/**
 * Embedding fanned out over workers, and how soon an index is searchable.
 *
 *   npm run build && npm run bench:fanout -- [--corpus <dir>] [--workers 1,2,3] [--rounds 2 (0: none)]
 *        [--latency-ms 1000] [--batch 32] [--slice 2048] [--local 1,2] [--local-corpus <dir>]
 *        [--local-ab <other build's dist/apps/worker/src/main.js>]
 *        [--searchable [--searchable-corpus <dir>] [--term <a name it defines>]]
 *
 * Default corpora (pinned, fetched into .cache/bench on first use): commons-lang3 3.14.0 sources for the
 * fake endpoint, chi v5.5.0 for the local model.
 *
 * Throughput: the corpus is indexed once without vectors (in this process). Then, for each worker
 * count (alternated over --rounds so the machine's load falls on every count alike), its vectors are
 * removed, N real worker processes start on a queue prefix of their own (an empty embedding cache),
 * and this process plays the index job: EmbedFanOut plans the slices and follows them to the end.
 * The endpoint is a fake OpenAI-compatible server answering every request after a fixed latency, so
 * the ideal is linear in workers (each worker has one request in flight: EMBEDDING_OPENAI_CONCURRENCY=1).
 * With --local, the same with the local ONNX model on --local-scopes scopes, against the bare model's
 * own rate measured here first (the ideal there is the cores, not the workers).
 * --local-ab: each --local count runs twice, this build's worker and the other's, alternated (AB, BA,
 * ...), each pair after a fresh measure of the bare model, so that each ratio to the bare model and the
 * A/B comparison are taken side by side under the same load on a shared machine.
 *
 * --searchable: one API and one worker (the default settings), an index started through GraphQL as
 * `scopegraph index` does, and keyword searches every 100 ms for a name the corpus defines: the time
 * from the mutation to the first hit is `searchableAfterMs` (embedding goes on after it).
 *
 * Prints a table and one JSON line, with the load average beside the figures.
 */
import { ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { loadConfig } from '@scopegraph/config';
import { identifierSubTokens } from '@scopegraph/code-model';
import { EMBED_SOURCE_CHARS, EmbeddableScope, EmbedFanOut, EmbeddingCache, embeddingText, IngestRepository } from '@scopegraph/ingest';
import { createEmbeddingProvider, EmbeddingProvider, HashEmbeddingProvider } from '@scopegraph/llm';
import { QueueService } from '@scopegraph/queue';
import { FakeOpenAiEmbeddings } from '../../test/fakes/fake-model-apis';
import { IngestHarness } from '../../test/support/ingest-harness';
import { runId, WORKER_READY } from '../../test/support/processes';
import { arg, median, neo4jCpuMs, printTable, processCpuMs, startBuiltApp, stopApp } from '../support/bench-util';
import { LangCorpus, langCorpusRoot } from '../search/lang-corpora';
import { searchableAfter } from './searchable';

const DIMENSIONS = 384;
const FAKE_MODEL = 'fake-fixed-latency';
/** The worker's line once EMBEDDING_PRELOAD has loaded the local model. */
const MODEL_LOADED = /model \S+ loaded \(\d+ ms\)/;

const load = () => os.loadavg()[0].toFixed(1);

async function clearVectors(h: IngestHarness, repo: string): Promise<void> {
  // Batches of 5,000 (one transaction each) keep Neo4j's transaction memory bounded.
  for (;;) {
    const [{ n }] = await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $repo}) WHERE s.embedding IS NOT NULL WITH s LIMIT 5000 SET s.embedding = null, s.embeddingModel = null RETURN count(s) AS n', { repo });
    if (n === 0) break;
  }
}

/** N workers on a prefix of their own; this process runs the index job's side of the fan-out. */
async function fanOutRound(h: IngestHarness, repo: string, workers: number, env: Record<string, string>, model: string, slice: number, workerMain?: string) {
  await clearVectors(h, repo);
  const prefix = runId('fob');
  const config = { ...h.config, queue: { prefix }, ingest: { ...h.config.ingest, embedSlice: slice } };
  const queues = new QueueService(config);
  await queues.onModuleInit();
  const children: ChildProcess[] = [];
  try {
    // A local model is loaded before the clock starts (EMBEDDING_PRELOAD), as the bare model's is: the
    // phase's steady rate is compared, not a worker's one-off start.
    const ready = env.EMBEDDING_PROVIDER === 'local' ? MODEL_LOADED : WORKER_READY;
    const preload: Record<string, string> = env.EMBEDDING_PROVIDER === 'local' ? { EMBEDDING_PRELOAD: 'true' } : {};
    children.push(...(await Promise.all(Array.from({ length: workers }, () => startBuiltApp('worker', { ...env, ...preload, QUEUE_PREFIX: prefix, INGEST_EMBED_SLICE: String(slice) }, ready, { main: workerMain })))));
    const stub = { model, dimensions: DIMENSIONS } as EmbeddingProvider;
    const fanOut = new EmbedFanOut(new IngestRepository(h.neo4j), queues, new EmbeddingCache(queues), stub, config);
    const loadBefore = load();
    // CPU of each side over the phase (load-independent, unlike the rate): the workers, Neo4j (its writes
    // and vector index inserts share the cores with the model), and this process playing the index job.
    const workerCpu = () => children.reduce((sum, c) => sum + (processCpuMs(c.pid!) ?? 0), 0);
    const cpu0 = { workers: workerCpu(), neo4j: neo4jCpuMs(), self: process.cpuUsage() };
    const started = performance.now();
    let total = 0;
    const stats = await fanOut.run(repo, `ixbench${workers}${Date.now().toString(36)}`, { onTotal: (t) => void (total = t), onEmbedded: () => undefined });
    const seconds = (performance.now() - started) / 1000;
    const self = process.cpuUsage(cpu0.self);
    const cpuMs = { workers: Math.round(workerCpu() - cpu0.workers), neo4j: Math.round(neo4jCpuMs() - cpu0.neo4j), indexJob: Math.round((self.user + self.system) / 1000) };
    if (stats.error) throw new Error(`embedding failed: ${stats.error}`);
    return { workers, scopes: total, seconds, perSecond: total / seconds, load: `${loadBefore}→${load()}`, cpuMs };
  } finally {
    await Promise.all(children.map((c) => stopApp(c)));
    await queues.redis.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 0`, 0, `${prefix}:*`).catch(() => undefined);
    await queues.onModuleDestroy();
  }
}

/** The default corpora, pinned and fetched on first use like the eval corpora: a fresh machine needs nothing by hand. */
const FAKE_CORPUS: LangCorpus = { repo: 'commons-lang3', language: 'Java', registry: 'maven', name: 'org.apache.commons:commons-lang3', version: '3.14.0', sha256: 'ab3b86afb898f1026dbe43aaf71e9c1d719ec52d6e41887b362d86777c299b6f', subdir: '' };
const LOCAL_CORPUS: LangCorpus = { repo: 'chi', language: 'Go', registry: 'go', name: 'github.com/go-chi/chi/v5', version: 'v5.5.0', sha256: '39f8416f36d5b177b0ce5d48cf21b3f460df9260feafab1fb8c1410fde0901dc', subdir: 'github.com/go-chi/chi/v5@v5.5.0' };

async function main(): Promise<void> {
  const corpus = arg('corpus', '') || langCorpusRoot(FAKE_CORPUS);
  const workerCounts = arg('workers', '1,2,3').split(',').map(Number);
  const rounds = Number(arg('rounds', '2'));
  const latencyMs = Number(arg('latency-ms', '1000'));
  const batch = Number(arg('batch', '32'));
  const slice = Number(arg('slice', '2048'));
  const local = arg('local', '').split(',').filter(Boolean).map(Number);
  const out: Record<string, unknown> = { corpus, latencyMs, batch, slice, cpus: os.cpus().length, loadBefore: load() };

  if (process.argv.includes('--searchable')) {
    const term = arg('term', 'StringUtils');
    out.searchable = await searchableAfter(arg('searchable-corpus', corpus), [term]);
    console.log(`searchableAfterMs ${JSON.stringify(out.searchable)} (load ${load()})`);
  }

  if (rounds === 0) {
    console.log(JSON.stringify(out));
    process.exit(0);
  }
  const h = new IngestHarness(runId('fobh'));
  await h.init(new HashEmbeddingProvider(DIMENSIONS));
  const repo = runId('fanbench');
  const repos = [repo];
  try {
    const indexed = await h.ingest.index({ path: corpus, name: repo, embed: false });
    out.scopes = indexed.scopes.total;
    console.log(`indexed ${corpus}: ${indexed.scopes.total} scopes (graph only)`);

    const fake = await FakeOpenAiEmbeddings.start();
    fake.setLatency(latencyMs);
    fake.reply((request) => ({ data: request.input.map((text, index) => ({ index, embedding: Array.from({ length: DIMENSIONS }, (_, i) => ((text.charCodeAt(i % Math.max(text.length, 1)) || 1) % 13) + 1) })) }));
    const env = {
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_OPENAI_BASE_URL: `${fake.baseUrl}/v1`,
      EMBEDDING_MODEL: FAKE_MODEL,
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
      EMBEDDING_OPENAI_CONCURRENCY: '1',
      EMBEDDING_BATCH_SIZE: String(batch),
    };
    const runs: Awaited<ReturnType<typeof fanOutRound>>[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const n of workerCounts) {
        const run = await fanOutRound(h, repo, n, env, FAKE_MODEL, slice);
        console.log(`fake endpoint, ${n} worker(s): ${run.scopes} in ${run.seconds.toFixed(1)} s = ${run.perSecond.toFixed(0)}/s (load ${run.load})`);
        runs.push(run);
      }
    }
    await fake.close();
    const rate = (n: number) => median(runs.filter((x) => x.workers === n).map((x) => x.perSecond));
    const base = rate(workerCounts[0]);
    out.fake = workerCounts.map((n) => ({ workers: n, perSecond: Math.round(rate(n)), speedup: Number((rate(n) / base).toFixed(2)) }));
    // Each worker runs INGEST_EMBED_CONCURRENCY (default 2) slices, each with one request in flight.
    out.fakeIdealPerWorker = Math.round((2 * batch * 1000) / latencyMs);

    if (local.length) {
      // A smaller corpus: the local model runs at tens of embeddings a second on two cores.
      const localCorpus = arg('local-corpus', '') || langCorpusRoot(LOCAL_CORPUS);
      const localRepo = runId('fanlocal');
      repos.push(localRepo);
      const small = await h.ingest.index({ path: localCorpus, name: localRepo, embed: false });
      // The bare model on the texts the phase embeds (embeddingText: kind, name, signature, doc, body
      // head), in this process with all cores: the ceiling of the phase.
      const rows = await h.neo4j.runStatement<EmbeddableScope>('MATCH (s:Scope {repoId: $repo}) RETURN s.kind AS kind, s.qualifiedName AS qualifiedName, s.signature AS signature, s.docComment AS docComment, left(s.source, $chars) AS source', { repo: localRepo, chars: EMBED_SOURCE_CHARS });
      const texts = rows.map((r) => embeddingText(r, identifierSubTokens));
      const model = createEmbeddingProvider({ provider: 'local', dimensions: DIMENSIONS, modelsDir: loadConfig().embedding.modelsDir });
      await model.embedDocuments(texts.slice(0, 32));
      const bareCpuMs: number[] = [];
      const bareRate = async () => {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await model.embedDocuments(texts);
        const c = process.cpuUsage(c0);
        bareCpuMs.push(Math.round((c.user + c.system) / 1000));
        return texts.length / ((performance.now() - t0) / 1000);
      };
      out.localCorpus = { path: localCorpus, scopes: small.scopes.total };
      const other = arg('local-ab', '');
      const localRuns: unknown[] = [];
      const bares: number[] = [];
      for (const [round, n] of local.entries()) {
        const bareLoad = load();
        const bare = await bareRate();
        bares.push(bare);
        console.log(`bare model: ${bare.toFixed(1)}/s (load ${bareLoad}→${load()})`);
        const builds: [string, string | undefined][] = other ? [['this', undefined], ['other', other]] : [['this', undefined]];
        if (round % 2 === 1) builds.reverse();
        for (const [build, workerMain] of builds) {
          const run = await fanOutRound(h, localRepo, n, { EMBEDDING_PROVIDER: 'local' }, model.model, slice, workerMain);
          const bareCpu = bareCpuMs[bareCpuMs.length - 1];
          localRuns.push({ build, workers: n, perSecond: Number(run.perSecond.toFixed(1)), bare: Number(bare.toFixed(1)), ofBare: Number((run.perSecond / bare).toFixed(2)), load: run.load, cpuMs: run.cpuMs, bareCpuMs: bareCpu });
          console.log(`local model, ${build} build, ${n} worker(s): ${run.perSecond.toFixed(1)}/s = ${(run.perSecond / bare).toFixed(2)} of bare (bare ${bare.toFixed(1)}/s, load ${run.load}); CPU ms: workers ${run.cpuMs.workers}, Neo4j ${run.cpuMs.neo4j}, index job ${run.cpuMs.indexJob} vs bare model ${bareCpu}`);
        }
      }
      await model.close?.();
      out.localBare = Number(median(bares).toFixed(1));
      out.local = localRuns;
    }
  } finally {
    await h.dispose(repos);
  }
  out.loadAfter = load();
  const fakeRows = (out.fake as { workers: number; perSecond: number; speedup: number }[]).map((f) => [`fake ${latencyMs} ms, ${f.workers} worker(s)`, `${f.perSecond}/s`, `×${f.speedup}`]);
  printTable([['', 'embeddings/s', 'vs first'], ...fakeRows]);
  console.log(JSON.stringify(out));
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
