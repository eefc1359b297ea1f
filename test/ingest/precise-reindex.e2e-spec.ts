import * as fs from 'node:fs';
import * as path from 'node:path';
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
});
