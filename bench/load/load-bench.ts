/**
 * Load: C concurrent clients sending hybrid searches through GraphQL over HTTP for S seconds to one
 * API process, over an indexed repository (the polyglot fixture by default, `--repo rxjs` for
 * rxjs@7.8.2's sources). Every query text is distinct unless `--repeat`, so the query-vector cache
 * does not flatter the figure.
 *
 *   npm run build && npm run bench:load -- --clients 32 --seconds 60
 *
 * `--no-batching` turns off the batching of concurrent query embeddings (EMBEDDING_QUERY_BATCHING=false).
 *
 * Side by side in one sitting (the repository is indexed once; variants alternate A B, B A, ...):
 *   npm run bench:load -- --seconds 60 --runs 3 --variant default --variant unbatched:EMBEDDING_QUERY_BATCHING=false
 *   npm run bench:load -- --runs 3 --variant before@/path/to/other/dist/apps/api/src/main.js --variant after
 * A variant is `name[@api main.js][:KEY=VALUE,...]`. `--cpu-prof [DIR]` writes a V8 CPU profile of the
 * API per run (summarise it with dist/bench/support/cpu-profile-summary.js).
 *
 * Prints a table (p50/p95/p99, requests, errors, CPU ms per request of the API, Neo4j and the bench
 * itself, API RSS, load average, per-stage server timings) and one JSON line with every run and the
 * medians per variant.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { IngestHarness } from '../../test/support/ingest-harness';
import { API_READY, freePort, runId } from '../../test/support/processes';
import { arg, median, npmPackageSources, percentile, printTable, processCpuMs, startBuiltApp, stopApp } from '../support/bench-util';

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

/** The process's resident memory in MB; 0 once it has exited (its failure is reported by the run, and the repository still cleaned up). */
function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The Neo4j that scripts/services.sh started for this checkout, if any (its CPU is counted per request). */
function localNeo4jPid(): number | null {
  const file = path.join(projectRoot(), '.services/neo4j/home/run/neo4j.pid');
  if (process.env.NEO4J_URI || !fs.existsSync(file)) return null;
  const pid = Number(fs.readFileSync(file, 'utf8').trim());
  return processCpuMs(pid) === null ? null : pid;
}

/** One API build and setting under test: `name[@path/to/main.js][:KEY=VALUE,KEY=VALUE]`. */
interface Variant {
  name: string;
  main?: string;
  env: Record<string, string>;
}

