import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService, warmQueryPlans } from '@scopegraph/graph';
import { IMPACT_PLAN_WARMUPS } from '@scopegraph/impact';
import { searchPlanWarmups } from '@scopegraph/search';
import { pollUntil } from '../support/poll';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';

jest.setTimeout(400_000);

// The API plans its heaviest query (impact's walk) once after it is ready, in the background, so the
// first request after Neo4j starts does not pay the planning; warming never breaks anything.
describe('query plan warm-up', () => {
  let api: RunningApp | undefined;

  afterAll(async () => {
    await api?.stop();
  });

  it('the API warms impact/walk and search\'s statements after it is ready, and logs it', async () => {
    const port = await freePort();
    // Boot alone took over a minute on this loaded machine.
    api = await startApp('api', { API_PORT: String(port), QUEUE_PREFIX: runId('warm') }, API_READY, 240_000);
    const warmed = /query plans warmed in \d+ ms: impact\/walk \d+ ms, .*search\/graph-related-out \d+ ms/;
    await pollUntil('the warm-up log line', async () => warmed.test(api!.output()), { timeoutMs: 120_000 });
    const out = api.output();
    expect(out.search(API_READY)).toBeLessThan(out.search(warmed));
  });

  it('warms with parameters the real walk accepts (EXPLAIN plans them; a typo in a name or type would fail here)', async () => {
    const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
    try {
      const result = await warmQueryPlans(neo4j, IMPACT_PLAN_WARMUPS, { log: () => undefined, warn: (m: string) => { throw new Error(m); } });
      expect(result).toEqual([{ name: 'impact/walk', ms: expect.any(Number) }]);
    } finally {
      await neo4j.onModuleDestroy();
    }
  });

  it("warms search's statements (GRAPH's walk both ways, hybrid's joined lists) by running them with parameters their real calls accept", async () => {
    const config = loadConfig();
    const neo4j = new Neo4jService(config, new CypherFiles());
    try {
      const warmups = await searchPlanWarmups(neo4j, config.embedding.dimensions);
      expect(warmups.every((w) => w.run)).toBe(true);
      // Each size class of the anchors list is planned apart: one anchor and several, both directions.
      for (const name of ['search/graph-related-in', 'search/graph-related-out']) {
        expect(warmups.filter((w) => w.name === name).map((w) => (w.params.anchorIds as string[]).length)).toEqual([1, 2]);
      }
      const result = await warmQueryPlans(neo4j, warmups, { log: () => undefined, warn: (m: string) => { throw new Error(m); } });
      expect(result.map((r) => r.name)).toEqual(expect.arrayContaining(['search/graph-anchors', 'search/graph-related-in', 'search/graph-related-out', 'search/vector-coverage', 'search/scopes-by-id', 'search/vector-index-postfiltered', 'search/vector-index-filtered']));
      expect(result.filter((r) => r.name.startsWith('search/both-lists'))).toHaveLength(2);
      expect(result.every((r) => typeof r.ms === 'number')).toBe(true);
    } finally {
      await neo4j.onModuleDestroy();
    }
  });

  it('never throws: an unreachable Neo4j is logged and skipped within the deadline', async () => {
    const config = loadConfig();
    const down = new Neo4jService({ ...config, neo4j: { ...config.neo4j, uri: `bolt://127.0.0.1:${await freePort()}` } }, new CypherFiles());
    const warnings: string[] = [];
    try {
      const started = performance.now();
      const result = await warmQueryPlans(down, [...IMPACT_PLAN_WARMUPS, ...IMPACT_PLAN_WARMUPS], { log: () => undefined, warn: (m: string) => void warnings.push(m) }, 10_000);
      expect(result.map((r) => r.ms)).toEqual([null, null]);
      expect(warnings.join('\n')).toMatch(/query plan of impact\/walk not warmed/);
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      await down.onModuleDestroy();
    }
  });
});
