import { GraphQLError } from 'graphql';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { HealthService } from '@scopegraph/health';
import { QueueService } from '@scopegraph/queue';
import { formatError } from '../../apps/api/src/graphql/errors';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';
import { collect, gql, wsClient } from '../support/graphql-client';
import { numberedScopes, RERANK_PROGRESS, ScopeSeeder, START_RERANK } from '../rerank/support/rerank-harness';
import { OwnRedis } from '../support/own-redis';
import { TcpProxy } from '../support/tcp-proxy';

// Outages of the services the API depends on: answers stay fast and say what is down, nothing the
// caller was refused runs later, and the API recovers by itself.

const HEALTH = '{ health { ok neo4j { ok } redis { ok error } } }';
const PROBE = 'mutation { startProbe(input: { steps: 1, stepDelayMs: 1 }) { id } }';
const SYSTEM = '{ health { queues { name waiting } } }';

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Polls until the condition holds (each poll is a real request), failing after the limit. */
async function until(condition: () => Promise<boolean>, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('Redis outage (a Redis of the test\'s own, stopped and restarted)', () => {
  let redis: OwnRedis;
  let api: RunningApp;
  let url: string;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    // No worker: an accepted job stays waiting, so the counts show what was accepted.
    api = await startApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', REDIS_URL: `redis://127.0.0.1:${redis.port}`, QUEUE_PREFIX: runId('out') }, API_READY);
  });

  afterAll(async () => {
    await api?.stop();
    await redis?.stop();
    redis?.dispose();
  });

  it('answers health within 2 s naming Redis, refuses mutations with 503 SERVICE_UNAVAILABLE, never runs them later, and recovers', async () => {
    expect((await gql(url, PROBE)).body.errors).toBeUndefined();
    const waitingBefore = (await gql(url, SYSTEM)).body.data.health.queues.find((q: { name: string }) => q.name === 'system').waiting;
    expect(waitingBefore).toBe(1);

    await redis.stop();

    const health = await timed(() => gql(url, HEALTH));
    expect(health.ms).toBeLessThan(2_000);
    expect(health.value.body.data.health).toMatchObject({ ok: false, neo4j: { ok: true }, redis: { ok: false } });
    expect(health.value.body.data.health.redis.error).toBeTruthy();

    const refused = await timed(() => gql(url, PROBE));
    expect(refused.ms).toBeLessThan(2_000);
    expect(refused.value.status).toBe(503);
    expect(refused.value.body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.value.body.errors?.[0].message).toMatch(/Redis/);

    await redis.start();
    await until(async () => (await gql(url, HEALTH)).body.data?.health?.redis?.ok === true, 15_000);

    // The refused probe was not queued on reconnect; a new one is accepted without restarting the API.
    const waitingAfter = (await gql(url, SYSTEM)).body.data.health.queues.find((q: { name: string }) => q.name === 'system').waiting;
    expect(waitingAfter).toBe(waitingBefore);
    expect((await gql(url, PROBE)).body.errors).toBeUndefined();
    expect(api.output()).not.toMatch(/Unhandled error event/);
  });
});

