import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { pointwiseJudge } from '../fakes/rerank-scripts';
import { RERANK_PROGRESS } from '../rerank/support/rerank-harness';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { runId, RunningStack, startStack } from '../support/processes';

// /metrics after an index, a search and a rerank on a real API + worker (fake Gemini), and the JSON
// logs: one request id from the HTTP request into the jobs it queued, secrets redacted.
const API_KEY = 'metrics-e2e-secret-key';
const auth = { 'x-api-key': API_KEY };
const INDEX_PROGRESS = 'subscription($jobId: ID!) { indexProgress(jobId: $jobId) { phase } }';
const SEARCH = `query MetricsE2eSearch($input: SearchInput!) { search(input: $input) { results { rank } rerank { jobId total } } }`;

/** The value of one series (labels in any order), or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics and JSON logs', () => {
  const name = runId('met');
  let gemini: FakeGemini;
  let stack: RunningStack;
  let metricsUrl: string;
  let repoDir: string | undefined;
  const scrape = async () => (await fetch(metricsUrl, { headers: auth })).text();

  beforeAll(async () => {
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    gemini.onGenerate(pointwiseJudge({ score: (c) => (/Invoice/.test(c.name) ? 0.9 : 0.1) }));
    // LOG_LEVEL=debug: request lines are logged at debug.
    // The fixture and one file of this run's own: the worker must compute at least one vector for the
    // embedding series to show both processes (the fixture's vectors may be copied from the graph).
    repoDir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-met-'));
    fs.cpSync(FIXTURE, repoDir, { recursive: true });
    fs.writeFileSync(path.join(repoDir, 'ts/metrics-probe.ts'), `export function ${name}Probe(): string {\n  return '${name}';\n}\n`);
    stack = await startStack('met', { INGEST_ALLOWED_ROOTS: fs.realpathSync(os.tmpdir()), API_KEY, GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GEMINI_BASE_URL: gemini.baseUrl, RERANK_PROVIDER: 'gemini', RERANK_CACHE_TTL_S: '600', LOG_LEVEL: 'debug' });
    metricsUrl = stack.url.replace(/\/graphql$/, '/metrics');

    // Index, with a request id of our own that the worker's log lines must carry.
    const queued = await gql(stack.url, 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }', { input: { path: repoDir, name } }, { ...auth, 'x-request-id': 'e2e-index-req' });
    expect(queued.body.errors).toBeUndefined();
    const ws = wsClient(stack.url, { apiKey: API_KEY });
    try {
      const events = await collect(ws, INDEX_PROGRESS, { jobId: queued.body.data.indexRepository.id }, 110_000);
      expect(events[events.length - 1].data!.indexProgress.phase).toBe('done');
      // Search and rerank; the same question twice, so the second is answered by the cache.
      for (const requestId of ['e2e-rerank-req', 'e2e-rerank-again']) {
        const input = { text: 'invoice', repository: name, topK: 5, rerank: { question: 'where are invoices created?', candidateCount: 10, batchSize: 5, parallel: 2 } };
        const found = await gql(stack.url, SEARCH, { input }, { ...auth, 'x-request-id': requestId });
        expect(found.body.errors).toBeUndefined();
        const progress = await collect(ws, RERANK_PROGRESS, { jobId: found.body.data.search.rerank.jobId }, 60_000);
        expect(progress[progress.length - 1].data!.rerankProgress.kind).toBe('COMPLETED');
      }
    } finally {
      await ws.dispose();
    }
  });

  afterAll(async () => {
    if (stack) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }, auth).catch(() => undefined);
    await stack?.stop();
    await gemini?.close();
    if (repoDir) fs.rmSync(repoDir, { recursive: true, force: true });
  });

  it('exposes request, search stage, model, cache, queue and index series', async () => {
    // The worker publishes its snapshot right after each job; the last one may land just after the
    // rerank's final event, so wait for it rather than for a fixed time.
    let text = '';
    for (let i = 0; i < 50; i++) {
      text = await scrape();
      if ((sample(text, 'scopegraph_llm_calls_total', { provider: 'gemini', kind: 'chat', outcome: 'ok' }) ?? 0) >= 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sample(text, 'scopegraph_graphql_request_duration_seconds_count', { operation: 'MetricsE2eSearch', type: 'query', outcome: 'ok' })).toBe(2);
    expect(sample(text, 'scopegraph_search_stage_duration_seconds_count', { mode: 'hybrid', stage: 'total' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'scopegraph_search_stage_duration_seconds_bucket', { mode: 'hybrid', stage: 'bm25', le: '+Inf' })).toBeGreaterThanOrEqual(2);
    // Two batches of five reach the fake Gemini once; the repeated question is served by the cache.
    expect(sample(text, 'scopegraph_llm_calls_total', { provider: 'gemini', kind: 'chat', outcome: 'ok' })).toBe(gemini.calls('generateContent'));
    expect(gemini.calls('generateContent')).toBe(2);
    expect(sample(text, 'scopegraph_llm_tokens_total', { provider: 'gemini', direction: 'input' })).toBeGreaterThan(0);
    expect(sample(text, 'scopegraph_llm_call_duration_seconds_count', { provider: 'gemini', kind: 'chat' })).toBe(2);
    // Embeddings: the indexing (worker) and the query embeddings (API), summed into one series.
    expect(sample(text, 'scopegraph_llm_calls_total', { provider: 'local', kind: 'embed', outcome: 'ok' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'scopegraph_rerank_cache_hit_ratio', {})).toBeUndefined(); // unlabelled: parsed below
    expect(Number(/^scopegraph_rerank_cache_hit_ratio (\S+)$/m.exec(text)?.[1])).toBeCloseTo(0.5, 5);
    expect(sample(text, 'scopegraph_queue_job_duration_seconds_count', { queue: 'index', job: 'index-repository', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'scopegraph_queue_job_duration_seconds_count', { queue: 'rerank', outcome: 'completed' })).toBe(2);
    expect(sample(text, 'scopegraph_queue_jobs', { queue: 'rerank', state: 'completed' })).toBe(2);
    expect(sample(text, 'scopegraph_index_size', { repository: name, item: 'scopes' })).toBeGreaterThan(50);
    expect(sample(text, 'scopegraph_metrics_source_up', { source: 'index' })).toBe(1);
  });

  it('serves the queue board at /queues to the admin key only', async () => {
    const base = stack.url.replace(/\/graphql$/, '/queues');
    const refused = await fetch(base);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await fetch(base, { headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
    // A browser sends the key as the Basic auth password.
    const page = await fetch(base, { headers: { authorization: `Basic ${Buffer.from(`admin:${API_KEY}`).toString('base64')}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root"/);
    const api = await fetch(`${base}/api/queues?activeQueue=%7Brerank%7D&status=completed&page=1`, { headers: auth });
    const board = (await api.json()) as { queues: { name: string; counts: Record<string, number> }[] };
    // BullMQ's names carry Redis Cluster hash tags; the board shows them as they are in Redis.
    expect(board.queues.map((q) => q.name).sort()).toEqual(['{ask}', '{embed}', '{index}', '{rerank}', '{system}']);
    expect(board.queues.find((q) => q.name === '{rerank}')!.counts.completed).toBe(2);
  });

  it('needs the API key', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
  });

  it('logs JSON lines whose request id follows the request into its jobs, with secrets redacted', () => {
    const lines = (out: string) => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
    const api = lines(stack.api.output());
    const worker = lines(stack.worker.output());
    expect(api.length).toBeGreaterThan(0);
    expect(worker.length).toBeGreaterThan(0);
    // The index job's completion line and the rerank's summary line carry the ids sent by the client.
    expect(worker.some((l) => l.requestId === 'e2e-index-req' && /job index-repository#\S+ completed/.test(l.msg))).toBe(true);
    expect(worker.some((l) => l.requestId === 'e2e-rerank-req' && /rerank/.test(l.msg))).toBe(true);
    // A request line names the request, not its headers (the key among them).
    const request = api.find((l) => l.req?.id === 'e2e-rerank-req');
    expect(request).toMatchObject({ level: 20, req: { id: 'e2e-rerank-req', method: 'POST', url: '/graphql' }, res: { statusCode: 200 } });
    expect(request?.req.headers).toBeUndefined();
    expect(stack.api.output() + stack.worker.output()).not.toContain(API_KEY);
    expect(stack.api.output() + stack.worker.output()).not.toContain(FAKE_GEMINI_API_KEY);
  });
});
