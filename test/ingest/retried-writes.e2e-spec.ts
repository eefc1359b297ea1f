import * as fs from 'node:fs';
import * as path from 'node:path';
import { HistoryRepository } from '@scopegraph/history';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { LostCommits } from '../support/lost-commits';
import { runId } from '../support/processes';

jest.setTimeout(300_000);

// A write transaction the driver retries after its commit reached Neo4j (the acknowledgement was
// lost) must not write anything twice: the graph equals a clean index, edge for edge.
describe('write transactions retried after a commit that happened (real Neo4j)', () => {
  // Every other commit is reported lost: room for a transaction to be retried more than once.
  process.env.NEO4J_MAX_RETRY_MS = '30000';
  const h = new IngestHarness();
  const lost = new LostCommits();
  const clean = runId('lostc');
  const single = runId('losts');
  const batched = runId('lostb');
  const history = runId('losth');
  let dir: string;

  beforeAll(async () => {
    await h.init();
    dir = h.copyOf(FIXTURE);
    lost.install();
  });

  afterAll(async () => {
    lost.uninstall();
    await new HistoryRepository(h.neo4j).clearCounts(history).catch(() => undefined);
    await h.neo4j.runStatement('MATCH (n) WHERE (n:ApiKey OR n:AuditEvent) AND n.id STARTS WITH $prefix DETACH DELETE n', { prefix: history });
    await h.dispose([clean, single, batched, history]);
  });

  async function edgesByType(repoId: string): Promise<Record<string, number>> {
    const rows = await h.neo4j.runStatement<{ type: string; n: number }>(
      'MATCH (a {repoId: $repoId})-[r]->() RETURN type(r) AS type, count(r) AS n ORDER BY type',
      { repoId },
    );
    return Object.fromEntries(rows.map((r) => [r.type, r.n]));
  }

  it('an index whose every write commits once "lost" equals a clean index (one transaction, then batches), also re-indexed', async () => {
    await h.ingest.index({ path: dir, name: clean, embed: false });
    const want = await h.snapshot(clean);
    expect(want.edges.length).toBeGreaterThan(100);

    const before = lost.lost;
    await lost.during(() => h.ingest.index({ path: dir, name: single, embed: false }));
    expect(lost.lost - before).toBeGreaterThan(0);
    expect(await edgesByType(single)).toEqual(await edgesByType(clean));
    expect((await h.snapshot(single)).edges).toEqual(want.edges);

    const rows = h.repo.singleTransactionRows;
    h.repo.singleTransactionRows = 0;
    try {
      await lost.during(() => h.ingest.index({ path: dir, name: batched, embed: false }));
      const got = await h.snapshot(batched);
      expect(await edgesByType(batched)).toEqual(await edgesByType(clean));
      expect(got.edges).toEqual(want.edges);
      expect(got.nodes).toEqual(want.nodes);

      // A re-index after edits (scopes deleted and created, edges removed and added), commits lost
      // again, still equals a clean index of the edited tree.
      const file = path.join(dir, 'ts/src/utils/format.ts');
      fs.writeFileSync(file, '// moved\n' + fs.readFileSync(file, 'utf8').replace('export function formatMoney(', 'export function formatAmount('));
      await lost.during(() => h.ingest.index({ path: dir, name: batched, embed: false }));
      await h.ingest.index({ path: dir, name: clean, embed: false });
      const [again, fresh] = await Promise.all([h.snapshot(batched), h.snapshot(clean)]);
      expect(again.edges).toEqual(fresh.edges);
      expect(again.nodes).toEqual(fresh.nodes);
    } finally {
      h.repo.singleTransactionRows = rows;
    }
  });

  it('history (co-change rules, running counts) and access (keys, audit) writes, commits lost, are stored once', async () => {
    const repo = new HistoryRepository(h.neo4j);
    const ids = await h.neo4j.runStatement<{ id: string }>('MATCH (s:Scope {repoId: $repoId}) RETURN s.id AS id ORDER BY id LIMIT 4', { repoId: single });
    expect(ids.length).toBe(4);
    const rules = [
      { from: ids[0].id, to: ids[1].id, support: 3, confidence: 0.75, level: 'scope' as const },
      { from: ids[2].id, to: ids[3].id, support: 2, confidence: 0.5, level: 'scope' as const },
    ];
    const data = Buffer.from('x'.repeat(1_000));
    const key = `${history}:key`;
    await lost.during(async () => {
      await repo.replaceAggregates(single, [], rules);
      await repo.writeCounts(history, 'head1', { data, fileEdges: 1, scopeEdges: 2, graphEdges: 3 });
      const [made] = await h.neo4j.write<{ id: string }>('access/create-key', { id: key, hash: `${history}:hash`, name: 'k', role: 'reader', repositories: ['*'] });
      expect(made.id).toBe(key);
      await h.neo4j.write('access/audit-append', { id: `${history}:event`, keyId: key, operation: 'test', repository: null, outcome: 'ok', errorCode: null });
    });
    expect(await repo.countCoChanged(single)).toBe(2);
    expect((await repo.readCounts(history, 'head1'))?.data.equals(data)).toBe(true);
    const [stored] = await h.neo4j.runStatement<{ keys: number; events: number }>(
      'RETURN COUNT { MATCH (k:ApiKey) WHERE k.id = $key } AS keys, COUNT { MATCH (e:AuditEvent) WHERE e.id STARTS WITH $prefix } AS events',
      { key, prefix: history },
    );
    expect(stored).toEqual({ keys: 1, events: 1 });
  });
});