describe('Neo4j outage (the connection to it cut and restored)', () => {
  const REPOSITORIES = '{ repositories { name } }';
  let proxy: TcpProxy;
  let api: RunningApp;
  let url: string;

  beforeAll(async () => {
    // The API reaches the shared Neo4j only through a proxy the test cuts: to the API that is Neo4j
    // gone (connections reset, the port refused), without stopping the Neo4j other specs use.
    const target = new URL(loadConfig().neo4j.uri);
    proxy = new TcpProxy(await freePort(), { host: target.hostname, port: Number(target.port || 7687) });
    await proxy.start();
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`, QUEUE_PREFIX: runId('n4jdown') }, API_READY);
  });

  afterAll(async () => {
    await api?.stop();
    await proxy?.cut();
  });

  it('answers health within 2 s naming Neo4j, fails reads with 503 SERVICE_UNAVAILABLE within the retry budget, and recovers without a restart', async () => {
    const before = await gql(url, REPOSITORIES);
    expect(before.body.errors).toBeUndefined();
    expect(Array.isArray(before.body.data.repositories)).toBe(true);

    await proxy.cut();

    const health = await timed(() => gql(url, HEALTH));
    expect(health.ms).toBeLessThan(2_000);
    expect(health.value.body.data.health).toMatchObject({ ok: false, neo4j: { ok: false }, redis: { ok: true } });

    // One driver retry about a second later (NEO4J_MAX_RETRY_MS), then the caller is told.
    const refused = await timed(() => gql(url, REPOSITORIES));
    expect(refused.ms).toBeLessThan(3_000);
    expect(refused.value.status).toBe(503);
    expect(refused.value.body.errors?.[0]).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' }, message: expect.stringMatching(/Neo4j/) });

    await proxy.start();
    await until(async () => (await gql(url, HEALTH)).body.data?.health?.neo4j?.ok === true, 30_000);
    const after = await gql(url, REPOSITORIES);
    expect(after.body.errors).toBeUndefined();
    expect(Array.isArray(after.body.data.repositories)).toBe(true);
    expect(api.output()).not.toMatch(/INTERNAL_SERVER_ERROR|unexpected error/);
  });
});

describe('Neo4j unreachable (a driver pointed at a closed port)', () => {
  let neo4j: Neo4jService;
  let queues: QueueService;

  beforeAll(async () => {
    const closed = await freePort();
    const config = loadConfig({ ...process.env, NEO4J_URI: `bolt://127.0.0.1:${closed}`, NEO4J_MAX_RETRY_MS: '500', QUEUE_PREFIX: runId('n4j') });
    neo4j = new Neo4jService(config, new CypherFiles());
    queues = new QueueService(config);
    await queues.ready(10_000);
  });

  afterAll(async () => {
    await queues?.onModuleDestroy();
    await neo4j?.onModuleDestroy();
  });

  it('health answers within 2 s naming Neo4j', async () => {
    const health = await timed(() => new HealthService(neo4j, queues).report());
    expect(health.ms).toBeLessThan(2_000);
    expect(health.value.ok).toBe(false);
    expect(health.value.neo4j.ok).toBe(false);
    expect(health.value.redis.ok).toBe(true);
  });

  it('a read fails fast and reaches clients as SERVICE_UNAVAILABLE', async () => {
    const started = performance.now();
    const error = await neo4j.read('health/components').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    const wrapped = new GraphQLError((error as Error).message, { path: ['search'], originalError: error as Error });
    expect(formatError(wrapped.toJSON(), wrapped)).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' }, message: expect.stringMatching(/Neo4j/) });
  });
});

describe('a rerank whose state Redis lost', () => {
  const seeder = new ScopeSeeder();
  const repo = runId('lostrr');
  const prefix = runId('lost');
  let api: RunningApp;
  let url: string;
  let ids: string[];
  let queues: QueueService;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    // No worker and an unreachable model: the rerank stays running until its deadline.
    api = await startApp(
      'api',
      { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', QUEUE_PREFIX: prefix, RERANK_PROVIDER: 'gemini', GEMINI_API_KEY: 'unused', GEMINI_BASE_URL: 'http://127.0.0.1:9' },
      API_READY,
    );
    ids = await seeder.seed(repo, numberedScopes(8));
    queues = new QueueService(loadConfig({ ...process.env, QUEUE_PREFIX: prefix }));
    await queues.ready(10_000);
  });

  afterAll(async () => {
    await api?.stop();
    await seeder.close();
    await queues?.onModuleDestroy();
  });

  it('ends its subscription with NOT_FOUND at the deadline instead of leaving it silent', async () => {
    const started = await gql(url, START_RERANK, { input: { question: 'which one?', scopeIds: ids, options: { limit: 2, timeoutMs: 1_000 } } });
    expect(started.body.errors).toBeUndefined();
    const jobId = started.body.data.startRerank.jobId as string;
    const client = wsClient(url);
    try {
      const outcome = collect(client, RERANK_PROGRESS, { jobId }, 20_000).then(
        (events) => ({ events, error: undefined as string | undefined }),
        (error: Error) => ({ events: [], error: error.message }),
      );
      // Once the subscriber listens (it reads the state right after), remove what a Redis restart
      // without persistence removes: every key of the rerank.
      await Promise.race([
        until(async () => ((await queues.redis.pubsub('NUMSUB', `${prefix}:rerank-events:${jobId}`)) as [string, number])[1] === 1, 10_000),
        outcome.then((o) => {
          throw new Error(`subscription ended before the state was removed: ${JSON.stringify(o)} ${JSON.stringify(started.body)}`);
        }),
      ]);
      // SCAN pages through the whole keyspace (the suite's shared Redis holds many other keys).
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, page] = await queues.redis.scan(cursor, 'MATCH', `${prefix}:rerank:{${jobId}}:*`, 'COUNT', 1000);
        keys.push(...page);
        cursor = next;
      } while (cursor !== '0');
      expect(keys.length).toBeGreaterThan(0);
      await queues.redis.del(...keys);
      const { error } = await outcome;
      expect(error).toMatch(/NOT_FOUND/);
      expect(error).toMatch(/was lost/);
      expect(error).toMatch(new RegExp(jobId));
    } finally {
      await client.dispose();
    }
  });
});
