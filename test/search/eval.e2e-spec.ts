import { ApiClient } from '../../apps/cli/src/client';
import { runEval } from '../../apps/cli/src/commands/eval.command';
import { parseDataset } from '../../libs/search/src/eval';
import { gql } from '../support/graphql-client';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { pollUntil } from '../support/poll';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';

// `scopegraph eval` against the real API: the polyglot fixture is indexed under this run's own
// repository id (IngestHarness, no worker needed), the built API answers the searches, and the
// metrics must be what the known ranks give by hand. Only this run's repository is deleted.
describe('scopegraph eval (real API and Neo4j)', () => {
  const repoId = runId('eval');
  const h = new IngestHarness();
  let api: RunningApp;
  let url: string;

  beforeAll(async () => {
    await h.init();
    const port = await freePort();
    const [indexed, started] = await Promise.all([
      h.ingest.index({ path: FIXTURE, name: repoId }),
      startApp('api', { API_PORT: String(port), QUEUE_PREFIX: runId('evalq') }, API_READY),
    ]);
    expect(indexed.embedded).toBeGreaterThan(50);
    api = started;
    url = `http://127.0.0.1:${port}/graphql`;
    // The full-text index is eventually consistent: wait until it serves this repository.
    await pollUntil('the full-text index to serve usp_CreateInvoice over the API', async () => {
      const { body } = await gql(url, 'query($i: SearchInput!) { search(input: $i) { results { rank } } }', {
        i: { text: 'usp_CreateInvoice', mode: 'BM25', topK: 1, repository: repoId },
      });
      return body.data?.search.results.length > 0;
    });
  });

  afterAll(async () => {
    await api?.stop();
    await h.dispose([repoId]);
  });

  const dataset = () =>
    parseDataset(
      [
        // The procedure is the best BM25 hit for its own name: rank 1.
        { id: 'proc', repo: repoId, query: 'usp_CreateInvoice', relevant: [{ path: 'sql/procedures.sql', name: 'dbo.usp_CreateInvoice', kind: 'procedure' }] },
        // Graph question: BaseEntity is hit 1, its subclass Invoice follows as its neighbor: rank 2.
        {
          id: 'subclass',
          repo: repoId,
          query: 'BaseEntity',
          relevant: [{ path: 'ts/src/models/invoice.ts', name: 'Invoice', kind: 'class' }],
          expand: { depth: 1, edges: ['EXTENDS'], direction: 'in' },
        },
        // Two targets, one of which does not exist: found at rank 1 and never.
        {
          id: 'half',
          repo: repoId,
          query: 'Auditable',
          relevant: [
            { path: 'ts/src/models/auditable.ts', name: 'Auditable' },
            { path: 'ts/src/models/auditable.ts', name: 'Auditable.neverDeclared' },
          ],
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );

  it('reports the metrics the known ranks give', async () => {
    const out = await runEval(dataset(), { modes: ['bm25'], k: 10 }, new ApiClient({ url }));
    const byId = Object.fromEntries(out.queries.map((q) => [q.id, q]));
    expect(byId.proc).toMatchObject({ firstRank: 1, targets: [{ rank: 1 }], metrics: { ndcg: 1, mrr: 1, recall: 1, recallDeep: 1, precision: 0.2 } });
    expect(byId.subclass).toMatchObject({ subset: 'graph', firstRank: 2, targets: [{ rank: 2 }] });
    // rank 2: nDCG = 1/log2(3) = 0.6309298, MRR = 1/2.
    expect(byId.subclass.metrics).toEqual({ ndcg: expect.closeTo(0.6309298, 6), mrr: 0.5, recall: 1, recallDeep: 1, precision: 0.2 });
    expect(byId.half.targets).toEqual([
      { path: 'ts/src/models/auditable.ts', name: 'Auditable', rank: 1 },
      { path: 'ts/src/models/auditable.ts', name: 'Auditable.neverDeclared', rank: null },
    ]);
    // One of two targets at rank 1: nDCG = 1 / (1 + 1/log2(3)) = 0.6131472, recall 1/2.
    expect(byId.half.metrics).toEqual({ ndcg: expect.closeTo(0.6131472, 6), mrr: 1, recall: 0.5, recallDeep: 0.5, precision: 0.2 });

    const [bm25] = out.systems;
    expect(bm25.system).toBe('bm25');
    // Means: nDCG (1 + 0.6309298 + 0.6131472) / 3 = 0.7480257; MRR (1 + 0.5 + 1) / 3; recall (1 + 1 + 0.5) / 3.
    expect(bm25.metrics.all).toEqual({
      queries: 3,
      ndcg: expect.closeTo(0.7480257, 6),
      mrr: expect.closeTo(2.5 / 3, 12),
      recall: expect.closeTo(2.5 / 3, 12),
      recallDeep: expect.closeTo(2.5 / 3, 12),
      precision: expect.closeTo(0.2, 12),
    });
    expect(bm25.metrics.graph).toMatchObject({ queries: 1, mrr: 0.5 });
    expect(bm25.latencyMs.p95).toBeGreaterThan(0);
    expect(out.topK).toBe(50);
  });

  it('judges the hits alone when expansion is turned off', async () => {
    const [, subclass] = dataset();
    const out = await runEval([subclass], { modes: ['bm25'], k: 10, expand: false }, new ApiClient({ url }));
    // Without its neighbors, the subclass is only found if its own text matches, and never at rank 2
    // right after BaseEntity (the class's file scope comes first).
    expect(out.queries[0].firstRank).not.toBe(2);
  });

  it('runs every mode and refuses a repository that is not indexed', async () => {
    const out = await runEval(dataset().slice(0, 1), { modes: ['semantic', 'hybrid', 'semantic_rerank'], k: 10 }, new ApiClient({ url }));
    expect(out.systems.map((s) => s.system)).toEqual(['semantic', 'hybrid', 'semantic_rerank']);
    for (const q of out.queries) expect(q.returned).toBeGreaterThan(0);
    const [line] = dataset();
    await expect(runEval([{ ...line, repo: `${repoId}-missing` }], { modes: ['bm25'], k: 10 }, new ApiClient({ url }))).rejects.toThrow(
      /not indexed: .*-missing/,
    );
  });
});
