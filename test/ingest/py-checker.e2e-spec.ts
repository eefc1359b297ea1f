import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IngestProgress, IngestService, PyChecker } from '@scopegraph/ingest';
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

/**
 * The fixture's `checkout_service()` made to return another class, `Express` (in services.py), in a
 * copy: an edit whose effect on app.py's call only a checker sees. False when the text was not found.
 */
function returnExpress(dir: string): boolean {
  const file = path.join(dir, 'src/shop/services.py');
  const text = fs.readFileSync(file, 'utf8');
  const edited = text.replace('def checkout_service() -> CartService:\n    return CartService()', 'def checkout_service() -> "Express":\n    return Express()')
    + '\n\nclass Express:\n    def checkout(self) -> float:\n        return 0.0\n';
  if (edited === text) return false;
  fs.writeFileSync(file, edited);
  return true;
}

/** Starts the harness and indexes a copy of the fixture with the fast resolver as `repo` (the baseline); the copy's path. */
async function fastBaseline(h: IngestHarness, repo: string): Promise<string> {
  await h.init();
  const dir = h.copyOf(FIXTURE);
  const { ingest } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'fast' });
  await ingest.index({ path: dir, name: repo, embed: false });
  return dir;
}

/** A repository's in-repo CALLS edges as `caller -> callee resolver/provenance`, sorted. */
async function callEdges(h: IngestHarness, repo: string): Promise<string[]> {
  return (await h.neo4j.runStatement<{ edge: string }>(
    `MATCH (a:Scope {repoId: $repo})-[r:CALLS]->(b:Scope {repoId: $repo})
     RETURN a.qualifiedName + ' -> ' + b.qualifiedName + ' ' + coalesce(r.resolver, '') + '/' + coalesce(r.provenance, '') AS edge ORDER BY edge`,
    { repo },
  )).map((r) => r.edge);
}

/** Whether a process runs, waiting up to 5 s for a stopped one (a killed child is reaped by Node shortly after). */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

describe('Python through pyright (INGEST_PY_RESOLVER=precise; real Neo4j, Redis, tree-sitter, pyright)', () => {
  const h = new IngestHarness();
  const repos = { precise: runId('py-precise'), fast: runId('py-fast'), missing: runId('py-missing'), over: runId('py-over') };
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
    // pyright by name, whatever INGEST_PY_CHECKER says: these edges need its inference of unannotated returns.
    ({ ingest: precise } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyChecker: 'pyright' }));
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
    expect(returnExpress(dir)).toBe(true);
    const again = await precise.index({ path: dir, name: repos.precise, embed: false });
    expect(again.files.parsed).toBe(1);
    expect(again.resolver).toMatchObject({ all: 'py-checker', py: 'precise', pyPrecise: { rechecked: 1 } });
    const edges = await calls(repos.precise);
    expect(edges).toContain('run -> Express.checkout precise/compiler');
    expect(edges).not.toContain('run -> CartService.checkout precise/compiler');
  });

  it('over INGEST_PY_PRECISE_MAX_FILES the fast edges stand, so a Python edit re-resolves only what changed', async () => {
    // At a million scopes a 1 % edit re-resolved every file (its references read back from the parse
    // cache: 7 of the run's 12 minutes) as if pyright answered, though the repository was over the limit.
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise' });
    await resolver.usePyChecker(new PyChecker({ maxFiles: 2, maxHeapMb: 512 }));
    try {
      const over = h.copyOf(FIXTURE);
      const first = await ingest.index({ path: over, name: repos.over, embed: false });
      expect(first.resolver.pyPrecise?.skipped).toMatch(/INGEST_PY_PRECISE_MAX_FILES \(2\)/);
      expect(first.resolver.py).toBe('fast');
      expect(first.resolver.pyPrecise).toMatchObject({ asked: 0, answered: 0 });
      const file = path.join(over, 'src/shop/services.py');
      const text = fs.readFileSync(file, 'utf8');
      // A body edit that leaves every name, signature and return type as it was.
      const edited = text.replace('    def latest(self) -> models.Cart:\n        return models.Cart()', '    def latest(self) -> models.Cart:\n        assert self is not None\n        return models.Cart()');
      expect(edited).not.toBe(text);
      fs.writeFileSync(file, edited);
      const again = await ingest.index({ path: over, name: repos.over, embed: false });
      expect(again.files.parsed).toBe(1);
      expect(again.resolver.all).toBeUndefined();
    } finally {
      await ingest.onModuleDestroy();
    }
  });

  it('without pyright installed, precise falls back to the fast resolver and says why in the index result', async () => {
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise' });
    await resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'pyright', serverScript: path.join(dir, 'no-pyright-here.js') }));
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
    await resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'pyright', serverScript: script, requestTimeoutMs: 400, startTimeoutMs }));
    const t = Date.now();
    const run = await ingest.index({ path: dir, name: repo, embed: false });
    const ms = Date.now() - t;
    await resolver.onModuleDestroy();
    return { run, ms, pid: Number(fs.readFileSync(`${script}.pid`, 'utf8')) };
  };

  beforeAll(async () => {
    dir = await fastBaseline(h, repos.fast);
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
    const checker = new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'pyright', serverScript: script, requestTimeoutMs: 4000, startTimeoutMs: 10_000 });
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

