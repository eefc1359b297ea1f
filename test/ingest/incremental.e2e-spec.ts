import * as fs from 'node:fs';
import * as path from 'node:path';
import { DomainError } from '@scopegraph/errors';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

// Re-indexing is incremental and converges: after edits, the graph equals a fresh index of the same
// tree, and only what changed was parsed, rewritten and re-embedded.
describe('incremental indexing (real Neo4j, Redis, tree-sitter, local embeddings)', () => {
  const h = new IngestHarness();
  const repoA = runId('inca');
  const repoB = runId('incb');
  let dir: string;

  beforeAll(async () => {
    await h.init();
    dir = h.copyOf(FIXTURE);
  });

  afterAll(() => h.dispose([repoA, repoB]));

  it('indexes, then re-indexes an unchanged tree without parsing, writing or embedding anything', async () => {
    const first = await h.ingest.index({ path: dir, name: repoA });
    expect(first.files.parsed).toBe(first.files.indexed);
    expect(first.scopes.added).toBe(first.scopes.total);
    expect(first.embedded).toBe(first.scopes.total);

    const again = await h.ingest.index({ path: dir, name: repoA });
    expect(again.files).toMatchObject({ parsed: 0, reused: first.files.indexed });
    expect(again.scopes).toMatchObject({ added: 0, changed: 0, moved: 0, deleted: 0, unchanged: first.scopes.total, total: first.scopes.total });
    expect(again.edges).toMatchObject({ added: 0, updated: 0, removed: 0, total: first.edges.total });
    expect(again.embeddedThisRun).toBe(0);
  });

  it('after a body edit, touches only the edited method, its class and its file', async () => {
    const file = path.join(dir, 'ts/src/models/base-entity.ts');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace(/(touch\([^)]*\)[^{]*\{)/, '$1 /* edited */');
    expect(edited).not.toBe(text);
    fs.writeFileSync(file, edited);

    const result = await h.ingest.index({ path: dir, name: repoA });
    expect(result.files.parsed).toBe(1);
    expect(result.scopes).toMatchObject({ added: 0, changed: 3, moved: 0, deleted: 0 });
    expect(result.embeddedThisRun).toBe(3);
    const changed = await h.neo4j.runStatement<{ localId: string }>(
      'MATCH (s:Scope {repoId: $repo}) WHERE s.source CONTAINS "/* edited */" RETURN s.localId AS localId ORDER BY localId',
      { repo: repoA },
    );
    expect(changed.map((c) => c.localId)).toEqual([
      'ts/src/models/base-entity.ts#BaseEntity.touch|method',
      'ts/src/models/base-entity.ts#BaseEntity|class',
      'ts/src/models/base-entity.ts#ts/src/models/base-entity.ts|file',
    ]);
  });

  it('after lines are inserted above, updates positions in place without re-embedding', async () => {
    const file = path.join(dir, 'ts/src/utils/format.ts');
    fs.writeFileSync(file, '// a comment line\n// and another\n' + fs.readFileSync(file, 'utf8'));
    const before = await h.neo4j.runStatement<{ startLine: number }>(
      'MATCH (s:Scope {repoId: $repo, name: "formatMoney"}) RETURN s.startLine AS startLine',
      { repo: repoA },
    );
    const result = await h.ingest.index({ path: dir, name: repoA });
    expect(result.scopes.moved).toBeGreaterThanOrEqual(2);
    expect(result.scopes.changed).toBe(1); // the file scope: its text changed
    expect(result.embeddedThisRun).toBe(1);
    const after = await h.neo4j.runStatement<{ startLine: number }>(
      'MATCH (s:Scope {repoId: $repo, name: "formatMoney"}) RETURN s.startLine AS startLine',
      { repo: repoA },
    );
    expect(after[0].startLine).toBe(before[0].startLine + 2);
  });

  it('deletes the scopes and edges of removed code, and records calls into it as unresolved', async () => {
    fs.rmSync(path.join(dir, 'ts/src/utils/legacy.ts'));
    const result = await h.ingest.index({ path: dir, name: repoA });
    expect(result.scopes.deleted).toBeGreaterThanOrEqual(3);
    const left = await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $repo}) WHERE s.path = "ts/src/utils/legacy.ts" RETURN count(s) AS n', { repo: repoA });
    expect(left[0].n).toBe(0);
    const dangling = await h.neo4j.runStatement<{ n: number }>(
      'MATCH (a:Scope {repoId: $repo})-[r]->(b) WHERE NOT b:Scope AND NOT b:ExternalModule AND NOT b:Unresolved RETURN count(r) AS n',
      { repo: repoA },
    );
    expect(dangling[0].n).toBe(0);
  });

  it('leaves the graph identical to a fresh index of the same tree', async () => {
    const fresh = await h.ingest.index({ path: dir, name: repoB });
    expect(fresh.files.parsed).toBe(fresh.files.indexed);
    const [a, b] = await Promise.all([h.snapshot(repoA), h.snapshot(repoB)]);
    expect(a.nodes.length).toBeGreaterThan(50);
    expect(a.nodes).toEqual(b.nodes);
    expect(a.edges).toEqual(b.edges);
  });

  it('refuses paths outside the allowed roots and bad names, naming the field', async () => {
    await expect(h.ingest.index({ path: '/etc', name: repoA })).rejects.toMatchObject({ field: 'path' });
    await expect(h.ingest.index({ path: 'relative/dir', name: repoA })).rejects.toThrow(/absolute/);
    await expect(h.ingest.index({ path: path.join(dir, 'ts', '..', '..', '..', '..', 'etc'), name: repoA })).rejects.toBeInstanceOf(DomainError);
    await expect(h.ingest.index({ path: dir, name: "x' }) DETACH DELETE n //" })).rejects.toMatchObject({ field: 'name' });
  });
});
