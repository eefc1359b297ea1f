import { DEFAULT_AGGREGATE, HistoryOptions, HistoryRepository, HistoryService } from '@scopegraph/history';
import { IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';
import { GitRepo } from '../impact/git-repo';

const FILES = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'];
const AUTHORS = ['Ann', 'Bob', 'Cy'];

// An incremental history read (running counts plus the new commits, only changed values written)
// must leave the graph exactly as a full read of the same history does: same statistics, same
// CO_CHANGED edges with the same support and confidence. Small bounds make the new commits prune old
// ones, move the recent window and cross the support and partner limits. (Functions appended after a
// first read are left out: old commits keep the attribution of the read that stored them, so a later
// full read can attribute more of them to new functions, with or without running counts.)
describe('incremental history read equals a full read (real git, Neo4j)', () => {
  const h = new IngestHarness();
  const incId = runId('histinc');
  const fullId = runId('histfull');
  let git: GitRepo;
  let history: HistoryService;
  const values = FILES.map(() => [0, 0, 0, 0]);
  const opts: Partial<HistoryOptions> = { maxCommits: 16, massCommitFiles: 3, aggregate: { ...DEFAULT_AGGREGATE, minSupport: 2, maxPartners: 3, recentSeconds: 5 * 86_400 } };

  const source = (f: number) =>
    values[f].map((v, k) => `export function f${k}(): number {\n  return ${v};\n}\n`).join('\n');
  const commit = (i: number) => {
    const files = i % 7 === 6 ? [0, 1, 2, 3] : i % 3 === 2 ? [i % 4] : [i % 4, (i * 3 + 1) % 4];
    for (const f of new Set(files)) {
      values[f][i % 4]++;
      values[f][(i * 5 + 2) % 4]++;
    }
    return git.commit(`change ${i}`, Object.fromEntries(files.map((f) => [FILES[f], source(f)])), AUTHORS[i % 3]);
  };
  const index = async (name: string) => {
    await h.ingest.index({ path: git.dir, name, embed: false });
    return history.index(name, git.dir, opts);
  };
  const snapshot = async (repoId: string) => {
    const local = (id: string) => id.slice(repoId.length);
    const stats = await h.neo4j.runStatement<Record<string, unknown> & { id: string }>(
      'MATCH (s:Scope {repoId: $r}) WHERE s.changeCount IS NOT NULL RETURN s.id AS id, s.changeCount AS changeCount, s.lastChangedAt AS lastChangedAt, s.lastCommit AS lastCommit, s.recentChurn AS recentChurn, s.recentChanges AS recentChanges, s.mainAuthors AS mainAuthors ORDER BY id',
      { r: repoId },
    );
    const edges = await h.neo4j.runStatement<{ from: string; to: string; level: string; support: number; confidence: number }>(
      'MATCH (a:Scope {repoId: $r})-[e:CO_CHANGED]->(b:Scope) RETURN a.id AS from, b.id AS to, e.level AS level, e.support AS support, e.confidence AS confidence',
      { r: repoId },
    );
    return {
      stats: stats.map((s) => ({ ...s, id: local(s.id) }) as Record<string, unknown>),
      edges: edges.map((e) => ({ ...e, from: local(e.from), to: local(e.to) })).sort((p, q) => `${p.level}${p.from}${p.to}`.localeCompare(`${q.level}${q.from}${q.to}`)),
    };
  };

  beforeAll(async () => {
    await h.init();
    history = new HistoryService(new HistoryRepository(h.neo4j), h.config);
    git = new GitRepo(h.emptyDir());
  });
  afterAll(() => h.dispose([incId, fullId]));

  it('updates statistics and co-change edges from running counts to what a full read computes', async () => {
    for (let i = 0; i < 12; i++) commit(i);
    const first = await index(incId);
    expect(first).toMatchObject({ status: 'git', read: 12, incremental: false, recounted: true });

    for (let round = 0; round < 2; round++) {
      for (let i = 12 + round * 5; i < 17 + round * 5; i++) commit(i);
      const inc = await index(incId);
      // 12 + 5 commits against a bound of 16: the oldest are pruned and subtracted, not recounted.
      expect(inc).toMatchObject({ read: 5, kept: 16, incremental: true });
      expect(inc.recounted).toBeUndefined();
    }

    const full = await index(fullId);
    expect(full).toMatchObject({ read: 16, kept: 16, incremental: false, recounted: true });
    const a = await snapshot(incId);
    const b = await snapshot(fullId);
    expect(b.stats.length).toBeGreaterThan(10);
    expect(b.edges.filter((e) => e.level === 'scope').length).toBeGreaterThan(5);
    expect(b.stats.some((s) => (s.recentChanges as number) > 0)).toBe(true);
    expect(a.stats).toEqual(b.stats);
    expect(a.edges).toEqual(b.edges);
  });
});