describe('pyright after the graph write (INGEST_PY_PRECISE_PHASE=deferred; fake language servers the test holds back, and the real pyright)', () => {
  const h = new IngestHarness();
  const repos = { fast: runId('py-two-fast'), two: runId('py-two'), mid: runId('py-two-mid'), inline: runId('py-two-inline'), deferred: runId('py-two-deferred') };
  const FAKE = path.join(ROOT, 'test/ingest/py-checker-fake-server.js');
  let dir: string;

  const calls = (repo: string) => callEdges(h, repo);

  /** A fake pyright whose behaviour is the script's name (py-checker-fake-server.js); `<script>.go` opens its gate. */
  const fake = (as: string) => {
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-fake-pyright-')), as);
    fs.writeFileSync(script, `require(${JSON.stringify(FAKE)});\n`);
    return script;
  };

  const deferredService = async (script: string, requestTimeoutMs = 60_000) => {
    const made = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'deferred' });
    await made.resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'pyright', serverScript: script, requestTimeoutMs, startTimeoutMs: 30_000 }));
    return made;
  };

  /** Waits for a condition the run reports (bounded: the test fails rather than hangs). */
  const until = async (what: string, ok: () => boolean, ms = 120_000) => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** Distinct successive values. */
  const steps = (values: (string | undefined)[]) => values.filter((v, i) => v !== undefined && v !== values[i - 1]);

  beforeAll(async () => {
    dir = await fastBaseline(h, repos.fast);
  });

  afterAll(async () => {
    await h.dispose(Object.values(repos));
  });

  it('the graph is written and searchable with the fast edges while pyright works; its edges replace them after, and the run ends only then', async () => {
    const script = fake('by-name-gated.js');
    const { ingest, resolver } = await deferredService(script);
    const events: IngestProgress[] = [];
    let finished = false;
    const running = ingest.index({ path: dir, name: repos.two, embed: true }, (p) => void events.push(p)).finally(() => (finished = true));
    // The embedding is done and only pyright's phase is left: its answers are held back.
    await until('the checking phase', () => events.some((p) => p.phase === 'checking'));
    expect(finished).toBe(false);
    const hits = await h.neo4j.runStatement<{ name: string; embedded: boolean }>(
      `CALL db.index.fulltext.queryNodes('scope_fulltext', 'checkout') YIELD node AS s WHERE s.repoId = $repo
       RETURN s.qualifiedName AS name, s.embedding IS NOT NULL AS embedded`,
      { repo: repos.two },
    );
    expect(hits).toContainEqual({ name: 'CartService.checkout', embedded: true });
    expect(await calls(repos.two)).toEqual(await calls(repos.fast));

    fs.writeFileSync(`${script}.go`, '');
    const run = await running;
    expect(run.resolver).toMatchObject({ py: 'precise', pyPrecise: { phase: 'deferred', files: 5 } });
    expect(run.resolver.pyPrecise!.edges!.files).toBeGreaterThan(0);
    expect(run.resolver.pyPrecise!.edges!.added).toBeGreaterThan(0);
    const after = await calls(repos.two);
    expect(after).toContain('CartService.checkout -> CartRepository.latest precise/compiler');
    expect(after).toContain('Cart.total -> Item.discounted precise/compiler');
    // Where the checker answered, its edge replaced the miss; the fast resolver's pinned edges stand.
    for (const e of await calls(repos.fast)) if (e.includes(' -> ')) expect(after).toContain(e);
    expect(steps(events.map((p) => p.checker))).toEqual(['answering', 'writing', 'done']);
    expect(events.filter((p) => p.checker === 'answering').map((p) => p.phase)).toContain('embedding');
    expect(events.at(-1)).toMatchObject({ phase: 'done', checker: 'done', edges: run.edges.total });

    // A re-index with nothing changed writes nothing; a changed file brings pyright's edges back the same.
    const before = await h.snapshot(repos.two);
    const again = await ingest.index({ path: dir, name: repos.two, embed: false });
    expect(again.edges).toMatchObject({ added: 0, updated: 0, removed: 0 });
    expect((await h.snapshot(repos.two)).edges).toEqual(before.edges);
    fs.appendFileSync(path.join(dir, 'src/app.py'), '\n# touched\n');
    const touched = await ingest.index({ path: dir, name: repos.two, embed: false });
    expect(touched.resolver).toMatchObject({ all: 'py-checker', pyPrecise: { phase: 'deferred' } });
    expect((await h.snapshot(repos.two)).edges).toEqual(before.edges);
    await resolver.onModuleDestroy();
  });

  it('pyright failing part-way: the fast edges stand, the progress and the result say why', async () => {
    const script = fake('by-name-hang-after-1.js');
    fs.writeFileSync(`${script}.go`, '');
    const { ingest, resolver } = await deferredService(script, 400);
    const events: IngestProgress[] = [];
    const run = await ingest.index({ path: dir, name: repos.mid, embed: false }, (p) => void events.push(p));
    expect(run.resolver.pyPrecise).toMatchObject({ phase: 'deferred', failed: expect.stringMatching(/did not answer textDocument\/definition within 400 ms after \d answers/) });
    expect(steps(events.map((p) => p.checker)).at(-1)).toBe('failed');
    expect(events.at(-1)).toMatchObject({ phase: 'done', checker: 'failed' });
    const edges = await calls(repos.mid);
    for (const e of await calls(repos.fast)) expect(edges).toContain(e);
    await resolver.onModuleDestroy();
  });

  it('with the real pyright, deferred and inline write the same graph', async () => {
    const { ingest: deferred, resolver: r1 } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'deferred', pyChecker: 'pyright' });
    const { ingest: inline, resolver: r2 } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'pyright' });
    const a = await deferred.index({ path: FIXTURE, name: repos.deferred, embed: false });
    const b = await inline.index({ path: FIXTURE, name: repos.inline, embed: false });
    expect(a.resolver.pyPrecise).toMatchObject({ phase: 'deferred' });
    expect(b.resolver.pyPrecise?.phase).toBeUndefined();
    expect(a.resolver.pyPrecise!.answered).toBe(b.resolver.pyPrecise!.answered);
    expect(a.edges).toMatchObject({ total: b.edges.total, unresolved: b.edges.unresolved, builtinSkipped: b.edges.builtinSkipped });
    const [sa, sb] = [await h.snapshot(repos.deferred), await h.snapshot(repos.inline)];
    expect(sa.edges).toEqual(sb.edges);
    expect(sa.nodes).toEqual(sb.nodes);
    await r1.onModuleDestroy();
    await r2.onModuleDestroy();
  });
});

