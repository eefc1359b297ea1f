import * as fs from 'node:fs';
import * as path from 'node:path';
import { ParsePool } from '@scopegraph/ingest';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { ROOT, runId } from '../support/processes';

// Files read and parsed on worker threads (the compiled thread entry: run `node scripts/build.mjs`
// first) give exactly the graph that in-process parsing gives, fresh and after an edit, and a
// re-index still parses only what changed.
const WORKER_SCRIPT = path.join(ROOT, 'dist/libs/ingest/src/parse/parse-worker.js');

describe('parsing on worker threads (real Neo4j, Redis, tree-sitter)', () => {
  const h = new IngestHarness();
  const inProcessRepo = runId('thr-inproc');
  const threadedRepo = runId('thr-threads');
  let inProcess: ParsePool;
  let threaded: ParsePool;
  let dirA: string;
  let dirB: string;

  beforeAll(async () => {
    await h.init();
    inProcess = new ParsePool(h.parser, 0);
    threaded = new ParsePool(h.parser, 2, WORKER_SCRIPT);
    dirA = h.copyOf(FIXTURE);
    dirB = h.copyOf(FIXTURE);
  });

  afterAll(async () => {
    await inProcess.close();
    await threaded.close();
    await h.dispose([inProcessRepo, threadedRepo]);
  });

  const indexWith = async (pool: ParsePool, dir: string, name: string) => {
    await h.ingest.useParsePool(pool);
    return h.ingest.index({ path: dir, name, embed: false });
  };

  it('builds the same graph as in-process parsing', async () => {
    expect(fs.existsSync(WORKER_SCRIPT)).toBe(true);
    expect(threaded.threaded).toBe(true);
    const a = await indexWith(inProcess, dirA, inProcessRepo);
    const b = await indexWith(threaded, dirB, threadedRepo);
    expect(b.files).toEqual(a.files);
    expect(b.scopes.total).toBeGreaterThan(20);
    expect(b.scopes).toEqual(a.scopes);
    expect(b.edges).toEqual(a.edges);
    expect(await h.snapshot(threadedRepo)).toEqual(await h.snapshot(inProcessRepo));
  });

  it('after the same edit in both trees, re-parses only the edited file and still agrees', async () => {
    const rel = 'ts/src/models/base-entity.ts';
    for (const dir of [dirA, dirB]) {
      const file = path.join(dir, rel);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8') + '\nexport function addedByTheTest(): number {\n  return 1;\n}\n');
    }
    const a = await indexWith(inProcess, dirA, inProcessRepo);
    const b = await indexWith(threaded, dirB, threadedRepo);
    expect(b.files).toMatchObject({ parsed: 1, reused: b.files.indexed - 1 });
    expect(b.scopes).toMatchObject({ added: 1, deleted: 0 });
    expect(b.scopes).toEqual(a.scopes);
    const snap = await h.snapshot(threadedRepo);
    expect(snap.nodes.some((n) => n.includes('addedByTheTest'))).toBe(true);
    expect(snap).toEqual(await h.snapshot(inProcessRepo));
  });
});
