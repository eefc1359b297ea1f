import * as fs from 'node:fs';
import * as path from 'node:path';
import { ParsePool, TsChecker } from '@scopegraph/ingest';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { ROOT, runId } from '../support/processes';

// Files read and parsed on worker threads, and TS/JS references answered by TypeScript's checker on
// a thread of its own (the compiled thread entries: run `node scripts/build.mjs` first), give exactly
// the graph that in-process parsing and checking give, fresh and after an edit, and a re-index still
// parses only what changed.
const WORKER_SCRIPT = path.join(ROOT, 'dist/libs/ingest/src/parse/parse-worker.js');
const CHECKER_SCRIPT = path.join(ROOT, 'dist/libs/ingest/src/languages/typescript/precise/ts-checker-worker.js');

describe('parsing on worker threads (real Neo4j, Redis, tree-sitter)', () => {
  const h = new IngestHarness();
  const inProcessRepo = runId('thr-inproc');
  const threadedRepo = runId('thr-threads');
  let inProcess: ParsePool;
  let threaded: ParsePool;
  let inProcessChecker: TsChecker;
  let threadedChecker: TsChecker;
  let dirA: string;
  let dirB: string;

  beforeAll(async () => {
    await h.init();
    inProcess = new ParsePool(h.parser, 0);
    // Its threads end as soon as the last lease is released (no idle wait: the wait has a test of its own below).
    threaded = new ParsePool(h.parser, 2, WORKER_SCRIPT, (end) => {
      queueMicrotask(end);
      return () => undefined;
    });
    inProcessChecker = new TsChecker(h.config.ingest.tsPreciseMaxFiles, false);
    threadedChecker = new TsChecker(h.config.ingest.tsPreciseMaxFiles, true, CHECKER_SCRIPT);
    dirA = h.copyOf(FIXTURE);
    dirB = h.copyOf(FIXTURE);
  });

  afterAll(async () => {
    await inProcess.close();
    await threaded.close();
    await threadedChecker.close();
    await h.dispose([inProcessRepo, threadedRepo]);
  });

  const indexWith = async (pool: ParsePool, dir: string, name: string) => {
    await h.ingest.useParsePool(pool);
    await h.resolver.useChecker(pool === threaded ? threadedChecker : inProcessChecker);
    return h.ingest.index({ path: dir, name, embed: false });
  };

  it('builds the same graph as in-process parsing', async () => {
    expect(fs.existsSync(WORKER_SCRIPT)).toBe(true);
    expect(threaded.threaded).toBe(true);
    expect(threadedChecker.threaded).toBe(true);
    const a = await indexWith(inProcess, dirA, inProcessRepo);
    const b = await indexWith(threaded, dirB, threadedRepo);
    expect(b.resolver).toMatchObject({ ts: 'precise', precise: { files: a.resolver.precise!.files, rechecked: a.resolver.precise!.files, passes: 2 } });
    // Same file counts; the symbol index's write time is a timing, not part of the graph.
    const counts = (f: typeof a.files) => ({ ...f, symbolIndex: f.symbolIndex && { ...f.symbolIndex, ms: 0 } });
    expect(counts(b.files)).toEqual(counts(a.files));
    expect(b.files.symbolIndex?.written).toBeGreaterThan(0);
    expect(b.scopes.total).toBeGreaterThan(20);
    expect(b.scopes).toEqual(a.scopes);
    expect(b.edges).toEqual(a.edges);
    expect(await h.snapshot(threadedRepo)).toEqual(await h.snapshot(inProcessRepo));
    // The threads end with the parse (their isolates' memory is returned), not with the process.
    await threaded.idle();
    expect(threaded.running).toBe(0);
  });

  it('ends the threads when the last run using them has parsed: a lease held elsewhere keeps them', async () => {
    const held = threaded.lease();
    expect(threaded.running).toBe(2);
    await indexWith(threaded, dirB, threadedRepo);
    await threaded.idle();
    expect(threaded.running).toBe(2);
    held();
    held();
    await threaded.idle();
    expect(threaded.running).toBe(0);
  });

  it('keeps the threads for a run that leases them within the idle wait, and ends them once it has passed', async () => {
    // The test's clock: the wait passes when `pass()` is called.
    const waits: (() => void)[] = [];
    const pool = new ParsePool(h.parser, 1, WORKER_SCRIPT, (end) => {
      waits.push(end);
      return () => waits.splice(waits.indexOf(end), 1);
    });
    const pass = () => waits.splice(0).forEach((end) => end());
    try {
      pool.lease()();
      expect([pool.running, pool.started, waits.length]).toEqual([1, 1, 1]);
      // A run leasing during the wait cancels the end and reuses the thread.
      const next = pool.lease();
      expect([pool.running, pool.started, waits.length]).toEqual([1, 1, 0]);
      next();
      pass();
      await pool.idle();
      expect(pool.running).toBe(0);
      // The next run starts a thread again.
      pool.lease()();
      expect([pool.running, pool.started]).toEqual([1, 2]);
    } finally {
      await pool.close();
    }
  });

  it('after the same edit in both trees, re-parses only the edited file and still agrees', async () => {
    const rel = 'ts/src/models/base-entity.ts';
    for (const dir of [dirA, dirB]) {
      const file = path.join(dir, rel);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8') + '\nexport function addedByTheTest(): number {\n  return 1;\n}\n');
    }
    const a = await indexWith(inProcess, dirA, inProcessRepo);
    const b = await indexWith(threaded, dirB, threadedRepo);
    // Started again for this run (ended after the last one) and ended again after its parse.
    await threaded.idle();
    expect(threaded.running).toBe(0);
    expect(b.files).toMatchObject({ parsed: 1, reused: b.files.indexed - 1 });
    expect(b.resolver.precise).toEqual(a.resolver.precise);
    expect(b.scopes).toMatchObject({ added: 1, deleted: 0 });
    expect(b.scopes).toEqual(a.scopes);
    const snap = await h.snapshot(threadedRepo);
    expect(snap.nodes.some((n) => n.includes('addedByTheTest'))).toBe(true);
    expect(snap).toEqual(await h.snapshot(inProcessRepo));
  });
});
