/**
 * What the parse threads hold once a run's parse is done, and what ending them (ParsePool.lease)
 * returns: files of a folder parsed through a pool of parse threads (the compiled thread entry, as a
 * worker runs them), then the process's RSS after a full collection with the threads alive, and again
 * once they have exited. Nothing else runs (no Neo4j, no Redis): the difference is the threads' alone.
 *
 *   node --expose-gc dist/bench/ingest/thread-memory.js --path <folder> [--files 4000] [--threads 1] [--runs 3]
 *
 * Prints a table per run and one JSON line with the medians and the load average (`uptime`'s).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { ParsePool } from '../../libs/ingest/src/parse/parse-pool';
import { ParserService } from '../../libs/ingest/src/parse/parser.service';
import { arg, listFiles, median, printTable } from '../support/bench-util';

const gc = (globalThis as { gc?: () => void }).gc;
const mib = (b: number) => Math.round(b / 2 ** 20);
/** Time for the OS to take back the pages of threads that have just exited, before RSS is read. */
const SETTLE_MS = 1000;

async function rssAfterCollection(): Promise<number> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  gc!();
  return process.memoryUsage.rss();
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc');
  const root = path.resolve(arg('path', ''));
  const count = Number(arg('files', '4000'));
  const threads = Number(arg('threads', '1'));
  const runs = Number(arg('runs', '3'));
  const parser = new ParserService();
  await parser.init();
  const files = listFiles(root).filter((f) => parser.supports(f)).slice(0, count).map((f) => path.relative(root, f));
  const limits = { maxFileBytes: 1 << 20, maxFiles: 1_000_000 };
  const rows: { alive: number; ended: number; returned: number; parseMs: number; load: number }[] = [];
  for (let run = 0; run < runs; run++) {
    const pool = new ParsePool(parser, threads);
    if (!pool.threaded) throw new Error('no compiled parse thread entry: run node scripts/build.mjs and use dist/');
    const release = pool.lease();
    const before = await rssAfterCollection();
    const t = performance.now();
    // The same window of tasks in flight as a run keeps.
    let next = 0;
    const worker = async () => {
      while (next < files.length) await pool.run({ root, path: files[next++], limits, filters: {}, knownHash: null });
    };
    await Promise.all(Array.from({ length: pool.window }, worker));
    const parseMs = performance.now() - t;
    const alive = await rssAfterCollection();
    release();
    await pool.idle();
    const ended = await rssAfterCollection();
    const row = { alive: mib(alive), ended: mib(ended), returned: mib(alive - ended), parseMs: Math.round(parseMs), load: os.loadavg()[0] };
    rows.push(row);
    printTable([['run', 'RSS before parse', 'RSS threads alive', 'RSS threads ended', 'returned', 'parse ms', 'load'], [run + 1, mib(before), row.alive, row.ended, row.returned, row.parseMs, row.load.toFixed(1)]]);
  }
  const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
  console.log(JSON.stringify({ files: files.length, threads, runs, alive: m('alive'), ended: m('ended'), returned: m('returned'), parseMs: m('parseMs'), load: rows.map((r) => +r.load.toFixed(2)) }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
