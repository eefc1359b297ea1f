/**
 * Where an index run's memory goes, phase by phase: a graph-only index of a folder with the heap
 * measured after a full collection at every phase change (what the run still holds, not what V8 has
 * yet to collect), and the process's RSS; `peak*` are the highest heap (uncollected) and RSS sampled
 * every 100 ms during the phase that ends there.
 *
 *   node --expose-gc dist/bench/ingest/heap-probe.js --path <folder> --name <repo> [--snapshot-at resolving]
 *
 * `--live-every <ms>`: also a full collection every that many ms, and per phase the highest heap it
 * left (`liveMaxMiB`: the most the run held at once, garbage aside; what `peak*` cannot tell apart
 * from V8 postponing collection). Slows the run; off by default.
 *
 * `resolved`: a row when resolution returns its output (every parse, the symbol table and the output
 * are live at once: the highest live heap of a graph-only run).
 *
 * `threadsEnded`: a row once the parse threads have exited after the parse (ParsePool.lease), beside
 * the `resolving` row measured just before: what ending them returned. Its peaks cover only the start
 * of resolution (the next row's, the rest).
 *
 * `--snapshot-at <phase>` also writes a heap snapshot (.cache/bench/heap-<phase>.heapsnapshot) when
 * that phase starts. Run it against Neo4j and Redis of your own: it writes the whole repository.
 */
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { projectRoot } from '@scopegraph/config';
import { ResolveOutput } from '../../libs/ingest/src/resolve/resolver-context';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg } from '../support/bench-util';

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc');
  const folder = path.resolve(arg('path', ''));
  const name = arg('name', 'heap-probe');
  const snapshotAt = arg('snapshot-at', '');
  const liveEvery = Number(arg('live-every', '0'));
  const h = await new IngestHarness('heap-probe').init();
  await h.repo.deleteRepository(name);
  await h.deleteKeys('heap-probe:*');
  const mib = (b: number) => Math.round(b / 2 ** 20);
  const rows: Record<string, unknown>[] = [];
  let peak = { heap: 0, rss: 0 };
  let liveMax = 0;
  const collector = liveEvery > 0 ? setInterval(() => {
    gc();
    liveMax = Math.max(liveMax, v8.getHeapStatistics().used_heap_size);
  }, liveEvery) : undefined;
  const sampler = setInterval(() => {
    peak = { heap: Math.max(peak.heap, v8.getHeapStatistics().used_heap_size), rss: Math.max(peak.rss, process.memoryUsage.rss()) };
  }, 100);
  const measure = (phase: string) => {
    const during = peak;
    const liveDuring = liveMax;
    gc();
    liveMax = v8.getHeapStatistics().used_heap_size;
    const heap = v8.getHeapStatistics();
    peak = { heap: heap.used_heap_size, rss: process.memoryUsage.rss() };
    const row = {
      phase, heapUsedMiB: mib(heap.used_heap_size), heapTotalMiB: mib(heap.total_heap_size), rssMiB: mib(process.memoryUsage.rss()),
      peakHeapBeforeMiB: mib(during.heap), peakRssBeforeMiB: mib(during.rss), ...(collector ? { liveMaxBeforeMiB: mib(Math.max(liveDuring, liveMax)) } : {}), maxRssMiB: mib(process.resourceUsage().maxRSS * 1024),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
    if (phase === snapshotAt) console.log(`snapshot ${v8.writeHeapSnapshot(path.join(projectRoot(), '.cache', 'bench', `heap-${phase}.heapsnapshot`))}`);
  };
  measure('before');
  // `resolved`: when resolution hands its output over (the run's highest live heap: every parse, the
  // symbol table and the output at once), measured inside the run as it happens.
  const resultOf = ResolveOutput.prototype.result;
  ResolveOutput.prototype.result = function (this: ResolveOutput, ...args: Parameters<typeof resultOf>) {
    const out = resultOf.apply(this, args);
    measure('resolved');
    return out;
  };
  let phase = '';
  let threadsWatched = false;
  // The run releases the threads right after reporting `resolving` (a run of 100 ms polls is enough to see it).
  const threadsEnded = async () => {
    while (h.pool.running > 0) await new Promise((r) => setTimeout(r, 100));
    await h.pool.idle();
    measure('threadsEnded');
  };
  const started = performance.now();
  const result = await h.ingest.index({ path: folder, name, embed: false }, (p) => {
    if (p.phase !== phase) measure((phase = p.phase));
    if (p.phase === 'resolving' && !threadsWatched) {
      threadsWatched = true;
      void threadsEnded();
    }
  });
  measure('after');
  clearInterval(sampler);
  clearInterval(collector);
  console.log(JSON.stringify({ scopes: result.scopes.total, edges: result.edges.total, files: result.files.indexed, ms: Math.round(performance.now() - started), timingsMs: result.timingsMs }));
  await h.dispose([]);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
