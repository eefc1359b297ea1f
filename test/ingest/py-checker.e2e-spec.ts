import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IngestService, PyChecker } from '@scopegraph/ingest';
import { IngestHarness } from '../support/ingest-harness';
import { ROOT, runId } from '../support/processes';

const FIXTURE = path.join(ROOT, 'test/fixtures/py-checker');

// Calls only a type checker resolves: a method on a value returned by an unannotated function
// (`self.repo = open_repository()`), a method inherited from a base class in another module, a loop
// variable typed by `list[Item]`, a method behind a signature-keeping decorator on a value a
// function returns, and a function reached through a package's submodule attribute.
const CHECKER_ONLY = [
  'CartService.checkout -> CartRepository.latest',
  'CartService.checkout -> Repository.save',
  'CartService.checkout -> Cart.total',
  'Cart.total -> Item.discounted',
  'run -> CartService.checkout',
  'first_price -> new_cart',
  'first_price -> Item.discounted',
];

describe('Python through pyright (INGEST_PY_RESOLVER=precise; real Neo4j, Redis, tree-sitter, pyright)', () => {
  const h = new IngestHarness();
  const repos = { precise: runId('py-precise'), fast: runId('py-fast'), missing: runId('py-missing') };
  let dir: string;
  let precise: IngestService;

  const calls = async (repo: string) =>
    (await h.neo4j.runStatement<{ edge: string }>(
      `MATCH (a:Scope {repoId: $repo})-[r:CALLS]->(b:Scope {repoId: $repo})
       RETURN a.qualifiedName + ' -> ' + b.qualifiedName + ' ' + coalesce(r.resolver, '') +
              CASE WHEN r.resolver = 'precise' THEN '/' + coalesce(r.provenance, '') ELSE '' END AS edge ORDER BY edge`,
      { repo },
    )).map((r) => r.edge);

  beforeAll(async () => {
    await h.init();
    dir = h.copyOf(FIXTURE);
    ({ ingest: precise } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise' }));
  });

  afterAll(async () => {
    await precise.onModuleDestroy();
    await h.dispose(Object.values(repos));
  });

  it('pyright pins the calls the fast resolver cannot, each edge labelled precise; the fast resolver alone has none of them', async () => {
    const run = await precise.index({ path: dir, name: repos.precise, embed: false });
    expect(run.resolver).toMatchObject({ py: 'precise', pyPrecise: { files: 5, rechecked: 5 } });
    expect(run.resolver.pyPrecise!.answered).toBeGreaterThanOrEqual(CHECKER_ONLY.length);
    const edges = await calls(repos.precise);
    // Provenance: pyright's edges are a compiler's (confidence 1), as TypeScript's checker's are.
    for (const e of CHECKER_ONLY) expect(edges).toContain(`${e} precise/compiler`);

    const { ingest: fast } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'fast' });
    const fastRun = await fast.index({ path: dir, name: repos.fast, embed: false });
    expect(fastRun.resolver.py).toBe('fast');
    expect(fastRun.resolver.pyPrecise).toBeUndefined();
    const fastEdges = (await calls(repos.fast)).map((e) => e.replace(/ [\w/]*$/, ''));
    for (const e of CHECKER_ONLY) expect(fastEdges).not.toContain(e);
    // What the fast resolver pins, it pins alike under both settings.
    expect(edges.filter((e) => e.endsWith(' fast')).map((e) => e.replace(/ fast$/, ''))).toEqual(fastEdges);
  });

  it('a re-index tells pyright the one changed file: an unchanged importer\'s edge follows a changed return type', async () => {
    const file = path.join(dir, 'src/shop/services.py');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace('def checkout_service() -> CartService:\n    return CartService()', 'def checkout_service() -> "Express":\n    return Express()')
      + '\n\nclass Express:\n    def checkout(self) -> float:\n        return 0.0\n';
    expect(edited).not.toBe(text);
    fs.writeFileSync(file, edited);
    const again = await precise.index({ path: dir, name: repos.precise, embed: false });
    expect(again.files.parsed).toBe(1);
    expect(again.resolver).toMatchObject({ all: 'py-checker', py: 'precise', pyPrecise: { rechecked: 1 } });
    const edges = await calls(repos.precise);
    expect(edges).toContain('run -> Express.checkout precise/compiler');
    expect(edges).not.toContain('run -> CartService.checkout precise/compiler');
  });

  it('without pyright installed, precise falls back to the fast resolver and says why in the index result', async () => {
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise' });
    await resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, serverScript: path.join(dir, 'no-pyright-here.js') }));
    const run = await ingest.index({ path: FIXTURE, name: repos.missing, embed: false });
    expect(run.resolver.py).toBe('fast');
    expect(run.resolver.pyPrecise?.skipped).toMatch(/pyright is not installed/);
    expect((await calls(repos.missing)).map((e) => e.replace(/ [\w/]*$/, ''))).toEqual((await calls(repos.fast)).map((e) => e.replace(/ [\w/]*$/, '')));
  });
});

