import { CommitRecord, HistoryRepository } from '@scopegraph/history';
import { IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

// The kept commits are read back in pages (one read of a 10k-commit history outlasted the read
// timeout): every commit comes back once, newest first, across page boundaries.
describe('stored commits read in pages (Neo4j)', () => {
  const h = new IngestHarness();
  const repoId = runId('histpage');
  let history: HistoryRepository;

  beforeAll(async () => {
    await h.neo4j.waitUntilReady();
    history = new HistoryRepository(h.neo4j);
  });
  afterAll(async () => {
    await history.deleteCommits(repoId);
    await h.neo4j.onModuleDestroy();
  });

  it('returns all commits across pages, newest first, each once', async () => {
    const rows: (CommitRecord & { id: string })[] = Array.from({ length: 7 }, (_, i) => ({
      id: `${repoId}:sha${i}`, sha: `sha${i}`, time: 1_700_000_000 + i * 60, authorName: 'Ann', authorEmail: 'ann@example.org', subject: `c${i}`,
      files: [`f${i}`], fileLines: [1], scopes: [], scopeLines: [], leaves: [], mass: false,
    }));
    await history.writeCommits(repoId, rows);
    history.readPage = 3;
    const read = await history.storedCommits(repoId);
    expect(read.map((c) => c.sha)).toEqual(['sha6', 'sha5', 'sha4', 'sha3', 'sha2', 'sha1', 'sha0']);
    history.readPage = 7;
    expect((await history.storedCommits(repoId)).length).toBe(7);
  });
});
