import * as fs from 'node:fs';
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
