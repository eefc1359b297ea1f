import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbeddingCache, IngestService, ParseCache, ReferenceResolver } from '@scopegraph/ingest';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

// With the precise (TypeScript checker) resolver, editing one file re-resolves the files that
// depend on it, even though their own bytes (and parses) did not change.
describe('re-indexing with the precise TS resolver (real Neo4j, Redis, tree-sitter)', () => {
  const h = new IngestHarness();
  const repo = runId('precise');
  let dir: string;

  const callsFromRun = async () =>
    (await h.neo4j.runStatement<{ edge: string }>(
      `MATCH (:Scope {repoId: $repo, qualifiedName: 'Tracker.run'})-[r:CALLS]->(t:Scope)
       RETURN t.qualifiedName + ' ' + r.resolver AS edge ORDER BY edge`,
      { repo },
    )).map((r) => r.edge);

  beforeAll(async () => {
    await h.init();
    dir = h.copyOf(FIXTURE);
  });

  afterAll(() => h.dispose([repo]));

  it('moves the edges of unchanged dependents when what they call changes', async () => {
    const first = await h.ingest.index({ path: dir, name: repo, embed: false });
    expect(first.resolver).toMatchObject({ ts: 'precise', precise: { options: 'inferred', rechecked: first.resolver.precise!.files } });
    expect(await callsFromRun()).toEqual(['Reaction.track precise']);

    // makeReaction() now returns another class; tracker.ts (where Tracker.run lives) is untouched.
    const file = path.join(dir, 'ts/src/reactions.ts');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace('export function makeReaction(): Reaction {\n  return new Reaction();', 'export function makeReaction(): Eager {\n  return new Eager();')
      + '\nexport class Eager {\n  track(value: number): boolean {\n    return value >= 0;\n  }\n}\n';
    expect(edited).not.toBe(text);
    fs.writeFileSync(file, edited);

    const second = await h.ingest.index({ path: dir, name: repo, embed: false });
    expect(second.files.parsed).toBe(1);
    // reactions.ts and its importers (internal.ts, tracker.ts); nothing else was re-checked
    expect(second.resolver.precise!.rechecked).toBe(3);
    expect(await callsFromRun()).toEqual(['Eager.track precise']);
  });

  it('a new process (no compiler state) re-indexing an unchanged tree gets the same precise edges from cached parses', async () => {
    const before = await h.snapshot(repo);
    // What a restarted worker has: the parse cache in Redis, but no compiler state in memory. The
    // last run counts as unfinished (its resolution key cleared), so every file is resolved again.
    await h.repo.upsertRepository(repo, repo, dir);
    const fresh = new IngestService(h.repo, h.parser, new ParseCache(h.queues), new ReferenceResolver(h.config), new EmbeddingCache(h.queues), h.embedder, h.config);
    const again = await fresh.index({ path: dir, name: repo, embed: false });
    await fresh.onModuleDestroy();
    expect(again.files).toMatchObject({ parsed: 0, reused: again.files.indexed });
    expect(again.resolver).toMatchObject({ all: 'no-previous-run', files: again.files.indexed });
    expect(again.resolver.precise!.rechecked).toBe(again.resolver.precise!.files);
    expect(again.edges).toMatchObject({ added: 0, updated: 0, removed: 0 });
    expect(await callsFromRun()).toEqual(['Eager.track precise']);
    expect(await h.snapshot(repo)).toEqual(before);
  });

  it('a new process, after a TS edit: unchanged files read without references are completed for the checker', async () => {
    const before = await h.snapshot(repo);
    const file = path.join(dir, 'ts/src/utils/format.ts');
    fs.appendFileSync(file, '\n// a comment at the end: no edge moves\n');
    const fresh = new IngestService(h.repo, h.parser, new ParseCache(h.queues), new ReferenceResolver(h.config), new EmbeddingCache(h.queues), h.embedder, h.config);
    const again = await fresh.index({ path: dir, name: repo, embed: false });
    await fresh.onModuleDestroy();
    expect(again.files.parsed).toBe(1);
    expect(again.resolver).toMatchObject({ all: 'ts-checker', files: again.files.indexed });
    // Every unchanged file was read without its references, then completed from the cache's references (none parsed again).
    expect(again.files).toMatchObject({ reused: again.files.indexed - 1, referencesRead: again.files.indexed - 1, reparsed: 0 });
    expect(again.edges).toMatchObject({ added: 0, updated: 0, removed: 0 });
    expect(await callsFromRun()).toEqual(['Eager.track precise']);
    expect((await h.snapshot(repo)).edges).toEqual(before.edges);
  });
});
