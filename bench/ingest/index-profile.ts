/**
 * Where one index job's time goes: fresh indexes of rxjs@7.8.2's src/ (embeddings off), each with a
 * new IngestService (no compiler state for the repository) on shared parse and checker threads, fast
 * and precise resolver alternated; the first round warms up and is not counted.
 * Per run it records wall time per phase, every Neo4j query's wall time (by cypher file), CPU time
 * of this process (threads included) and of Neo4j, so the figures mean something on a loaded machine.
 *
 *   npm run build && node dist/bench/ingest/index-profile.js [--runs 3] [--repo DIR]
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/bench/ingest/index-profile.js --runs 1 [--mode fast|precise]
 *     (CPU profiles of every thread; each run's span on the profiles' clock is printed to stderr)
 *
 * Prints a table and one JSON line. Needs Neo4j and Redis up.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, median, neo4jCpuMs, npmPackageSources, ownCpuMs, printTable, settleNeo4j } from '../support/bench-util';

type Mode = 'fast' | 'precise';

async function main(): Promise<void> {
  const runs = Math.max(1, Number(arg('runs', '3')));
  const root = arg('repo', '') || path.join(npmPackageSources('rxjs@7.8.2'), 'src');
  const prefix = `bench-profile-${process.pid}`;
  const repo = 'bench-profile';
  const h = new IngestHarness(prefix);
  await h.init(createEmbeddingProvider({ provider: 'hash', dimensions: 384 }));

  // Every Neo4j query's wall time by cypher file, per run.
  let queries: Record<string, { n: number; ms: number; neo4jCpuMs: number }> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const cpu = neo4jCpuMs();
    try {
      return await work();
    } finally {
      // Queries of one job run one at a time, so Neo4j's CPU meanwhile is theirs (10 ms ticks).
      const q = (queries[name] ??= { n: 0, ms: 0, neo4jCpuMs: 0 });
      q.n++;
      q.ms += performance.now() - started;
      q.neo4jCpuMs += neo4jCpuMs() - cpu;
    }
  };
  const neo = h.neo4j as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const method of ['read', 'write'] as const) {
    const original = neo[method].bind(h.neo4j);
    neo[method] = (name, params) => timed(name as string, () => original(name, params));
  }
  // A transaction of several queries counts under the names of its queries, joined.
  const transaction = neo.writeTransaction.bind(h.neo4j);
  neo.writeTransaction = (work) => {
    const names: string[] = [];
    return timed('tx', () =>
      transaction((tx: { run: (n: string, p: unknown) => Promise<unknown> }) =>
        (work as (t: unknown) => Promise<unknown>)({ run: (n: string, p: unknown) => (names.push(n), tx.run(n, p)) }),
      ),
    ).finally(() => {
      const key = `tx[${names.map((n) => n.replace('ingest/', '')).join('+')}]`;
      const q = (queries[key] ??= { n: 0, ms: 0, neo4jCpuMs: 0 });
      Object.assign(q, { n: q.n + queries.tx.n, ms: q.ms + queries.tx.ms, neo4jCpuMs: q.neo4jCpuMs + queries.tx.neo4jCpuMs });
      delete queries.tx;
    });
  };

  type Sample = { mode: Mode; ms: number; cpuMs: number; neo4jCpuMs: number; scopes: number; phases: Record<string, number>; queries: typeof queries };
  const samples: Sample[] = [];
  try {
    // The first two runs (one per mode) warm up (threads, the compiler's lib files, query plans) and are not counted.
    for (let i = -2; i < runs * 2; i++) {
      const only = arg('mode', '');
      const mode: Mode = only === 'fast' || only === 'precise' ? only : (i % 2 === 0) === (Math.floor(i / 2) % 2 === 0) ? 'fast' : 'precise';
      // A fresh service and no compiler state for the repository, on the harness's threads.
      h.checker.forget(repo);
      const { ingest: service } = await h.serviceWith({ tsResolver: mode });
      await h.repo.deleteRepository(repo);
      await h.deleteKeys(`${prefix}:*`);
      // Let Neo4j finish what the deletion left it (index clean-up) before measuring its CPU.
      await settleNeo4j();
      queries = {};
      const cpu0 = ownCpuMs();
      const neo0 = neo4jCpuMs();
      const started = performance.now();
      const clock0 = process.hrtime.bigint() / 1000n;
      const r = await service.index({ path: root, name: repo, embed: false });
      const ms = performance.now() - started;
      // The run's span on the clock CPU profiles (--cpu-prof) use, to cut one run out of a profile.
      process.stderr.write(`profile window us ${clock0} ${process.hrtime.bigint() / 1000n}\n`);
      if (i >= 0) samples.push({ mode, ms, cpuMs: ownCpuMs() - cpu0, neo4jCpuMs: neo4jCpuMs() - neo0, scopes: r.scopes.total, phases: r.timingsMs, queries });
      process.stderr.write(`${i < 0 ? 'warm-up' : `run ${i + 1}/${runs * 2}`} (${mode}): ${r.scopes.total} scopes in ${ms.toFixed(0)} ms, cpu ${(ownCpuMs() - cpu0).toFixed(0)} ms ${JSON.stringify(r.timingsMs)}\n`);
    }
  } finally {
    await h.dispose([repo]);
  }

  const by = (mode: Mode) => samples.filter((s) => s.mode === mode);
  const summary = (mode: Mode) => {
    const xs = by(mode);
    const phases = [...new Set(xs.flatMap((s) => Object.keys(s.phases)))];
    const names = [...new Set(xs.flatMap((s) => Object.keys(s.queries)))];
    return {
      wallMs: Math.round(median(xs.map((s) => s.ms))),
      scopesPerSec: Math.round(median(xs.map((s) => (s.scopes / s.ms) * 1000))),
      cpuMs: Math.round(median(xs.map((s) => s.cpuMs))),
      neo4jCpuMs: Math.round(median(xs.map((s) => s.neo4jCpuMs))),
      phasesMs: Object.fromEntries(phases.map((p) => [p, Math.round(median(xs.map((s) => s.phases[p] ?? 0)))])),
      queries: Object.fromEntries(
        names.map((n) => [n, {
          n: median(xs.map((s) => s.queries[n]?.n ?? 0)),
          ms: Math.round(median(xs.map((s) => s.queries[n]?.ms ?? 0))),
          neo4jCpuMs: Math.round(median(xs.map((s) => s.queries[n]?.neo4jCpuMs ?? 0))),
        }]),
      ),
    };
  };
  const result = { corpus: root, scopes: samples[0].scopes, runs, loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))), fast: summary('fast'), precise: summary('precise') };
  const rows: (string | number)[][] = [['median of runs', 'fast', 'precise']];
  rows.push(['wall ms', result.fast.wallMs, result.precise.wallMs], ['scopes/s', result.fast.scopesPerSec, result.precise.scopesPerSec]);
  rows.push(['CPU ms, this process', result.fast.cpuMs, result.precise.cpuMs], ['CPU ms, Neo4j', result.fast.neo4jCpuMs, result.precise.neo4jCpuMs]);
  for (const p of Object.keys(result.precise.phasesMs)) rows.push([`phase ${p} ms`, result.fast.phasesMs[p] ?? 0, result.precise.phasesMs[p]]);
  for (const q of Object.keys(result.precise.queries)) {
    const f = result.fast.queries[q];
    const p = result.precise.queries[q];
    const cell = (x?: { n: number; ms: number; neo4jCpuMs: number }) => (x ? `${x.n}: ${x.ms} ms, cpu ${x.neo4jCpuMs}` : '-');
    rows.push([`query ${q} (n: wall, Neo4j CPU)`, cell(f), cell(p)]);
  }
  printTable(rows);
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
