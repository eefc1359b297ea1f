import { Queue } from 'bullmq';
import { loadConfig } from '@scopegraph/config';
import { bullQueueName, createRedisConnection, QueueName } from '@scopegraph/queue';
import { collect, gql, wsClient } from '../support/graphql-client';
import { API_READY, freePort, runApp, runId, RunningApp, RunningStack, startApp, startStack } from '../support/processes';

const HEALTH = '{ health { ok neo4j { ok version edition indexes { name type state online } } redis { ok version } queues { name waiting active failed } } }';
const START_PROBE = 'mutation($input: ProbeInput) { startProbe(input: $input) { id queue name } }';
const JOB_EVENTS = 'subscription($jobId: ID!) { jobEvents(queue: SYSTEM, jobId: $jobId) { jobId kind progress result failedReason } }';

describe('API and worker processes (real Neo4j + Redis)', () => {
  let stack: RunningStack;
  let api: RunningApp;
  let worker: RunningApp;
  let url: string;

  beforeAll(async () => {
    stack = await startStack('api');
    ({ api, worker, url } = stack);
  });

  afterAll(() => stack?.stop());

  it('answers the health query over HTTP with Neo4j and Redis versions', async () => {
    const { status, body } = await gql(url, HEALTH);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const health = body.data.health;
    expect(health.ok).toBe(true);
    expect(health.neo4j.version).toMatch(/^\d{4}\.\d{2}\.\d+$|^5\.\d+\.\d+$/);
    expect(health.neo4j.edition).toBe('community');
    expect(health.neo4j.indexes.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['scope_embedding', 'scope_fulltext']));
    expect(health.neo4j.indexes.every((i: { online: boolean }) => i.online)).toBe(true);
    expect(health.redis.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(health.queues.map((q: { name: string }) => q.name).sort()).toEqual(['ask', 'embed', 'index', 'rerank', 'system']);
  });

  it("keeps idle connections for 65 s, so clients' keep-alive reuse never meets a socket the server is closing", async () => {
    // Clients reuse an idle connection until the server's hint less a margin: Node's 5 s left clients
    // that paused ~4-5 s sending on a closing socket ("other side closed").
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: HEALTH }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('runs a job in the worker process and streams its progress over graphql-ws', async () => {
    const steps = 4;
    const started = await gql(url, START_PROBE, { input: { steps, stepDelayMs: 150 } });
    expect(started.body.errors).toBeUndefined();
    const jobId = started.body.data.startProbe.id;

    const client = wsClient(url);
    try {
      const events = await collect(client, JOB_EVENTS, { jobId });
      const payloads = events.map((e) => e.data!.jobEvents);
      const progress = payloads.filter((p) => p.kind === 'PROGRESS').map((p) => p.progress.step);
      const final = payloads[payloads.length - 1];
      expect(final.kind).toBe('COMPLETED');
      // Progress may start after the first step if the subscription attached late, but it is ordered
      // and ends at the last step.
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress[progress.length - 1]).toBe(steps);
      expect(final.result.workerPid).toBe(worker.process.pid);
      expect(final.result.workerPid).not.toBe(api.process.pid);
      expect(final.result.neo4jVersion).toMatch(/\d/);
    } finally {
      await client.dispose();
    }

    const status = await gql(url, 'query($id: ID!) { job(queue: SYSTEM, id: $id) { state result attemptsMade } }', { id: jobId });
    expect(status.body.data.job.state).toBe('completed');
    expect(status.body.data.job.result.steps).toBe(steps);
  });

  it('delivers every progress event to a subscriber that attached early, in order and without repeats', async () => {
    // Gated, not timed: the system queue is paused, so the probe waits; the test marks the waiting
    // job's progress itself (step 0) and resumes the queue only once the subscriber has that mark. The
    // subscriber is then attached before the worker's first step, however slow the machine is.
    const redis = createRedisConnection(loadConfig().redis.url);
    const queue = new Queue(bullQueueName(QueueName.SYSTEM), { connection: redis, prefix: stack.prefix });
    await queue.pause();
    let resumed: Promise<void> | undefined;
    const client = wsClient(url);
    try {
      const started = await gql(url, START_PROBE, { input: { steps: 6, stepDelayMs: 20 } });
      const jobId = started.body.data.startProbe.id;
      const collecting = collect(client, JOB_EVENTS, { jobId }, 60_000, (e) => {
        if (e.data?.jobEvents.progress?.step === 0) resumed ??= queue.resume();
      });
      await (await queue.getJob(jobId))!.updateProgress({ step: 0, total: 6 });
      const events = await collecting;
      const steps = events.map((e) => e.data!.jobEvents).filter((p) => p.kind === 'PROGRESS').map((p) => p.progress.step);
      expect(steps).toEqual([0, 1, 2, 3, 4, 5, 6]);
    } finally {
      await client.dispose();
      await (resumed ?? queue.resume());
      await queue.close();
      redis.disconnect();
    }
  });

  it('rejects out-of-range input with BAD_USER_INPUT naming the problem, without a stack trace', async () => {
    const { status, body } = await gql(url, START_PROBE, { input: { steps: 0, stepDelayMs: 10 } });
    expect(status).toBe(200);
    expect(body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'steps' });
    expect(body.errors?.[0].message).toMatch(/steps/);
    expect(JSON.stringify(body)).not.toMatch(/stacktrace|at .*\.js:\d+/);
  });

  it('answers a type error in the query as a GraphQL validation error, not a 500', async () => {
    const { status, body } = await gql(url, START_PROBE, { input: { steps: 'many' } });
    expect(status).toBeLessThan(500);
    expect(body.errors?.[0].extensions?.code).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
  });

  it('reports an unknown job id on subscription as NOT_FOUND', async () => {
    const client = wsClient(url);
    try {
      const outcome = await collect(client, JOB_EVENTS, { jobId: 'no-such-job' }, 10_000).then(
        (events) => JSON.stringify(events),
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/no job \\?"no-such-job\\?"/);
      expect(outcome).toMatch(/NOT_FOUND/);
    } finally {
      await client.dispose();
    }
  });

  it('serves a self-contained GraphiQL page', async () => {
    const res = await fetch(url.replace('/graphql', '/graphiql'));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('GraphiQL');
    // No script or stylesheet is loaded from another host.
    expect(html).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(html).not.toMatch(/<link[^>]+href="https?:\/\//);
  });
});

describe('API key', () => {
  let api: RunningApp;
  let url: string;
  const key = 'test-key-' + Math.random().toString(36).slice(2);

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: key, QUEUE_PREFIX: runId('key') }, API_READY);
  });

  afterAll(() => api?.stop());

  it('refuses requests without the key and accepts them with it', async () => {
    const without = await gql(url, '{ health { ok } }');
    expect(without.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(without.body.data?.health ?? null).toBeNull();
    const withKey = await gql(url, '{ health { ok } }', {}, { 'x-api-key': key });
    expect(withKey.body.errors).toBeUndefined();
    expect(withKey.body.data.health.ok).toBe(true);
    expect(api.output()).not.toContain(key);
  });
});

describe('boot-time configuration errors', () => {
  it('exits with a message naming the bad variable', async () => {
    const { code, output } = await runApp('api', { EMBEDDING_DIMENSIONS: 'lots', API_PORT: '99999' });
    expect(code).toBe(1);
    expect(output).toMatch(/EMBEDDING_DIMENSIONS/);
    expect(output).toMatch(/API_PORT/);
    expect(output).not.toMatch(/at .*\.js:\d+/);
  });
});
