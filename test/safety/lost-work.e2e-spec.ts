import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { QueueName, QueueService } from '@scopegraph/queue';
import { FakeCohere, FakeOpenAiEmbeddings, OpenAiEmbeddingsRequest, RerankApiRequest } from '../fakes/fake-model-apis';
import { numberedScopes, RERANK_PROGRESS, RERANK_RESULT, ScopeSeeder, START_RERANK } from '../rerank/support/rerank-harness';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { OwnRedis } from '../support/own-redis';
import { API_READY, freePort, runId, RunningApp, startApp, WORKER_READY } from '../support/processes';

// Work that Redis refused or lost: a job the caller was refused never runs later; a subscription to
// work Redis lost ends with a clear error; the repository of a lost index job says so and a new run
// completes it. Each against a Redis of the test's own, frozen (SIGSTOP) or killed and restarted.

const PROBE = 'mutation { startProbe(input: { steps: 1, stepDelayMs: 1 }) { id } }';
const INDEX = 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id queue } }';
const ASK = 'mutation($input: AskInput!) { ask(input: $input) { id } }';
const HEALTH = '{ health { redis { ok } } }';

describe('a job refused while Redis is frozen (SIGSTOP) never runs', () => {
  const repo = runId('frozen');
  const prefix = runId('frz');
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  let redis: OwnRedis;
  let api: RunningApp;
  let url: string;
  let queues: QueueService;

  // No worker: an accepted job stays waiting, so the queues show exactly what was accepted.
  beforeAll(async () => void ({ redis, api, url, queues } = await startWorkerlessApi(neo4j, repo, prefix, true)));

  afterAll(() => stopWorkerlessApi(neo4j, repo, { api, queues, redis }));

  const waiting = async () => Object.fromEntries((await queues.counts()).map((c) => [c.name, c.waiting + c.delayed + c.active]));

  it('answers 503 for indexRepository, ask and startProbe, and after the thaw none of them is in a queue', async () => {
    const requests = [
      () => gql(url, PROBE),
      () => gql(url, INDEX, { input: { path: FIXTURE, name: repo } }),
      () => gql(url, ASK, { input: { question: 'where is the parser?', repository: repo } }),
      () => gql(url, PROBE),
    ];
    // Accepted while Redis answers: one of each is queued.
    for (const request of requests.slice(0, 3)) expect((await request()).body.errors).toBeUndefined();
    const before = await waiting();
    expect(before).toMatchObject({ [QueueName.SYSTEM]: 1, [QueueName.INDEX]: 1, [QueueName.ASK]: 1 });

    redis.freeze();
    let refused;
    try {
      refused = await Promise.all(requests.map((r) => r()));
    } finally {
      redis.thaw();
    }
    for (const { status, body } of refused) {
      expect(status).toBe(503);
      expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' }, message: expect.stringMatching(/Redis/) });
    }

    // The API's connection is one socket and Redis answers it in order: once a health check sent
    // after the refused adds is answered, every one of them has reached Redis.
    let healthy = false;
    while (!healthy) healthy = (await gql(url, HEALTH)).body.data?.health?.redis?.ok === true;
    expect(await waiting()).toEqual(before);
    // They did reach Redis, late: each found its id taken by a refusal.
    const refusals: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await queues.redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      for (const key of keys) if ((await queues.redis.type(key)) === 'hash' && (await queues.redis.hget(key, 'name')) === 'refused') refusals.push(key);
      cursor = next;
    } while (cursor !== '0');
    expect(refusals).toHaveLength(requests.length);

    // And the API takes new jobs at once, without a restart.
    expect((await gql(url, PROBE)).body.errors).toBeUndefined();
    expect((await waiting())[QueueName.SYSTEM]).toBe(before[QueueName.SYSTEM] + 1);
  });

  it('judges only runs of its own queue: another deployment\'s running index stays INDEXING, its own missing job is FAILED', async () => {
    const foreign = runId('foreign');
    const own = runId('ownlost');
    const epoch = await queues.epoch();
    const ids = { [foreign]: 'ix0badf00d0123456789abcdef', [own]: `ix${epoch}0123456789abcdef` };
    for (const [id, jobId] of Object.entries(ids)) {
      await neo4j.runStatement("MERGE (r:Repository {id: $id}) SET r.name = $id, r.rootPath = $path, r.indexStatus = 'INDEXING', r.indexJobId = $jobId", { id, path: FIXTURE, jobId });
    }
    try {
      const { body } = await gql(url, '{ repositories { name indexStatus indexError } }');
      const status = Object.fromEntries(body.data.repositories.filter((r: any) => r.name in ids).map((r: any) => [r.name, r.indexStatus]));
      expect(status).toEqual({ [foreign]: 'INDEXING', [own]: 'FAILED' });
    } finally {
      await neo4j.runStatement('MATCH (r:Repository) WHERE r.id IN $ids DETACH DELETE r', { ids: Object.keys(ids) });
    }
  });
});