describe('pyright processes are bounded (INGEST_PY_PRECISE_MAX_PROCESSES, INGEST_PY_PRECISE_IDLE_MS; a fake language server)', () => {
  const FAKE = path.join(ROOT, 'test/ingest/py-checker-fake-server.js');
  const file = { path: 'src/app.py', contentHash: 'x', scopes: [] } as unknown as Parameters<PyChecker['open']>[2][number];
  let root: string;
  let script: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-py-cap-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/app.py'), 'def main():\n    pass\n');
    // Starts and lists the workspace's files as pyright does (answers no question: none is asked).
    script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-fake-pyright-')), 'hang-after-0.js');
    fs.writeFileSync(script, `require(${JSON.stringify(FAKE)});\n`);
  });

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a server with more Python repositories than the cap keeps at most that many processes, stopping the least recently used', async () => {
    const checker = new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'pyright', serverScript: script, maxProcesses: 2, startTimeoutMs: 20_000 });
    try {
      const pidOf: Record<string, number> = {};
      for (const key of ['a', 'b', 'c']) {
        const before = new Set(checker.pids);
        expect((await checker.open(key, root, [file])).skipped).toBeUndefined();
        pidOf[key] = checker.pids.find((p) => !before.has(p))!;
        expect(checker.pids.length).toBeLessThanOrEqual(2);
      }
      expect(new Set(checker.pids)).toEqual(new Set([pidOf.b, pidOf.c]));
      expect(await alive(pidOf.a)).toBe(false);
      // Using b again makes c the least recently used: a's next run stops c's process, not b's.
      await checker.open('b', root, [file]);
      await checker.open('a', root, [file]);
      expect(checker.pids).toHaveLength(2);
      expect(checker.pids).toContain(pidOf.b);
      expect(await alive(pidOf.c)).toBe(false);
    } finally {
      await checker.close();
    }
  });

  it('an idle repository\'s process is stopped after the idle limit, and its next run starts one again', async () => {
    const checker = new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'pyright', serverScript: script, idleMs: 300, startTimeoutMs: 20_000 });
    try {
      await checker.open('idle', root, [file]);
      const [pid] = checker.pids;
      expect(pid).toBeDefined();
      expect(await alive(pid)).toBe(false);
      expect(checker.pids).toEqual([]);
      expect((await checker.open('idle', root, [file])).skipped).toBeUndefined();
      expect(checker.pids).toHaveLength(1);
      expect(checker.pids[0]).not.toBe(pid);
    } finally {
      await checker.close();
    }
  });
});

