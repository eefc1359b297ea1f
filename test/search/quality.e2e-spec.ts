import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPlan, type SearchMode, SearchRepository, SearchService } from '../../libs/search/src';
import { IngestHarness } from '../support/ingest-harness';
import { pollUntil } from '../support/poll';
import { runId } from '../support/processes';

jest.setTimeout(120_000);

// Retrieval on code nobody tuned for, against the real Neo4j, parser and local embedder: build
// output skipped by default (and brought back by a stored include), relationship questions answered
// from the graph with their paths, pasted messages found first, copies of one scope shown once.
describe('search quality: build output, relationship questions, exact strings, copies', () => {
  const repoId = runId('quality');
  const h = new IngestHarness();
  let service: SearchService;
  let root: string;
  const MESSAGE = 'Cats cannot be made to speak on demand, try again later';

  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const search = (mode: SearchMode, text: string) => {
    const plan = defaultPlan(mode, text);
    plan.filters = { repository: repoId };
    return service.execute(plan);
  };

  beforeAll(async () => {
    await h.init();
    root = h.emptyDir();
    write('src/base.ts', 'export class Animal {\n  speak(): string {\n    return "generic";\n  }\n}\n');
    write('src/util.ts', 'export function bark(): string {\n  return "woof";\n}\n');
    write('src/dog.ts', 'import { Animal } from "./base";\nimport { bark } from "./util";\nexport class Dog extends Animal {\n  speak(): string {\n    return bark();\n  }\n}\n');
    write('src/cat.ts', `import { Animal } from "./base";\nexport class Cat extends Animal {\n  speak(): string {\n    throw new Error("${MESSAGE}");\n  }\n}\n`);
    const helper = 'export function formatLeashLength(meters: number): string {\n  return `${meters.toFixed(1)} m of leash`;\n}\n';
    write('src/walks/leash.ts', helper);
    write('src/parks/leash.ts', helper);
    // Build output and a bundle: copies of the sources nobody wrote by hand.
    write('dist/index.js', 'class Dog extends Animal { speak() { return bark(); } }\n');
    write('dist/index.d.mts', 'export declare class Dog {}\n');
    write('src/compiled.js', 'var Dog = 1;\n//# sourceMappingURL=compiled.js.map\n');
    const r = await h.ingest.index({ path: root, name: repoId });
    expect(r.files.skipped).toMatchObject({ buildOutput: 1, bundle: 1 });
    expect(r.filters).toEqual({ include: [], exclude: [] });
    service = new SearchService(new SearchRepository(h.neo4j), h.embedder);
    // The full-text index is eventually consistent: wait until it serves this repository.
    await pollUntil('the full-text index to serve formatLeashLength', async () => (await search('bm25', 'formatLeashLength')).results.length > 0);
  });

  afterAll(() => h.dispose([repoId]));

  it('indexes no build output by default', async () => {
    const paths = (await h.neo4j.runStatement<{ path: string }>('MATCH (s:Scope {repoId: $repoId}) RETURN DISTINCT s.path AS path', { repoId })).map((r) => r.path);
    expect(paths.some((p) => p.startsWith('dist/') || p === 'src/compiled.js')).toBe(false);
    expect(paths).toEqual(expect.arrayContaining(['src/dog.ts', 'src/cat.ts']));
  });

  it('answers "which classes extend X" from the graph, in GRAPH mode and in hybrid, with the connecting path', async () => {
    for (const mode of ['graph', 'hybrid'] as const) {
      const res = await search(mode, 'which classes extend Animal?');
      const top = res.results.slice(0, 2);
      expect(top.map((r) => r.scope.qualifiedName).sort()).toEqual(['Cat', 'Dog']);
      for (const hit of top) {
        expect(hit.via).toMatchObject({ relation: 'subtypes', anchorName: 'Animal', depth: 1, path: { edgeTypes: ['EXTENDS'], directions: ['in'] } });
        expect(hit.via!.path.nodeIds).toEqual([hit.via!.anchorId, hit.scope.id]);
      }
      expect(res.explain.structural).toMatchObject({ relation: 'subtypes', target: 'Animal', direction: 'in' });
    }
    const hybrid = await search('hybrid', 'which classes extend Animal?');
    expect(hybrid.explain.notes.join(' ')).toMatch(/structural question/);
  });

  it('answers callers, callees and overriders', async () => {
    const callers = await search('graph', 'who calls bark');
    expect(callers.results.map((r) => r.scope.qualifiedName)).toEqual(['Dog.speak']);
    const callees = await search('graph', 'what does Dog.speak call');
    expect(callees.results[0].scope.qualifiedName).toBe('bark');
    const overriders = await search('graph', 'what overrides Animal.speak');
    expect(overriders.results.map((r) => r.scope.qualifiedName).sort()).toEqual(['Cat.speak', 'Dog.speak']);
    expect(overriders.results[0].via!.path.edgeTypes).toEqual(['HAS_MEMBER', 'EXTENDS', 'HAS_MEMBER']);
  });

  it('says when a relationship answer rests on name-only edges, with each hop\'s provenance', async () => {
    const callers = await search('graph', 'who calls bark');
    // `bark()` imported by name: the name-based resolver pinned it (no compiler needed, no SCIP index given).
    expect(callers.results[0].via).toMatchObject({ nameOnly: true, path: { edgeTypes: ['CALLS'], provenances: ['name'] } });
    expect(callers.explain.structural!.nameOnly).toBe(1);
    expect(callers.explain.notes.join(' ')).toMatch(/1 of 1 answers rest on name-only edges/);
  });

  it('says so when GRAPH mode gets no relationship question', async () => {
    const res = await search('graph', 'format a length for display');
    expect(res.results).toEqual([]);
    expect(res.warnings[0]).toMatch(/not a recognised relationship question/);
  });

  it('finds the scope holding a pasted message first, in bm25, hybrid and semantic_rerank', async () => {
    for (const mode of ['bm25', 'hybrid', 'semantic_rerank'] as const) {
      const res = await search(mode, `Error: ${MESSAGE}`);
      expect([mode, res.results[0]?.scope.qualifiedName]).toEqual([mode, 'Cat.speak']);
    }
    const bm25 = await search('bm25', `"${MESSAGE}"`);
    expect(bm25.explain.lists[0].luceneQuery).toContain('source:("Cats cannot be made');
  });

  it('leads a question in plain words with the vector list, and says so; a name keeps the keyword-leaning weights', async () => {
    const plain = await search('hybrid', 'how long a leash is when shown to people');
    expect(plain.explain.fusion).toMatchObject({ method: 'rrf', k: 10, weights: { semantic: 2, bm25: 1 }, plainWords: true });
    expect(plain.explain.lists.find((l) => l.list === 'bm25')!.luceneQuery).toMatch(/docComment:\([^)]*leash[^)]*\)\^3/);
    expect(plain.explain.notes.join(' ')).toMatch(/question in plain words/);
    expect(plain.results[0].scoreBreakdown.rescore).toBeDefined();
    const named = await search('hybrid', 'formatLeashLength');
    expect(named.explain.fusion).toMatchObject({ method: 'rrf', k: 10, weights: { semantic: 2, bm25: 3 } });
    expect(named.explain.fusion.plainWords).toBeUndefined();
  });

  it('shows one scope found at several paths once, with the other paths', async () => {
    const res = await search('hybrid', 'formatLeashLength');
    const copies = res.results.filter((r) => r.scope.qualifiedName === 'formatLeashLength');
    expect(copies).toHaveLength(1);
    expect([copies[0].scope.path, ...(copies[0].alsoAt ?? [])].sort()).toEqual(['src/parks/leash.ts', 'src/walks/leash.ts']);
  });

  it('keeps include globs with the repository: build output comes back and stays on the next run', async () => {
    const withDist = await h.ingest.index({ path: root, name: repoId, include: ['dist/**'] });
    expect(withDist.filters.include).toEqual(['dist/**']);
    const again = await h.ingest.index({ path: root, name: repoId });
    expect(again.filters.include).toEqual(['dist/**']);
    expect(again.files.indexed).toBe(withDist.files.indexed);
    const stored = (await h.repo.repositories()).find((r) => r.id === repoId);
    expect(stored).toMatchObject({ include: ['dist/**'], exclude: [] });
    const paths = (await h.neo4j.runStatement<{ path: string }>('MATCH (s:Scope {repoId: $repoId}) RETURN DISTINCT s.path AS path', { repoId })).map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.mts']));
  });
});