/** A promise to open later: what a test gates on instead of a sleep. */
function gate<T = void>(): { opened: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

/** Subscribes; `onEvent` sees each event; resolves with the events and the error the stream ended with. */
function watch(url: string, query: string, variables: Record<string, unknown>, onEvent: (data: any) => void) {
  const client = wsClient(url);
  const events: any[] = [];
  const ended = new Promise<{ events: any[]; error?: string }>((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (value) => {
          events.push(value.data);
          onEvent(value.data);
        },
        error: (error) => resolve({ events, error: JSON.stringify(error instanceof Error ? error.message : error) }),
        complete: () => resolve({ events }),
      },
    );
  });
  return { ended, dispose: () => client.dispose() };
}

describe('a rerank whose Redis is killed and restarted empty after two batches', () => {
  const seeder = new ScopeSeeder();
  const repo = runId('lostrr');
  const prefix = runId('lrr');
  const held = gate();
  let cohere: FakeCohere;
  let redis: OwnRedis;
  let api: RunningApp;
  let worker: RunningApp;
  let url: string;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort(), false);
    await redis.start();
    cohere = await FakeCohere.start('cohere-key');
    // The first two batches are scored at once; the rest wait on the model until the test is over.
    let calls = 0;
    cohere.reply(async (request: RerankApiRequest) => {
      if (++calls > 2) await held.opened;
      return { results: request.documents.map((_, index) => ({ index, relevance_score: 0.5 })) };
    });
    const env = { REDIS_URL: redis.url, QUEUE_PREFIX: prefix, RERANK_PROVIDER: 'cohere', COHERE_API_KEY: 'cohere-key', COHERE_BASE_URL: cohere.baseUrl };
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    [api, worker] = await Promise.all([startApp('api', { ...env, API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '' }, API_READY), startApp('worker', env, WORKER_READY)]);
  });

  afterAll(async () => {
    held.open();
    await Promise.all([api?.stop(), worker?.stop()]);
    await cohere?.close();
    await redis?.stop();
    redis?.dispose();
    await seeder.close();
  });

  it('ends rerankProgress with JOB_LOST long before its deadline, and rerankResult answers JOB_LOST', async () => {
    const ids = await seeder.seed(repo, numberedScopes(20));
    // A deadline far beyond this test's time limit: only noticing the loss can end the stream in time.
    const options = { batchSize: 2, parallel: 2, timeoutMs: 600_000, batchTimeoutMs: 600_000 };
    const started = await gql(url, START_RERANK, { input: { question: 'which one?', scopeIds: ids, options } });
    expect(started.body.errors).toBeUndefined();
    const jobId = started.body.data.startRerank.jobId as string;

    const twoDone = gate();
    const stream = watch(url, RERANK_PROGRESS, { jobId }, (data) => data?.rerankProgress?.done >= 2 && twoDone.open());
    try {
      await twoDone.opened;
      await redis.kill();
      await redis.start();
      const { events, error } = await stream.ended;
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.rerankProgress.kind === 'PROGRESS')).toBe(true);
      expect(error).toMatch(/JOB_LOST/);
      expect(error).toContain(jobId);
      expect(error).toContain('was lost');
    } finally {
      await stream.dispose();
    }
    const result = await gql(url, RERANK_RESULT, { jobId });
    expect(result.body.errors?.[0]).toMatchObject({ extensions: { code: 'JOB_LOST' }, message: expect.stringContaining(`rerank "${jobId}" was lost`) });
  }, 30_000);
});

