import { Job, Queue, QueueEvents } from 'bullmq';
import { loadConfig } from '@scopegraph/config';
import { bullQueueName, createRedisConnection, QueueName } from '@scopegraph/queue';
import { FakeOpenAiEmbeddings } from '../fakes/fake-model-apis';
import { gql } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { RunningApp, runId, RunningStack, startApp, startStack, WORKER_READY } from '../support/processes';

const INDEX = 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }';
const DIMENSIONS = 384;
/** Only a safety net: a gate that never sees both jobs embedding opens after this, and the test fails. */
const GATE_FALLBACK_MS = 30_000;

// Two worker processes on one queue: different repositories index at the same time, two jobs for
// one repository never overlap, and a lock left by a dead holder lapses instead of blocking forever.
describe('index jobs on two workers (per-repository lock in Redis)', () => {
  const repoA = runId('para');
  const repoB = runId('parb');
  let stack: RunningStack;
  let second: RunningApp;
  let queue: Queue;
  let events: QueueEvents;
  const redis = createRedisConnection(loadConfig().redis.url);
  const eventsRedis = createRedisConnection(loadConfig().redis.url);
  // Vectors from a fake OpenAI-compatible server keep these jobs short (what is under test is
  // scheduling, not vectors) and let a test hold a job in its embedding phase.
  let embeddings: FakeOpenAiEmbeddings;
  let gate: { closed: boolean; waiting: number; open: () => void; opened: Promise<void> } | undefined;

  beforeAll(async () => {
    embeddings = await FakeOpenAiEmbeddings.start();
    embeddings.reply(async (request) => {
      if (gate?.closed && ++gate.waiting >= 2) gate.open();
      if (gate?.closed) await gate.opened;
      return { data: request.input.map((text, index) => ({ index, embedding: Array.from({ length: DIMENSIONS }, (_, i) => 1 + (text.charCodeAt(i % Math.max(text.length, 1)) || 0) % 7) })) };
    });
    const ENV = {
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_OPENAI_BASE_URL: `${embeddings.baseUrl}/v1`,
      EMBEDDING_MODEL: 'fake-embedding',
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
      // One request in flight per job: two in flight at once are two jobs.
      EMBEDDING_OPENAI_CONCURRENCY: '1',
      INGEST_LOCK_RETRY_MS: '200',
      INGEST_LOCK_TTL_MS: '3000',
    };
    stack = await startStack('par', ENV);
    second = await startApp('worker', { QUEUE_PREFIX: stack.prefix, ...ENV }, WORKER_READY);
    queue = new Queue(bullQueueName(QueueName.INDEX), { connection: redis, prefix: stack.prefix });
    events = new QueueEvents(bullQueueName(QueueName.INDEX), { connection: eventsRedis, prefix: stack.prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    for (const n of [repoA, repoB]) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n }).catch(() => undefined);
    await events?.close();
    await queue?.close();
    await Promise.all([stack?.stop(), second?.stop()]);
    redis.disconnect();
    eventsRedis.disconnect();
    await embeddings?.close();
  });

  async function enqueue(name: string): Promise<string> {
    const { body } = await gql(stack.url, INDEX, { input: { path: FIXTURE, name } });
    expect(body.errors).toBeUndefined();
    return body.data.indexRepository.id;
  }

  async function finished(id: string): Promise<Job> {
    const job = (await queue.getJob(id))!;
    await job.waitUntilFinished(events, 90_000);
    return (await queue.getJob(id))!;
  }

  const overlaps = (a: Job, b: Job) => a.processedOn! < b.finishedOn! && b.processedOn! < a.finishedOn!;

  it('indexes two repositories at the same time, one on each worker', async () => {
    // Gated, not timed: the fake holds every embedding request until two are waiting at once. Each job
    // sends one at a time, so the gate opens only when both jobs are in their embedding phase together.
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    gate = { closed: true, waiting: 0, open: () => ((gate!.closed = false), open()), opened };
    const fallback = setTimeout(() => gate?.open(), GATE_FALLBACK_MS);
    const ids = [await enqueue(repoA), await enqueue(repoB)];
    const [a, b] = await Promise.all(ids.map(finished)).finally(() => clearTimeout(fallback));
    expect(gate.waiting).toBe(2);
    expect(embeddings.maxInFlight()).toBe(2);
    expect(a.returnvalue.scopes.total).toBeGreaterThan(50);
    expect(b.returnvalue.scopes.total).toBe(a.returnvalue.scopes.total);
    // Each worker runs one index job at a time, so overlapping runs were on different workers.
    expect(overlaps(a, b)).toBe(true);
  });

  it('runs two jobs for the same repository one after the other', async () => {
    const [first, secondJob] = await Promise.all([enqueue(repoA), enqueue(repoA)].map(async (p) => finished(await p)));
    // The spans each job worked under the lock, not BullMQ's processedOn/finishedOn: a job is marked
    // completed only after it released the lock, so the next one may be picked up a moment before.
    const [a, b] = [first, secondJob].map((j) => j.returnvalue.lockHeld as { from: number; until: number });
    expect(a.from < b.until && b.from < a.until).toBe(false);
    // Both saw a whole graph: neither found anything left to write by the other.
    for (const job of [first, secondJob]) {
      expect(job.returnvalue.scopes).toMatchObject({ added: 0, changed: 0, deleted: 0 });
      expect(job.returnvalue.files.parsed).toBe(0);
    }
    expect(stack.worker.output() + second.output()).toMatch(new RegExp(`repository ${repoA} is being indexed by job ix[0-9a-f]+ pid \\d+; job ix[0-9a-f]+ waits`));
  });

  it('waits out a lock whose holder died, then indexes', async () => {
    // What a worker killed mid-job leaves behind: its lock, no longer renewed.
    await redis.set(`${stack.prefix}:lock:index:${repoB}`, `job 0 pid 1:dead`, 'PX', 1_500);
    const job = await finished(await enqueue(repoB));
    expect(job.returnvalue.scopes.total).toBeGreaterThan(50);
    expect(stack.worker.output() + second.output()).toMatch(new RegExp(`repository ${repoB} is being indexed by job 0 pid 1; job ix[0-9a-f]+ waits`));
    expect(await redis.exists(`${stack.prefix}:lock:index:${repoB}`)).toBe(0);
  });
});
