/**
 * Load: C concurrent clients sending hybrid searches through GraphQL over HTTP for S seconds to one
 * API process, over an indexed repository (the polyglot fixture by default, `--repo rxjs` for
 * rxjs@7.8.2's sources). Every query text is distinct unless `--repeat`, so the query-vector cache
 * does not flatter the figure.
 *
 *   npm run build && npm run bench:load -- --clients 32 --seconds 60
 *
 * `--batching` turns on the batching of concurrent query embeddings (EMBEDDING_QUERY_BATCHING), for a
 * side-by-side run against the default.
 *
 * Prints a table (p50/p95/p99, requests, errors, API RSS, load average) and one JSON line.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { IngestHarness } from '../../test/support/ingest-harness';
import { API_READY, freePort, runId } from '../../test/support/processes';
import { arg, npmPackageSources, percentile, printTable, startBuiltApp, stopApp } from '../support/bench-util';

const SEARCH = 'query($input: SearchInput!) { search(input: $input) { results { scope { id name } score } timings { embed semantic bm25 fuse structural rescore fetch total } } }';
const TOPICS = [
  'create an invoice',
  'parse the configuration file',
  'retry with exponential backoff',
  'subscribe to an observable',
  'map values and filter them',
  'handle an error and recover',
  'merge several streams',
  'debounce user input',
  'read a file from disk',
  'connect to the database',
  'validate the request body',
  'schedule work on a timer',
];

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const clients = Number(arg('clients', '32'));
  const seconds = Number(arg('seconds', '20'));
  const repoChoice = arg('repo', 'fixture');
  const repeat = process.argv.includes('--repeat');
  const batching = process.argv.includes('--batching');
  const harness = new IngestHarness(runId('loadc'));
  const repoId = runId('load');
  let api: ChildProcess | undefined;
  try {
    await harness.init();
    const source = repoChoice === 'rxjs' ? `${npmPackageSources('rxjs@7.8.2')}/src` : path.join(projectRoot(), 'test/fixtures/polyglot-repo');
    const indexed = await harness.ingest.index({ path: repoChoice === 'rxjs' ? harness.copyOf(source) : source, name: repoId });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/graphql`;
    api = await startBuiltApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', API_RATE_LIMIT_PER_MIN: '1000000', QUEUE_PREFIX: runId('loadq'), EMBEDDING_QUERY_BATCHING: batching ? 'true' : 'false' }, API_READY);
    const pid = api.pid!;

    // Server-side milliseconds per search stage, to show where the time goes under load.
    const stages: Record<string, number[]> = {};
    const search = async (text: string) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: SEARCH, variables: { input: { text, repository: repoId, topK: 10 } } }) });
      const body = (await res.json()) as { errors?: unknown[]; data?: { search?: { timings: Record<string, number> } } };
      const timings = body.data?.search?.timings;
      if (timings) for (const [stage, ms] of Object.entries(timings)) (stages[stage] ??= []).push(ms);
      return res.status === 200 && !body.errors;
    };
    // Warm-up: loads the model and the indexes' caches.
    for (const topic of TOPICS.slice(0, 3)) await search(topic);

    const latencies: number[] = [];
    let errors = 0;
    let counter = 0;
    let peakRss = rssMb(pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 500);
    const load1 = os.loadavg()[0];
    const end = Date.now() + seconds * 1000;
    const client = async () => {
      while (Date.now() < end) {
        counter += 1;
        const topic = TOPICS[counter % TOPICS.length];
        const text = repeat ? topic : `${topic} ${counter}`;
        const started = performance.now();
        const ok = await search(text).catch(() => false);
        latencies.push(performance.now() - started);
        if (!ok) errors += 1;
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    clearInterval(sampler);
    const loadAfter = os.loadavg()[0];

    const summary = {
      clients,
      seconds,
      repository: repoChoice,
      scopes: indexed.scopes ?? null,
      distinctQueries: !repeat,
      queryBatching: batching,
      requests: latencies.length,
      errors,
      rps: latencies.length / seconds,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      p99Ms: percentile(latencies, 99),
      apiPeakRssMb: peakRss,
      loadAverage1mBefore: load1,
      loadAverage1mAfter: loadAfter,
      cpus: os.cpus().length,
      serverStageP50Ms: Object.fromEntries(Object.entries(stages).map(([stage, ms]) => [stage, Math.round(percentile(ms, 50) * 10) / 10])),
    };
    printTable([
      ['clients', 'seconds', 'requests', 'errors', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'API RSS MB', 'load 1m'],
      [clients, seconds, summary.requests, errors, summary.rps, summary.p50Ms, summary.p95Ms, summary.p99Ms, peakRss, loadAfter],
    ]);
    printTable([['stage (server, p50 ms)', ...Object.keys(summary.serverStageP50Ms)], ['', ...Object.values(summary.serverStageP50Ms)]]);
    process.stdout.write(`${JSON.stringify({ bench: 'load', ...summary })}\n`);
  } finally {
    await stopApp(api);
    await harness.dispose([repoId]);
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