describe('an index job lost with Redis (worker and Redis killed mid-run, Redis restarted empty)', () => {
  const INDEX_PROGRESS = 'subscription($id: ID!) { indexProgress(jobId: $id) { phase scopes embedded result failedReason } }';
  const REPOSITORY = 'query($n: String!) { repository(name: $n) { name files scopes edges embedded indexStatus indexJobId indexError } }';
  const DIMENSIONS = 384;
  const name = runId('lostix');
  const prefix = runId('lix');
  const embeddingStarted = gate();
  const held = gate();
  let holding = false;
  let embeddings: FakeOpenAiEmbeddings;
  let redis: OwnRedis;
  let api: RunningApp;
  let worker: RunningApp;
  let restarted: RunningApp | undefined;
  let url: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort(), false);
    await redis.start();
    embeddings = await FakeOpenAiEmbeddings.start();
    // While `holding`, the first embedding request says so and waits: the run is then past writing its
    // scopes and edges, before its embeddings and its counts.
    embeddings.reply(async (request: OpenAiEmbeddingsRequest) => {
      if (holding) {
        embeddingStarted.open();
        await held.opened;
      }
      return { data: request.input.map((text, index) => ({ index, embedding: Array.from({ length: DIMENSIONS }, (_, i) => ((text.length + i) % 7) + 1) })) };
    });
    env = {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_OPENAI_BASE_URL: `${embeddings.baseUrl}/v1`,
      EMBEDDING_MODEL: 'fake-embedding',
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
    };
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    [api, worker] = await Promise.all([startApp('api', { ...env, API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '' }, API_READY), startApp('worker', env, WORKER_READY)]);
  });

  afterAll(async () => {
    held.open();
    await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    // A SIGKILLed child has no exit code, so stop() would wait for an exit that already happened.
    await Promise.all([api?.stop(), worker?.process.signalCode ? undefined : worker?.stop(), restarted?.stop()]);
    await embeddings?.close();
    await redis?.stop();
    redis?.dispose();
  });

  it('ends indexProgress with JOB_LOST, lists the repository FAILED with the reason, and a new run completes it', async () => {
    holding = true;
    const started = await gql(url, INDEX, { input: { path: FIXTURE, name } });
    expect(started.body.errors).toBeUndefined();
    const jobId = started.body.data.indexRepository.id as string;
    const stream = watch(url, INDEX_PROGRESS, { id: jobId }, () => undefined);
    try {
      await embeddingStarted.opened;
      worker.process.kill('SIGKILL');
      await redis.kill();
      await redis.start();
      const { events, error } = await stream.ended;
      expect(events.every((e) => e.indexProgress.phase !== 'done')).toBe(true);
      expect(error).toMatch(/JOB_LOST/);
      expect(error).toContain(jobId);
    } finally {
      await stream.dispose();
    }

    const lost = (await gql(url, REPOSITORY, { n: name })).body.data.repository;
    expect(lost).toMatchObject({ indexStatus: 'FAILED', indexJobId: jobId, files: null, scopes: null });
    expect(lost.indexError).toMatch(new RegExp(`index job ${jobId} was lost`));

    holding = false;
    held.open();
    restarted = await startApp('worker', env, WORKER_READY);
    const again = await gql(url, INDEX, { input: { path: FIXTURE, name } });
    expect(again.body.errors).toBeUndefined();
    const client = wsClient(url);
    let final: any;
    try {
      const events = await collect(client, INDEX_PROGRESS, { id: again.body.data.indexRepository.id }, 90_000);
      final = events[events.length - 1].data!.indexProgress;
    } finally {
      await client.dispose();
    }
    expect(final.phase).toBe('done');
    const complete = (await gql(url, REPOSITORY, { n: name })).body.data.repository;
    expect(complete).toMatchObject({ indexStatus: 'INDEXED', indexError: null, files: final.result.files.indexed, scopes: final.result.scopes.total, embedded: final.result.scopes.total });
    expect(complete.scopes).toBeGreaterThan(0);
    // It carried on from what the lost run had written: the scopes were there, their embeddings were not.
    expect(final.result.scopes.added).toBe(0);
    expect(final.result.embeddedThisRun).toBe(final.result.scopes.total);
  }, 150_000);
});

