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
  const repoC = runId('incc');
  let dir: string;

  beforeAll(async () => {
    await h.init();
    dir = h.copyOf(FIXTURE);
  });

  afterAll(() => h.dispose([repoA, repoB, repoC]));

  /** Paths of the scopes whose CALLS point at the scope named `name`. */
  async function callsOf(name: string): Promise<string[]> {
    const rows = await h.neo4j.runStatement<{ path: string }>(
      'MATCH (a:Scope {repoId: $repo})-[:CALLS]->(b:Scope {repoId: $repo, name: $name}) RETURN DISTINCT a.path AS path ORDER BY path',
      { repo: repoA, name },
    );
    return rows.map((r) => r.path);
  }

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

  it('skips reading files whose fingerprint (size, times, inode) is unchanged', async () => {
    // Files written moments ago have fingerprints too fresh to trust (timestamps tick coarsely):
    // a clock a minute ahead makes them settled.
    h.ingest.clock = () => Date.now() + 60_000;
    const first = await h.ingest.index({ path: dir, name: repoA });
    const again = await h.ingest.index({ path: dir, name: repoA });
    expect(again.files).toMatchObject({ parsed: 0, reused: first.files.indexed, unread: first.files.indexed });
    expect(again.scopes).toMatchObject({ added: 0, changed: 0, deleted: 0 });
    expect(again.edges).toMatchObject({ added: 0, updated: 0, removed: 0 });
  });

  it('re-parses a file edited without a change of size', async () => {
    const file = path.join(dir, 'ts/src/utils/format.ts');
    const text = fs.readFileSync(file, 'utf8');
    const edited = text.replace('toFixed(2)', 'toFixed(4)');
    expect(edited).not.toBe(text);
    expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(text));
    fs.writeFileSync(file, edited);
    const result = await h.ingest.index({ path: dir, name: repoA });
    expect(result.files).toMatchObject({ parsed: 1, unread: result.files.indexed - 1 });
    const changed = await h.neo4j.runStatement<{ n: number }>(
      'MATCH (s:Scope {repoId: $repo, name: "formatMoney"}) WHERE s.source CONTAINS "toFixed(4)" RETURN count(s) AS n',
      { repo: repoA },
    );
    expect(changed[0].n).toBe(1);
  });

  it('reads a file whose times alone changed, finds its bytes unchanged, and trusts the new fingerprint', async () => {
    const file = path.join(dir, 'ts/src/models/invoice.ts');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    const touched = await h.ingest.index({ path: dir, name: repoA });
    expect(touched.files).toMatchObject({ parsed: 0, reused: touched.files.indexed, unread: touched.files.indexed - 1 });
    expect(touched.scopes).toMatchObject({ added: 0, changed: 0, moved: 0, deleted: 0 });
    const again = await h.ingest.index({ path: dir, name: repoA });
    expect(again.files.unread).toBe(again.files.indexed);
  });

  it('re-resolves untouched files whose calls pointed at a definition that was renamed', async () => {
    const file = path.join(dir, 'ts/src/utils/format.ts');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('export function formatMoney(', 'export function formatAmount('));
    const callsBefore = await callsOf('formatMoney');
    expect(callsBefore).toEqual(expect.arrayContaining(['ts/src/models/invoice.ts', 'ts/src/services/invoice-service.ts']));
    const result = await h.ingest.index({ path: dir, name: repoA });
    expect(result.files.parsed).toBe(1);
    // The callers were not re-parsed, yet their calls now point at an unresolved name.
    expect(await callsOf('formatMoney')).toEqual([]);
    const dangling = await h.neo4j.runStatement<{ path: string }>(
      'MATCH (a:Scope {repoId: $repo})-[:CALLS]->(u:Unresolved {name: "formatMoney"}) RETURN DISTINCT a.path AS path ORDER BY path',
      { repo: repoA },
    );
    expect(dangling.map((d) => d.path)).toEqual(expect.arrayContaining(callsBefore));
  });

  it('converges after an interrupted run whose edit was then reverted', async () => {
    const file = path.join(dir, 'ts/src/utils/format.ts');
    const text = fs.readFileSync(file, 'utf8');
    // The tree ends as it starts, so the graph must too: nothing the interrupted run wrote may remain.
    const before = await h.snapshot(repoA);
    fs.writeFileSync(file, text.replace('export function formatAmount(', 'export function formatMoney(').replace('toFixed(4)', 'toFixed(2)'));
    // The run writes scopes and edges (in several transactions, as a large change would), then dies
    // before recording the files as fully written.
    const [commit, singleTransactionRows] = [h.repo.setFileHashes, h.repo.singleTransactionRows];
    h.repo.setFileHashes = () => Promise.reject(new Error('killed before the commit'));
    h.repo.singleTransactionRows = 0;
    await expect(h.ingest.index({ path: dir, name: repoA })).rejects.toThrow('killed before the commit');
    h.repo.setFileHashes = commit;
    h.repo.singleTransactionRows = singleTransactionRows;
    fs.writeFileSync(file, text);
    await h.ingest.index({ path: dir, name: repoA });
    const after = await h.snapshot(repoA);
    expect(after.nodes).toEqual(before.nodes);
    expect(after.edges).toEqual(before.edges);
  });

  it('leaves the graph identical to a fresh index of the same tree', async () => {
    const fresh = await h.ingest.index({ path: dir, name: repoB });
    expect(fresh.files.parsed).toBe(fresh.files.indexed);
    const [a, b] = await Promise.all([h.snapshot(repoA), h.snapshot(repoB)]);
    expect(a.nodes.length).toBeGreaterThan(50);
    expect(a.nodes).toEqual(b.nodes);
    expect(a.edges).toEqual(b.edges);
    // No edge was written twice (fresh or incremental).
    expect(new Set(b.edges).size).toBe(b.edges.length);
  });

  it('written in batches (edges made and written a batch of files at a time), converges to a fresh index too', async () => {
    const file = path.join(dir, 'ts/src/utils/format.ts');
    const text = fs.readFileSync(file, 'utf8');
    const rows = h.repo.singleTransactionRows;
    h.repo.singleTransactionRows = 0;
    try {
      // Renamed back: the callers' edges to the unresolved name go and edges to the scope come; two
      // lines inserted above: the file's own edges keep their ends and change their lines.
      fs.writeFileSync(file, '// one\n// two\n' + text.replace('export function formatAmount(', 'export function formatMoney('));
      const result = await h.ingest.index({ path: dir, name: repoA });
      expect(result.edges).toMatchObject({ added: expect.any(Number), removed: expect.any(Number), updated: expect.any(Number) });
      expect([result.edges.added, result.edges.removed, result.edges.updated].every((n) => n > 0)).toBe(true);
      expect(await callsOf('formatMoney')).toEqual(expect.arrayContaining(['ts/src/models/invoice.ts', 'ts/src/services/invoice-service.ts']));
      const fresh = await h.ingest.index({ path: dir, name: repoC });
      expect(fresh.edges.added).toBeGreaterThan(0);
      const [a, c] = await Promise.all([h.snapshot(repoA), h.snapshot(repoC)]);
      expect(a.nodes).toEqual(c.nodes);
      expect(a.edges).toEqual(c.edges);
      expect(new Set(c.edges).size).toBe(c.edges.length);
    } finally {
      h.repo.singleTransactionRows = rows;
    }
  });

  it('refuses paths outside the allowed roots and bad names, naming the field', async () => {
    await expect(h.ingest.index({ path: '/etc', name: repoA })).rejects.toMatchObject({ field: 'path' });
    await expect(h.ingest.index({ path: 'relative/dir', name: repoA })).rejects.toThrow(/absolute/);
    await expect(h.ingest.index({ path: path.join(dir, 'ts', '..', '..', '..', '..', 'etc'), name: repoA })).rejects.toBeInstanceOf(DomainError);
    await expect(h.ingest.index({ path: dir, name: "x' }) DETACH DELETE n //" })).rejects.toMatchObject({ field: 'name' });
  });
});