export function parseVariant(spec: string): Variant {
  const m = /^([\w.-]+)(?:@([^:]+))?(?::(.*))?$/.exec(spec);
  if (!m) throw new Error(`--variant ${JSON.stringify(spec)}: expected name[@main.js][:KEY=VALUE,...]`);
  const env: Record<string, string> = {};
  for (const pair of (m[3] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`--variant ${JSON.stringify(spec)}: ${JSON.stringify(pair)} is not KEY=VALUE`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { name: m[1], main: m[2], env };
}

function allArgs(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => a === `--${name}` && process.argv[i + 1] && out.push(process.argv[i + 1]));
  return out;
}

type RunSummary = Record<string, unknown> & { variant: string; rps: number; p50Ms: number; p95Ms: number; p99Ms: number };

async function main(): Promise<void> {
  const clients = Number(arg('clients', '32'));
  const seconds = Number(arg('seconds', '20'));
  const runs = Number(arg('runs', '1'));
  const repoChoice = arg('repo', 'fixture');
  const repeat = process.argv.includes('--repeat');
  // Query batching is on by default; --no-batching runs without it.
  const noBatching = process.argv.includes('--no-batching');
  const profileArg = arg('cpu-prof', '');
  const cpuProfileDir = process.argv.includes('--cpu-prof')
    ? path.resolve(profileArg && !profileArg.startsWith('--') ? profileArg : path.join(projectRoot(), '.cache/bench/cpu-profiles'))
    : null;
  const variantSpecs = allArgs('variant');
  const variants: Variant[] =
    variantSpecs.length > 0 ? variantSpecs.map(parseVariant) : [{ name: noBatching ? 'no-batching' : 'default', env: noBatching ? { EMBEDDING_QUERY_BATCHING: 'false' } : {} }];
  const harness = new IngestHarness(runId('loadc'));
  const repoId = runId('load');
  const neo4jPid = localNeo4jPid();
  let api: ChildProcess | undefined;
  try {
    await harness.init();
    const source = repoChoice === 'rxjs' ? `${npmPackageSources('rxjs@7.8.2')}/src` : path.join(projectRoot(), 'test/fixtures/polyglot-repo');
    const indexed = await harness.ingest.index({ path: repoChoice === 'rxjs' ? harness.copyOf(source) : source, name: repoId });
    // The model stays loaded in this process only for indexing; free it before measuring.
    await harness.embedder.close?.();

    const runOnce = async (variant: Variant, round: number): Promise<RunSummary> => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/graphql`;
      api = await startBuiltApp(
        'api',
        {
          API_PORT: String(port),
          API_KEY: '',
          API_ADMIN_KEY: '',
          API_RATE_LIMIT_PER_MIN: '1000000',
          QUEUE_PREFIX: runId('loadq'),
          ...variant.env,
          ...(cpuProfileDir ? { SCOPEGRAPH_CPU_PROFILE_DIR: cpuProfileDir } : {}),
        },
        API_READY,
        { main: variant.main, nodeOptions: cpuProfileDir ? `--require ${path.join(projectRoot(), 'dist/bench/support/cpu-profile-preload.js')}` : undefined },
      );
      const pid = api.pid!;

      // Server-side milliseconds per search stage, to show where the time goes under load.
      const stages: Record<string, number[]> = {};
      // node:http with kept-alive connections rather than fetch: the clients share the 2 cores with
      // the API, and fetch cost them ~2x the CPU per request.
      const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
      const post = (payload: string) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          });
          req.on('error', reject);
          req.end(payload);
        });
      const search = async (text: string) => {
        const res = await post(JSON.stringify({ query: SEARCH, variables: { input: { text, repository: repoId, topK: 10 } } }));
        const body = JSON.parse(res.text) as { errors?: unknown[]; data?: { search?: { timings: Record<string, number> } } };
        const timings = body.data?.search?.timings;
        if (timings) for (const [stage, ms] of Object.entries(timings)) (stages[stage] ??= []).push(ms);
        return res.status === 200 && !body.errors;
      };
      // Warm-up: loads the model and the indexes' caches, and lets the JIT settle.
      for (const topic of TOPICS) await search(`${topic} warm-up`);
      for (const key of Object.keys(stages)) delete stages[key];
      if (cpuProfileDir) process.kill(pid, 'SIGWINCH'); // starts the profile (cpu-profile-preload)

      const latencies: number[] = [];
      let errors = 0;
      let counter = 0;
      let peakRss = rssMb(pid);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 500);
      const load1 = os.loadavg()[0];
      const cpu0 = { api: processCpuMs(pid)!, neo4j: neo4jPid === null ? null : processCpuMs(neo4jPid), bench: process.cpuUsage() };
      const started = performance.now();
      const end = Date.now() + seconds * 1000;
      const client = async () => {
        while (Date.now() < end) {
          counter += 1;
          const topic = TOPICS[counter % TOPICS.length];
          // The variant and round in the text keep queries distinct across runs too (the vector cache).
          const text = repeat ? topic : `${topic} ${counter} ${variant.name} ${round}`;
          const t0 = performance.now();
          const ok = await search(text).catch(() => false);
          latencies.push(performance.now() - t0);
          if (!ok) errors += 1;
        }
      };
      await Promise.all(Array.from({ length: clients }, client));
      const wallMs = performance.now() - started;
      clearInterval(sampler);
      const apiCpuMs = processCpuMs(pid)! - cpu0.api;
      const neo4jCpuMs = neo4jPid === null || cpu0.neo4j === null ? null : processCpuMs(neo4jPid)! - cpu0.neo4j;
      const benchCpu = process.cpuUsage(cpu0.bench);
      const loadAfter = os.loadavg()[0];
      if (cpuProfileDir) {
        fs.mkdirSync(cpuProfileDir, { recursive: true });
        const before = new Set(fs.readdirSync(cpuProfileDir));
        process.kill(pid, 'SIGWINCH');
        for (let i = 0; i < 200 && !fs.readdirSync(cpuProfileDir, { withFileTypes: true }).some((f) => !before.has(f.name) && f.name.endsWith('.cpuprofile')); i++) {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      agent.destroy();
      await stopApp(api);
      api = undefined;

      const requests = latencies.length;
      const perRequest = (ms: number | null) => (ms === null ? null : Math.round((ms / requests) * 100) / 100);
      return {
        variant: variant.name,
        apiMain: variant.main ?? 'dist/apps/api/src/main.js',
        env: variant.env,
        round,
        clients,
        seconds,
        repository: repoChoice,
        scopes: indexed.scopes?.total ?? null,
        distinctQueries: !repeat,
        requests,
        errors,
        rps: requests / (wallMs / 1000),
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
        p99Ms: percentile(latencies, 99),
        apiPeakRssMb: peakRss,
        // CPU per request is steadier than latency on a shared machine: others' load stretches waits, not work.
        cpuMsPerRequest: { api: perRequest(apiCpuMs), neo4j: perRequest(neo4jCpuMs), bench: perRequest((benchCpu.user + benchCpu.system) / 1000) },
        cpuUtilisation: { api: apiCpuMs / wallMs, neo4j: neo4jCpuMs === null ? null : neo4jCpuMs / wallMs },
        loadAverage1mBefore: load1,
        loadAverage1mAfter: loadAfter,
        cpus: os.cpus().length,
        serverStageP50Ms: Object.fromEntries(Object.entries(stages).map(([stage, ms]) => [stage, Math.round(percentile(ms, 50) * 10) / 10])),
      };
    };

    const results: RunSummary[] = [];
    for (let round = 1; round <= runs; round++) {
      // A B, then B A: a trend in the machine's load falls on every variant alike.
      const order = round % 2 === 1 ? variants : [...variants].reverse();
      for (const variant of order) {
        const r = await runOnce(variant, round);
        results.push(r);
        const cpu = r.cpuMsPerRequest as Record<string, number | null>;
        process.stderr.write(
          `[load] ${r.variant} round ${round}: ${r.rps.toFixed(1)} req/s, p50 ${r.p50Ms.toFixed(0)} / p95 ${r.p95Ms.toFixed(0)} / p99 ${r.p99Ms.toFixed(0)} ms, ` +
            `CPU ms/request api ${cpu.api} neo4j ${cpu.neo4j} bench ${cpu.bench}, load ${(r.loadAverage1mAfter as number).toFixed(1)}\n`,
        );
      }
    }

    const num = (v: unknown) => (typeof v === 'number' ? v : NaN);
    printTable([
      ['variant', 'round', 'requests', 'errors', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'API CPU ms/req', 'Neo4j CPU ms/req', 'bench CPU ms/req', 'API RSS MB', 'load 1m'],
      ...results.map((r) => {
        const cpu = r.cpuMsPerRequest as Record<string, number | null>;
        return [r.variant, r.round as number, num(r.requests), num(r.errors), r.rps, r.p50Ms, r.p95Ms, r.p99Ms, cpu.api ?? NaN, cpu.neo4j ?? NaN, cpu.bench ?? NaN, num(r.apiPeakRssMb), num(r.loadAverage1mAfter)];
      }),
    ]);
    const medians = variants.map((v) => {
      const mine = results.filter((r) => r.variant === v.name);
      const med = (f: (r: RunSummary) => number | null) => median(mine.map(f).filter((x): x is number => x !== null));
      const stageNames = Object.keys((mine[0]?.serverStageP50Ms as Record<string, number>) ?? {});
      return {
        variant: v.name,
        runs: mine.length,
        rps: med((r) => r.rps),
        p50Ms: med((r) => r.p50Ms),
        p95Ms: med((r) => r.p95Ms),
        p99Ms: med((r) => r.p99Ms),
        errors: mine.reduce((n, r) => n + num(r.errors), 0),
        cpuMsPerRequest: Object.fromEntries(['api', 'neo4j', 'bench'].map((k) => [k, med((r) => (r.cpuMsPerRequest as Record<string, number | null>)[k])])),
        serverStageP50Ms: Object.fromEntries(stageNames.map((s) => [s, med((r) => (r.serverStageP50Ms as Record<string, number>)[s] ?? null)])),
        loadAverage1m: med((r) => num(r.loadAverage1mAfter)),
      };
    });
    process.stdout.write('\n');
    printTable([
      ['variant (median)', 'runs', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'API CPU ms/req', 'Neo4j CPU ms/req', 'load 1m'],
      ...medians.map((m) => [m.variant, m.runs, m.rps, m.p50Ms, m.p95Ms, m.p99Ms, m.cpuMsPerRequest.api, m.cpuMsPerRequest.neo4j, m.loadAverage1m]),
    ]);
    for (const m of medians) printTable([[`stage p50 ms (${m.variant})`, ...Object.keys(m.serverStageP50Ms)], ['', ...Object.values(m.serverStageP50Ms)]]);
    const single = results.length === 1 ? results[0] : null;
    process.stdout.write(
      `${JSON.stringify({ bench: 'load', clients, seconds, repository: repoChoice, scopes: indexed.scopes?.total ?? null, distinctQueries: !repeat, cpus: os.cpus().length, ...(single ?? {}), medians, runs: results })}\n`,
    );
  } finally {
    await stopApp(api);
    await harness.dispose([repoId]);
  }
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