describe('an ask lost with Redis (killed while the ask waits for a worker, restarted empty)', () => {
  const ASK_PROGRESS = 'subscription($id: ID!) { askProgress(id: $id) { seq kind message } }';
  const ASK_RESULT = 'query($id: ID!) { askResult(id: $id) { status message } }';
  const repo = runId('lostask');
  const prefix = runId('lask');
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  let redis: OwnRedis;
  let api: RunningApp;
  let url: string;
  let queues: QueueService;

  // No worker: the ask waits in its queue, its subscriber waits for events.
  beforeAll(async () => void ({ redis, api, url, queues } = await startWorkerlessApi(neo4j, repo, prefix, false)));

  afterAll(() => stopWorkerlessApi(neo4j, repo, { api, queues, redis }));

  it('ends askProgress with an ERROR event saying it was lost, and askResult answers JOB_LOST', async () => {
    const asked = await gql(url, ASK, { input: { question: 'where is the parser?', repository: repo } });
    expect(asked.body.errors).toBeUndefined();
    const askId = asked.body.data.ask.id as string;
    const stream = watch(url, ASK_PROGRESS, { id: askId }, () => undefined);
    try {
      // Gate on Redis itself: the API's subscriber is on the ask's channel.
      const channel = `${prefix}:ask-events:${askId}`;
      while (((await queues.redis.pubsub('NUMSUB', channel)) as [string, number])[1] < 1);
      await redis.kill();
      await redis.start();
      const { events, error } = await stream.ended;
      expect(error).toBeUndefined();
      expect(events.map((e) => e.askProgress.kind)).toEqual(['ERROR']);
      expect(events[0].askProgress.message).toMatch(/^the ask was lost: Redis lost its data/);
    } finally {
      await stream.dispose();
    }
    const result = await gql(url, ASK_RESULT, { id: askId });
    expect(result.body.errors?.[0]).toMatchObject({ extensions: { code: 'JOB_LOST' }, message: expect.stringContaining(`ask "${askId}" was lost`) });
  }, 60_000);
});

/**
 * An API with no worker, on a Redis of the test's own (`persist`: keeps its data over a restart), and
 * the repository ask and index refer to; its queues read directly.
 */
async function startWorkerlessApi(neo4j: Neo4jService, repo: string, prefix: string, persist: boolean) {
  const redis = new OwnRedis(await freePort(), persist);
  await redis.start();
  // ask refuses a repository that is not in the graph.
  await neo4j.runStatement('MERGE (r:Repository {id: $id}) SET r.name = $id, r.rootPath = $path', { id: repo, path: FIXTURE });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  const api = await startApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', REDIS_URL: redis.url, QUEUE_PREFIX: prefix }, API_READY);
  const queues = new QueueService(loadConfig({ ...process.env, REDIS_URL: redis.url, QUEUE_PREFIX: prefix }));
  await queues.ready(10_000);
  return { redis, api, url, queues };
}

async function stopWorkerlessApi(neo4j: Neo4jService, repo: string, s: { api?: RunningApp; queues?: QueueService; redis?: OwnRedis }): Promise<void> {
  await s.api?.stop();
  await s.queues?.onModuleDestroy();
  await s.redis?.stop();
  s.redis?.dispose();
  await neo4j.runStatement('MATCH (r:Repository {id: $id}) DETACH DELETE r', { id: repo });
  await neo4j.onModuleDestroy();
}
