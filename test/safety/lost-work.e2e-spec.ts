import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { QueueName, QueueService } from '@scopegraph/queue';
import { gql } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { OwnRedis } from '../support/own-redis';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';

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

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    // ask refuses a repository that is not in the graph.
    await neo4j.runStatement('MERGE (r:Repository {id: $id}) SET r.name = $id, r.rootPath = $path', { id: repo, path: FIXTURE });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    // No worker: an accepted job stays waiting, so the queues show exactly what was accepted.
    api = await startApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', REDIS_URL: redis.url, QUEUE_PREFIX: prefix }, API_READY);
    queues = new QueueService(loadConfig({ ...process.env, REDIS_URL: redis.url, QUEUE_PREFIX: prefix }));
    await queues.ready(10_000);
  });

  afterAll(async () => {
    await api?.stop();
    await queues?.onModuleDestroy();
    await redis?.stop();
    redis?.dispose();
    await neo4j.runStatement('MATCH (r:Repository {id: $id}) DETACH DELETE r', { id: repo });
    await neo4j.onModuleDestroy();
  });

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
});