describe('ty behind the same LSP client (INGEST_PY_CHECKER=ty; the real ty that set-up installs, and fake servers)', () => {
  const h = new IngestHarness();
  const repos = { ty: runId('py-ty'), tyDeferred: runId('py-ty-deferred'), fallback: runId('py-ty-fallback'), mid: runId('py-ty-mid'), fast: runId('py-ty-fast'), capped: runId('py-ty-capped') };
  const FAKE = path.join(ROOT, 'test/ingest/py-checker-fake-server.js');
  // Where scripts/pycheckers.sh (run by npm start / npm test) puts it.
  const TY = path.join(ROOT, '.cache/pycheckers/ty/ty');
  const tyInstalled = (() => {
    try {
      fs.accessSync(TY, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  })();
  // Skipped only when set-up could not install it (no python3 with pip): said in the test output.
  const withTy = tyInstalled ? it : it.skip;
  if (!tyInstalled) console.warn(`ty tests skipped: ${TY} is not installed (scripts/pycheckers.sh could not install it)`);
  let dir: string;
  /** The first test's copy, edited: the deferred run indexes it too. */
  let tyDir: string;

  const calls = (repo: string) => callEdges(h, repo);

  /** A fake `ty` executable whose behaviour is its name (py-checker-fake-server.js), run as `<it> server`. */
  const fakeTy = (as: string) => {
    const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-fake-ty-')), as);
    fs.writeFileSync(bin, `#!${process.execPath}\nrequire(${JSON.stringify(FAKE)});\n`);
    fs.chmodSync(bin, 0o755);
    return bin;
  };

  beforeAll(async () => {
    dir = await fastBaseline(h, repos.fast);
  });

  afterAll(async () => {
    await h.dispose(Object.values(repos));
  });

  // ty 0.0.108 does not infer an unannotated function's return type (`open_repository()` is Unknown
  // to it): the calls through `self.repo` stay the fast resolver's. The rest of CHECKER_ONLY it pins.
  const TY_PINS = CHECKER_ONLY.filter((e) => !e.startsWith('CartService.checkout -> '));

  withTy('ty pins the calls a checker resolves through annotations, as pyright does; a re-index follows a changed return type', async () => {
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'ty', pyTyPath: TY });
    try {
      const own = (tyDir = h.copyOf(FIXTURE));
      const run = await ingest.index({ path: own, name: repos.ty, embed: false });
      expect(run.resolver).toMatchObject({ py: 'precise', pyPrecise: { checker: 'ty', files: 5, rechecked: 5 } });
      expect(run.resolver.pyPrecise?.fallback).toBeUndefined();
      expect(run.resolver.pyPrecise!.answered).toBeGreaterThanOrEqual(TY_PINS.length);
      expect(run.resolver.pyPrecise!.peakMb).toBeGreaterThan(0);
      const edges = await calls(repos.ty);
      for (const e of TY_PINS) expect(edges).toContain(`${e} precise/compiler`);
      expect(edges).not.toContain('CartService.checkout -> CartRepository.latest precise/compiler');
      // What the fast resolver pins stands.
      for (const e of await calls(repos.fast)) expect(edges).toContain(e);

      expect(returnExpress(own)).toBe(true);
      const again = await ingest.index({ path: own, name: repos.ty, embed: false });
      expect(again.resolver).toMatchObject({ all: 'py-checker', py: 'precise', pyPrecise: { checker: 'ty', rechecked: 1 } });
      const after = await calls(repos.ty);
      expect(after).toContain('run -> Express.checkout precise/compiler');
      expect(after).not.toContain('run -> CartService.checkout precise/compiler');
    } finally {
      await resolver.onModuleDestroy();
    }
  });

  withTy('deferred (the default phase) with ty writes what inline writes (after the edit above)', async () => {
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'deferred', pyChecker: 'ty', pyTyPath: TY });
    try {
      const run = await ingest.index({ path: tyDir, name: repos.tyDeferred, embed: false });
      expect(run.resolver.pyPrecise).toMatchObject({ phase: 'deferred', checker: 'ty' });
      const edges = await calls(repos.tyDeferred);
      expect(edges).toContain('run -> Express.checkout precise/compiler');
      expect(edges).toContain('first_price -> Item.discounted precise/compiler');
      expect(edges).toEqual(await calls(repos.ty));
    } finally {
      await resolver.onModuleDestroy();
    }
  });

  it('INGEST_PY_CHECKER=ty without ty installed: pyright answers, and the result says why', async () => {
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline' });
    await resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'ty', tyBinary: path.join(dir, 'no-ty-here') }));
    try {
      const run = await ingest.index({ path: FIXTURE, name: repos.fallback, embed: false });
      expect(run.resolver.py).toBe('precise');
      expect(run.resolver.pyPrecise).toMatchObject({ checker: 'pyright', fallback: expect.stringMatching(/ty is not installed .*no-ty-here.*pyright answers/) });
      const edges = await calls(repos.fallback);
      for (const e of CHECKER_ONLY) expect(edges).toContain(`${e} precise/compiler`);
    } finally {
      await resolver.onModuleDestroy();
    }
  });

  it('a ty that stops answering part-way is stopped: the fast edges stand and the result names ty', async () => {
    const bin = fakeTy('by-name-hang-after-1');
    fs.writeFileSync(`${bin}.go`, '');
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline' });
    await resolver.usePyChecker(new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'ty', tyBinary: bin, requestTimeoutMs: 400, startTimeoutMs: 20_000 }));
    try {
      const run = await ingest.index({ path: dir, name: repos.mid, embed: false });
      expect(run.resolver.pyPrecise).toMatchObject({ checker: 'ty', failed: expect.stringMatching(/^ty did not answer textDocument\/definition within 400 ms after \d answers/) });
      // Spawned as `ty server`, ty's command line.
      const pid = Number(fs.readFileSync(`${bin}.pid`, 'utf8'));
      expect(await alive(pid)).toBe(false);
      const edges = await calls(repos.mid);
      for (const e of await calls(repos.fast)) expect(edges).toContain(e);
    } finally {
      await resolver.onModuleDestroy();
    }
  });

  withTy('ty over its memory cap (INGEST_PY_TY_MAX_RSS_MB) is stopped: the result says why, the graph keeps the fast edges, a run as large does not start it again', async () => {
    // 8 MB: below what ty holds once it has answered `initialize` (~10 MB), so the cap is passed before any question.
    const { ingest, resolver } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'ty', pyTyPath: TY, pyTyMaxRssMb: 8 });
    try {
      const own = h.copyOf(FIXTURE);
      const run = await ingest.index({ path: own, name: repos.capped, embed: false });
      expect(run.resolver.pyPrecise).toMatchObject({ checker: 'ty', fallback: expect.stringMatching(/^ty reached its memory cap \(\d+ MB > INGEST_PY_TY_MAX_RSS_MB 8\)/) });
      expect(run.resolver.pyPrecise?.answered ?? 0).toBe(0);
      expect(await calls(repos.capped)).toEqual(await calls(repos.fast));

      // An edit makes the next run resolve again: ty is not started for as many files.
      expect(returnExpress(own)).toBe(true);
      const again = await ingest.index({ path: own, name: repos.capped, embed: false });
      expect(again.resolver.py).toBe('fast');
      expect(again.resolver.pyPrecise).toMatchObject({ fallback: expect.stringMatching(/memory cap .* on a run of 5 files: not started again for 5/), skipped: expect.stringMatching(/not started again/) });
      expect(await calls(repos.capped)).not.toContain('run -> Express.checkout precise/compiler');
    } finally {
      await resolver.onModuleDestroy();
    }
  });

  it('ty processes are capped and stopped when idle, as pyright\'s are', async () => {
    const bin = fakeTy('hang-after-0');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-py-ty-cap-'));
    fs.writeFileSync(path.join(root, 'app.py'), 'def main():\n    pass\n');
    const file = { path: 'app.py', contentHash: 'x', scopes: [] } as unknown as Parameters<PyChecker['open']>[2][number];
    const checker = new PyChecker({ maxFiles: 100, maxHeapMb: 512, checker: 'ty', tyBinary: bin, maxProcesses: 1, idleMs: 1500, startTimeoutMs: 20_000 });
    try {
      expect(await checker.open('a', root, [file])).toMatchObject({ checker: 'ty' });
      const [a] = checker.pids;
      await checker.open('b', root, [file]);
      expect(checker.pids).toHaveLength(1);
      expect(await alive(a)).toBe(false);
      const [b] = checker.pids;
      expect(await alive(b)).toBe(false);
      expect(checker.pids).toEqual([]);
    } finally {
      await checker.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the repository's dependencies given to the checker (its .venv, INGEST_PY_ENV; read as files, never run)", () => {
  const h = new IngestHarness();
  const repos = { bare: runId('py-env-bare'), venv: runId('py-env-venv'), configured: runId('py-env-conf'), tyBare: runId('py-env-tybare'), tyVenv: runId('py-env-tyvenv') };
  const TY = path.join(ROOT, '.cache/pycheckers/ty/ty');
  const withTy = fs.existsSync(TY) ? it : it.skip;
  /** Made by the repository's own .venv/bin/python if anything ran it. */
  let marker: string;
  let outside: string;

  // `made.hook()` is pinned only by knowing what the dependency's `Plugin.create` returns (Self): the
  // fast resolver has two `hook`s to choose from, and a checker without the dependency has no type.
  const APP = [
    'from depkit import Plugin',
    '',
    '',
    'class Mine(Plugin):',
    '    def hook(self) -> int:',
    '        return 1',
    '',
    '',
    'class Other:',
    '    def hook(self) -> int:',
    '        return 2',
    '',
    '',
    'def run() -> None:',
    '    made = Mine.create()',
    '    made.hook()',
    '',
  ].join('\n');
  const DEPKIT = ['from typing import Self', '', '', 'class Plugin:', '    @classmethod', '    def create(cls) -> Self:', '        return cls()', ''].join('\n');
  const PINNED = 'run -> Mine.hook precise/compiler';

  /** A site-packages folder holding depkit, under `dir`. */
  const sitePackages = (dir: string) => {
    const sp = path.join(dir, 'lib', 'python3.11', 'site-packages');
    fs.mkdirSync(path.join(sp, 'depkit'), { recursive: true });
    fs.writeFileSync(path.join(sp, 'depkit', '__init__.py'), DEPKIT);
    return sp;
  };

  /** A repository with app.py and, when asked, a .venv holding depkit and a python that leaves a mark if run. */
  const repository = (venv: boolean) => {
    const dir = h.emptyDir();
    fs.writeFileSync(path.join(dir, 'app.py'), APP);
    if (venv) {
      const env = path.join(dir, '.venv');
      sitePackages(env);
      fs.writeFileSync(path.join(env, 'pyvenv.cfg'), 'home = /usr/bin\ninclude-system-site-packages = false\n');
      fs.mkdirSync(path.join(env, 'bin'));
      for (const name of ['python', 'python3']) {
        fs.writeFileSync(path.join(env, 'bin', name), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`);
        fs.chmodSync(path.join(env, 'bin', name), 0o755);
      }
    }
    return dir;
  };

  beforeAll(async () => {
    await h.init();
    const scratch = h.emptyDir();
    marker = path.join(scratch, 'the-repository-python-ran');
    outside = sitePackages(path.join(scratch, 'operator-env'));
  });

  afterAll(async () => {
    await h.dispose(Object.values(repos));
  });

  it('pyright: the .venv at the root makes the call pinned and is named in the result; without it the call stays unpinned; its python never runs', async () => {
    const { ingest } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'pyright', pyEnv: undefined });
    const bare = await ingest.index({ path: repository(false), name: repos.bare, embed: false });
    expect(bare.resolver.pyPrecise).toMatchObject({ checker: 'pyright' });
    expect(bare.resolver.pyPrecise!.environment).toBeUndefined();
    expect(await callEdges(h, repos.bare)).not.toContain(PINNED);

    const withVenv = await ingest.index({ path: repository(true), name: repos.venv, embed: false });
    expect(withVenv.resolver.pyPrecise).toMatchObject({ checker: 'pyright', environment: '.venv (.venv/lib/python3.11/site-packages)' });
    expect(await callEdges(h, repos.venv)).toContain(PINNED);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('pyright: INGEST_PY_ENV (a site-packages folder outside the repository) is read instead', async () => {
    const { ingest } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'pyright', pyEnv: outside });
    const run = await ingest.index({ path: repository(false), name: repos.configured, embed: false });
    expect(run.resolver.pyPrecise).toMatchObject({ checker: 'pyright', environment: `INGEST_PY_ENV ${outside}` });
    expect(await callEdges(h, repos.configured)).toContain(PINNED);
  });

  withTy('ty: the same call pinned with the .venv and not without it; its python never runs', async () => {
    const { ingest } = await h.serviceWith({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'ty', pyTyPath: TY, pyEnv: undefined });
    const bare = await ingest.index({ path: repository(false), name: repos.tyBare, embed: false });
    expect(bare.resolver.pyPrecise).toMatchObject({ checker: 'ty' });
    expect(await callEdges(h, repos.tyBare)).not.toContain(PINNED);
    const withVenv = await ingest.index({ path: repository(true), name: repos.tyVenv, embed: false });
    expect(withVenv.resolver.pyPrecise).toMatchObject({ checker: 'ty', environment: '.venv (.venv/lib/python3.11/site-packages)' });
    expect(await callEdges(h, repos.tyVenv)).toContain(PINNED);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('a repository root that is itself a package (its folder indexed alone, imported by its own name)', () => {
  const h = new IngestHarness();
  const repos = { pyright: runId('py-rootpkg'), ty: runId('py-rootpkg-ty'), fast: runId('py-rootpkg-fast') };
  const TY = path.join(ROOT, '.cache/pycheckers/ty/ty');
  const withTy = fs.existsSync(TY) ? it : it.skip;
  // `blog/blog.py` beside `blog/__init__.py`: Python finds `blog` on the root's parent (the package),
  // never the root's own blog.py. `site.scan_posts()` is pinned only by knowing what `make_site()`
  // returns, so only a checker that imports `blog.blog` as Python does pins it.
  const FILES: Record<string, string> = {
    '__init__.py': '',
    'blog.py': ['class Site:', '    def scan_posts(self):', '        return []', '', '', 'def make_site() -> Site:', '    return Site()', ''].join('\n'),
    'tasks.py': ['from blog.blog import make_site', '', '', 'def run():', '    site = make_site()', '    site.scan_posts()', ''].join('\n'),
  };
  // callEdges' order: by text, so `Site` before `make_site`
  const EDGES = ['make_site -> Site fast/name', 'run -> Site.scan_posts precise/compiler', 'run -> make_site fast/name'];

  /** The package's folder, named `blog`, inside a scratch folder. */
  const repository = () => {
    const dir = path.join(h.emptyDir(), 'blog');
    fs.mkdirSync(dir);
    for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  };

  const services: IngestService[] = [];
  const service = async (...args: Parameters<IngestHarness['serviceWith']>) => {
    const { ingest } = await h.serviceWith(...args);
    services.push(ingest);
    return ingest;
  };

  beforeAll(async () => {
    await h.init();
  });

  afterAll(async () => {
    for (const s of services) await s.onModuleDestroy();
    await h.dispose(Object.values(repos));
  });

  it('the fast resolver reads `blog.blog` as the root\'s module, and pyright (its workspace the parent) pins the call on what it returns', async () => {
    const fast = await service({ tsResolver: 'fast', pyResolver: 'fast' });
    await fast.index({ path: repository(), name: repos.fast, embed: false });
    expect(await callEdges(h, repos.fast)).toEqual(['make_site -> Site fast/name', 'run -> make_site fast/name']);

    const ingest = await service({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'pyright', pyEnv: undefined });
    const run = await ingest.index({ path: repository(), name: repos.pyright, embed: false });
    expect(run.resolver.pyPrecise).toMatchObject({ checker: 'pyright', files: 3 });
    expect(await callEdges(h, repos.pyright)).toEqual(EDGES);
  });

  withTy('ty pins the same call', async () => {
    const ingest = await service({ tsResolver: 'fast', pyResolver: 'precise', pyPrecisePhase: 'inline', pyChecker: 'ty', pyTyPath: TY, pyEnv: undefined });
    const run = await ingest.index({ path: repository(), name: repos.ty, embed: false });
    expect(run.resolver.pyPrecise).toMatchObject({ checker: 'ty' });
    expect(await callEdges(h, repos.ty)).toEqual(EDGES);
  });
});
