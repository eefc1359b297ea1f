import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { pointwiseJudge } from '../fakes/rerank-scripts';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId, RunningStack, startStack } from '../support/processes';
import { RERANK_PROGRESS } from './support/rerank-harness';

const SEARCH = `query($input: SearchInput!) {
  search(input: $input) {
    results { rank scope { id qualifiedName } }
    rerank { jobId status skipped total result { reranker } }
  }
}`;

// `rerank` in SearchInput: retrieval, then the LLM reranker on the worker through the fake Gemini.
describe('search with rerank', () => {
  const h = new IngestHarness();
  const repo = runId('srr');
  let gemini: FakeGemini;
  let stack: RunningStack;

  beforeAll(async () => {
    await h.init();
    await h.ingest.index({ path: FIXTURE, name: repo });
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    // The "model" prefers anything about SQL: a ranking retrieval alone would not produce.
    gemini.onGenerate(pointwiseJudge({ score: (c) => (/sql|Sql|dbo/.test(`${c.name} ${c.file}`) ? 0.95 : 0.05) }));
    stack = await startStack('srr', { GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GEMINI_BASE_URL: gemini.baseUrl, RERANK_PROVIDER: 'gemini' });
  });

  afterAll(async () => {
    await stack?.stop();
    await gemini?.close();
    await h.dispose([repo]);
  });

  it('retrieves candidateCount hits, returns the top K at once, and reranks them on the worker', async () => {
    const input = { text: 'create an invoice', repository: repo, topK: 5, rerank: { question: 'where is invoice data stored in SQL?', candidateCount: 20, batchSize: 5, parallel: 2 } };
    const { body } = await gql(stack.url, SEARCH, { input });
    expect(body.errors).toBeUndefined();
    expect(body.data.search.results).toHaveLength(5);
    const job = body.data.search.rerank;
    expect(job).toMatchObject({ skipped: false, total: 4 });

    const client = wsClient(stack.url);
    let final: any;
    try {
      const events = await collect(client, RERANK_PROGRESS, { jobId: job.jobId }, 60_000);
      final = events[events.length - 1].data!.rerankProgress;
    } finally {
      await client.dispose();
    }
    expect(final.kind).toBe('COMPLETED');
    const hits = final.result.hits;
    expect(hits).toHaveLength(5);
    // The rerank changed the order: its top hit was not retrieval's first, and it is what the model prefers.
    const retrievedFirst = body.data.search.results[0].scope;
    expect(/sql|Sql|dbo/.test(retrievedFirst.qualifiedName)).toBe(false);
    expect(hits[0].scopeId).not.toBe(retrievedFirst.id);
    expect(hits[0].scoreBreakdown.retrievalRank).toBeGreaterThan(1);
    expect(`${hits[0].scope.name} ${hits[0].scope.path}`).toMatch(/sql|Sql|dbo/);
    // What the fake model scored high comes first, whatever its retrieval rank was.
    const llm = hits.map((x: any) => x.scoreBreakdown.llm);
    expect(llm[0]).toBe(0.95);
    expect(llm).toEqual([...llm].sort((a: number, b: number) => b - a));
    expect(hits.every((x: any) => x.scoreBreakdown.reranker === 'gemini')).toBe(true);
    expect(gemini.calls('generateContent')).toBe(4);
  });

  it('names a bad rerank option as rerank.<field>', async () => {
    const { body } = await gql(stack.url, SEARCH, { input: { text: 'invoice', repository: repo, rerank: { batchSize: 0 } } });
    expect(body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'rerank.batchSize' });
  });
});