describe('a hung pyright cannot hang an index run (a fake language server that stops answering)', () => {
  const h = new IngestHarness();
  const repos = { fast: runId('py-hung-fast'), start: runId('py-hung-start'), mid: runId('py-hung-mid') };
  const FAKE = path.join(ROOT, 'test/ingest/py-checker-fake-server.js');
  let dir: string;

  const names = async (repo: string) =>
    (await h.neo4j.runStatement<{ edge: string }>(
      `MATCH (a:Scope {repoId: $repo})-[:CALLS]->(b:Scope {repoId: $repo}) RETURN a.qualifiedName + ' -> ' + b.qualifiedName AS edge ORDER BY edge`,
      { repo },
    )).map((r) => r.edge);

  /** An index run whose pyright is the fake under `as` (its behaviour), with short limits. */
  const indexWith = async (as: string, repo: string, startTimeoutMs: number) => {
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-fake-pyright-')), as);
    fs.writeFileSync(script, `require(${JSON.stringify(FAKE)});\n`);
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise' });
    await resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, serverScript: script, requestTimeoutMs: 400, startTimeoutMs }));
    const t = Date.now();
    const run = await ingest.index({ path: dir, name: repo, embed: false });
    const ms = Date.now() - t;
    await resolver.onModuleDestroy();
    return { run, ms, pid: Number(fs.readFileSync(`${script}.pid`, 'utf8')) };
  };

  /** Whether a process runs (a stopped child is reaped by Node shortly after it is killed). */
  const alive = async (pid: number) => {
    for (let i = 0; i < 50; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  };

  beforeAll(async () => {
    await h.init();
    dir = h.copyOf(FIXTURE);
    const { ingest } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'fast' });
    await ingest.index({ path: dir, name: repos.fast, embed: false });
  });

  afterAll(async () => {
    await h.dispose(Object.values(repos));
  });

  it('a server that never answers initialize: the run is resolved fast, says why, and the process is stopped', async () => {
    // Long enough for the fake's own start on a loaded machine (it writes its pid first).
    const { run, ms, pid } = await indexWith('hang-at-start.js', repos.start, 4000);
    expect(run.resolver.py).toBe('fast');
    expect(run.resolver.pyPrecise?.skipped).toMatch(/did not answer initialize within 4000 ms/);
    // Bounded by the start-up limit, not by the server: the whole run well under the test's timeout.
    expect(ms).toBeLessThan(20_000);
    expect(await names(repos.start)).toEqual(await names(repos.fast));
    expect(await alive(pid)).toBe(false);
  });

  it('a checker forgotten while it starts (a repository deleted mid-start): no unhandled rejection, open() says why', async () => {
    // vscode-jsonrpc rethrows a failed request write where nothing can catch it: `initialize` still
    // queued when the process is stopped ended the whole worker (found on liblz4, whose few Python
    // scripts started pyright, which was asked nothing and stopped at once).
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-fake-pyright-')), 'hang-after-0.js');
    fs.writeFileSync(script, `require(${JSON.stringify(FAKE)});\n`);
    const unhandled: unknown[] = [];
    const heard = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', heard);
    const checker = new PyChecker({ maxFiles: 100, maxHeapMb: 512, serverScript: script, requestTimeoutMs: 4000, startTimeoutMs: 10_000 });
    try {
      const file = { path: 'src/app.py', contentHash: 'x', scopes: [] } as unknown as Parameters<PyChecker['open']>[2][number];
      const opening = checker.open('forgotten', dir, [file]);
      checker.forget('forgotten');
      expect((await opening).skipped).toMatch(/pyright failed to start/);
      await new Promise((r) => setTimeout(r, 500));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', heard);
      await checker.close();
    }
  });

  it('a server that stops answering part-way: the fast resolver answers the rest, the summary says so', async () => {
    // Answers the warm-up question asked while files are parsed, then nothing.
    const { run, ms, pid } = await indexWith('hang-after-1.js', repos.mid, 30_000);
    expect(run.resolver.pyPrecise?.skipped).toBeUndefined();
    expect(run.resolver.pyPrecise?.failed).toMatch(/did not answer textDocument\/definition within 400 ms after 0 answers/);
    expect(run.resolver.pyPrecise?.asked).toBeGreaterThan(0);
    expect(ms).toBeLessThan(15_000);
    expect(await names(repos.mid)).toEqual(await names(repos.fast));
    expect(await alive(pid)).toBe(false);
  });
});
