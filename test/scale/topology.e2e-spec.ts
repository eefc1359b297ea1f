import { Redis } from 'ioredis';
import { loadConfig } from '@scopegraph/config';
import { createRedisConnection } from '@scopegraph/queue';
import { askModel, evidenceIds, openAiReply } from '../fakes/ask-scripts';
import { FakeCohere, FakeOpenAiChat, FakeOpenAiEmbeddings } from '../fakes/fake-model-apis';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { API_READY, freePort, runId, RunningApp, startApp, WORKER_READY } from '../support/processes';

const DIMENSIONS = 384;
/** Small slices, so the fixture's few hundred scopes become enough jobs for three workers. */
const SLICE = 24;
const INDEX = 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }';
const INDEX_PROGRESS = 'subscription($id: ID!) { indexProgress(jobId: $id) { phase scopes embedded toEmbed result failedReason } }';
const REPOS = '{ repositories { name scopes embedded indexStatus indexRun { phase scopesWritten embedded toEmbed } } }';
const SEARCH = 'query($i: SearchInput!) { search(input: $i) { results { scope { id name } } warnings explain } }';
const START_RERANK = 'mutation($input: StartRerankInput!) { startRerank(input: $input) { jobId status } }';
const RERANK_PROGRESS = 'subscription($jobId: ID!) { rerankProgress(jobId: $jobId) { kind status done total } }';
const ASK = 'mutation($input: AskInput!) { ask(input: $input) { id } }';
const ASK_PROGRESS = 'subscription($id: ID!) { askProgress(id: $id) { kind result { answer } } }';
/** Only a safety net: the gate opens on what the test sees; if it never does, the test fails here instead of hanging. */
const WAIT_MS = 40_000;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The scale-out topology on this machine: two API processes and three worker processes against one
 * Neo4j (through a routing neo4j:// URI) and one Redis, models replaced by protocol-faithful fakes.
 * Work started through API 2 is followed on API 1; the index's embedding runs as slices on all three
 * workers at once; one of them is killed in the middle and nothing is lost.
 */
describe('scale-out: 2 APIs, 3 workers, one Neo4j (neo4j://) and one Redis', () => {
  const h = new IngestHarness();
  const repo = runId('topo');
  const prefix = runId('topo');
  const redis: Redis = createRedisConnection(loadConfig().redis.url);
  let embeddings: FakeOpenAiEmbeddings;
  let chat: FakeOpenAiChat;
  let cohere: FakeCohere;
  const apis: RunningApp[] = [];
  const workers: RunningApp[] = [];
  const urls: string[] = [];
  // Embedding requests wait here until the test has looked at the half-indexed repository.
  let held = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));

  beforeAll(async () => {
    await h.init();
    embeddings = await FakeOpenAiEmbeddings.start();
    embeddings.reply(async (request) => {
      held++;
      await opened;
      return { data: request.input.map((text, index) => ({ index, embedding: Array.from({ length: DIMENSIONS }, (_, i) => 1 + ((text.charCodeAt(i % Math.max(text.length, 1)) || 0) % 7)) })) };
    });
    chat = await FakeOpenAiChat.start();
    cohere = await FakeCohere.start();
    const neo4jUri = h.config.neo4j.uri.replace(/^bolt:/, 'neo4j:');
    expect(neo4jUri).toMatch(/^neo4j:\/\//);
    const env = {
      QUEUE_PREFIX: prefix,
      NEO4J_URI: neo4jUri,
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_OPENAI_BASE_URL: `${embeddings.baseUrl}/v1`,
      EMBEDDING_MODEL: 'fake-embedding',
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
      EMBEDDING_OPENAI_CONCURRENCY: '1',
      EMBEDDING_BATCH_SIZE: String(SLICE),
      INGEST_EMBED_SLICE: String(SLICE),
      // One slice per worker at a time: three requests in flight at once are then three workers.
      INGEST_EMBED_CONCURRENCY: '1',
      CHAT_PROVIDER: 'openai',
      CHAT_OPENAI_BASE_URL: `${chat.baseUrl}/v1`,
      CHAT_MODEL: 'llama3',
      RERANK_PROVIDER: 'cohere',
      COHERE_API_KEY: 'fake-cohere-key',
      COHERE_BASE_URL: cohere.baseUrl,
    };
    const ports = [await freePort(), await freePort()];
    urls.push(...ports.map((p) => `http://127.0.0.1:${p}/graphql`));
    const started = await Promise.all([
      ...ports.map((p) => startApp('api', { ...env, API_PORT: String(p) }, API_READY)),
      ...[0, 1, 2].map(() => startApp('worker', env, WORKER_READY)),
    ]);
    apis.push(...started.slice(0, 2));
    workers.push(...started.slice(2));
  });

  afterAll(async () => {
    open?.();
    if (urls[0]) await gql(urls[0], 'mutation($n: String!) { deleteRepository(name: $n) }', { n: repo }).catch(() => undefined);
    await Promise.all([...apis, ...workers].map((a) => a.stop()));
    await Promise.all([embeddings?.close(), chat?.close(), cohere?.close()]);
    await h.dispose([]);
    redis.disconnect();
  });

  const search = async (url: string, input: Record<string, unknown>) => {
    const { body } = await gql(url, SEARCH, { i: { repository: repo, ...input } });
    expect(body.errors).toBeUndefined();
    return body.data.search as { results: { scope: { id: string; name: string } }[]; warnings: string[]; explain: any };
  };

  it('indexes through API 2 while API 1 follows it, searchable before the first vector, embedding spread over the workers, a killed worker losing nothing', async () => {
    const started = await gql(urls[1], INDEX, { input: { path: FIXTURE, name: repo } });
    expect(started.body.errors).toBeUndefined();
    const jobId = started.body.data.indexRepository.id;
    const client = wsClient(urls[0]);
    const events = collect(client, INDEX_PROGRESS, { id: jobId }, 80_000).then((all) => all.map((e) => e.data!.indexProgress));
    events.catch(() => undefined);

    // Every slice's first request waits at the gate: three at once, one per worker (each takes one slice at a time).
    await until('three workers embedding at once', async () => (held >= 3 ? true : undefined));
    expect(embeddings.maxInFlight()).toBe(3);
    // Partial state, said: API 1 lists the run with every scope written and no vector yet.
    const listed = await until('the run listed in its embedding phase', async () => {
      const { body } = await gql(urls[0], REPOS);
      const r = body.data.repositories.find((x: any) => x.name === repo);
      return r?.indexRun?.phase === 'embedding' ? r : undefined;
    });
    expect(listed.indexStatus).toBe('INDEXING');
    expect(listed.indexRun.scopesWritten).toBeGreaterThan(100);
    expect(listed.indexRun).toMatchObject({ embedded: 0, toEmbed: listed.indexRun.scopesWritten });
    expect(listed.scopes).toBe(listed.indexRun.scopesWritten);
    const [{ n: vectors }] = await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $repo}) WHERE s.embedding IS NOT NULL RETURN count(s) AS n', { repo });
    expect(vectors).toBe(0);
    // Keyword, exact-string and graph answers before the first vector is written; hybrid says what its vector list saw.
    expect((await search(urls[0], { text: 'InvoiceRepository', mode: 'BM25' })).results.map((r) => r.scope.name)).toContain('InvoiceRepository');
    expect((await search(urls[1], { text: '"summarize([])"', mode: 'BM25' })).results.length).toBeGreaterThan(0);
    expect((await search(urls[0], { text: 'who calls summarize', mode: 'GRAPH', language: 'typescript' })).results.map((r) => r.scope.name)).toContain('main');
    const hybrid = await search(urls[1], { text: 'summarize invoices' });
    expect(hybrid.results.length).toBeGreaterThan(0);
    expect(hybrid.explain.vectorCoverage).toMatchObject({ embedded: 0, scopes: listed.indexRun.scopesWritten, share: 0, indexing: 1 });
    expect(hybrid.warnings.join(' ')).toMatch(/semantic list covered 0 of \d+ scopes \(0%\): an index is still embedding/);

    // Kill a worker that is embedding a slice but not holding the index job (its lock names the holder's pid).
    const holder = await redis.get(`${prefix}:lock:index:${repo}`);
    const holderPid = Number(/pid (\d+)/.exec(holder ?? '')?.[1]);
    const victim = workers.find((w) => w.process.pid !== holderPid)!;
    const exited = new Promise((r) => victim.process.once('exit', r));
    victim.process.kill('SIGKILL');
    await exited;
    open();

    const all = await events;
    await client.dispose();
    const final = all[all.length - 1];
    expect(final.phase).toBe('done');
    expect(final.result.embeddingError ?? null).toBeNull();
    expect(final.result.embedded).toBe(final.result.scopes.total);
    // One progress stream: the embedded count rose through the slices' work, never went back.
    const counts = all.filter((e) => e.phase === 'embedding').map((e) => e.embedded);
    expect(new Set(counts).size).toBeGreaterThan(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const [{ n: missing }] = await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $repo}) WHERE s.embedding IS NULL RETURN count(s) AS n', { repo });
    expect(missing).toBe(0);
    // A scope is embedded once: only the killed worker's slice in flight was asked again.
    const asked = embeddings.requests.reduce((n, r) => n + r.body.input.length, 0);
    expect(asked).toBeGreaterThanOrEqual(final.result.scopes.total - final.result.embedding.cacheHits - final.result.embedding.graphReused - final.result.embedding.duplicates);
    expect(asked).toBeLessThanOrEqual(final.result.scopes.total + SLICE);
    // Slices ran on every worker that lived (each logs the jobs it completed).
    const survivors = workers.filter((w) => w !== victim);
    for (const w of survivors) expect(w.output()).toMatch(/job embed-chunk#\S+ completed/);
    // After the index, hybrid's vector list sees every scope.
    const after = await search(urls[0], { text: 'summarize invoices' });
    expect(after.explain.vectorCoverage).toMatchObject({ share: 1, indexing: 0 });
    expect(after.warnings.join(' ')).not.toMatch(/semantic list covered/);
  });

  it('follows on API 1 a rerank started through API 2, its batches on the surviving workers', async () => {
    const ids = (await search(urls[0], { text: 'invoice', mode: 'BM25', topK: 6 })).results.map((r) => r.scope.id);
    expect(ids.length).toBe(6);
    const { body } = await gql(urls[1], START_RERANK, { input: { question: 'where are invoices summarised?', scopeIds: ids, options: { batchSize: 2, limit: 2 } } });
    expect(body.errors).toBeUndefined();
    const client = wsClient(urls[0]);
    try {
      const events = (await collect(client, RERANK_PROGRESS, { jobId: body.data.startRerank.jobId }, 30_000)).map((e) => e.data!.rerankProgress);
      expect(events[events.length - 1]).toMatchObject({ kind: 'COMPLETED', done: 3, total: 3 });
    } finally {
      await client.dispose();
    }
    expect(cohere.requests.filter((r) => r.status === 200)).toHaveLength(3);
  });

  it('follows on API 1 an ask started through API 2', async () => {
    const model = askModel({ router: '[BM25:] summarize', answer: (req) => `[Answer:] summarize lists invoices [cite:${evidenceIds(req)[0]}].` });
    chat.reply(openAiReply(model));
    const { body } = await gql(urls[1], ASK, { input: { question: 'what does summarize do?', repository: repo } });
    expect(body.errors).toBeUndefined();
    const client = wsClient(urls[0]);
    try {
      const events = (await collect(client, ASK_PROGRESS, { id: body.data.ask.id }, 60_000)).map((e) => e.data!.askProgress);
      const last = events[events.length - 1];
      expect(last.kind).toBe('FINAL');
      expect(last.result.answer).toMatch(/summarize lists invoices/);
    } finally {
      await client.dispose();
    }
  });
});
