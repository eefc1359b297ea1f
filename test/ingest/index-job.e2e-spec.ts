import * as fs from 'node:fs';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { bullQueueName, createRedisConnection, QueueName } from '@scopegraph/queue';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { SymbolIndex } from '@scopegraph/ingest';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';

const INDEX = 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id queue } }';
const PROGRESS = 'subscription($id: ID!) { indexProgress(jobId: $id) { phase filesTotal filesParsed scopes edges embedded errors result failedReason } }';
const JOB_EVENTS = 'subscription($id: ID!) { jobEvents(queue: INDEX, jobId: $id) { jobId kind result failedReason } }';

// The whole path a user takes: GraphQL mutation on the API process, the job on the worker process,
// progress back over graphql-ws, counts in the repositories query.
describe('indexRepository job through the API and the worker', () => {
  const name = runId('job');
  let stack: RunningStack;
  let url: string;
  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const redis = createRedisConnection(config.redis.url);

  beforeAll(async () => {
    stack = await startStack('idx');
    url = stack.url;
  });

  afterAll(async () => {
    await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    await stack?.stop();
    await neo4j.onModuleDestroy();
    redis.disconnect();
  });

  it('indexes the fixture, streaming phases, and lists the repository with its counts', async () => {
    const started = await gql(url, INDEX, { input: { path: FIXTURE, name } });
    expect(started.body.errors).toBeUndefined();
    const client = wsClient(url);
    let events: any[];
    try {
      // The local model embeds the fixture: on two shared cores under load that took over a minute.
      events = (await collect(client, PROGRESS, { id: started.body.data.indexRepository.id }, 110_000)).map((e) => e.data!.indexProgress);
    } finally {
      await client.dispose();
    }
    const phases = events.map((e) => e.phase);
    expect(phases[phases.length - 1]).toBe('done');
    expect(phases).toEqual(expect.arrayContaining(['embedding']));
    const final = events[events.length - 1];
    expect(final.result.files.indexed).toBeGreaterThan(10);
    expect(final.result.embedded).toBe(final.result.scopes.total);
    // The last event keeps the counters of the job's last progress instead of zeroing them.
    expect(final).toMatchObject({ scopes: final.result.scopes.total, embedded: final.result.scopes.total });
    expect(final.filesParsed).toBeGreaterThan(10);
    expect(final.edges).toBeGreaterThan(20);

    const listed = await gql(url, '{ repositories { name files scopes edges embedded } }');
    const mine = listed.body.data.repositories.find((r: { name: string }) => r.name === name);
    expect(mine).toMatchObject({ files: final.result.files.indexed, scopes: final.result.scopes.total, embedded: final.result.scopes.total });
    expect(mine.edges).toBeGreaterThan(20);
  });

  it('refuses a path outside the allowed roots with BAD_USER_INPUT naming the field', async () => {
    const { body } = await gql(url, INDEX, { input: { path: '/etc', name: 'etc' } });
    expect(body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'path' });
    expect(body.errors?.[0].message).toMatch(/allowed roots/);
  });

  it('refuses a malformed repository name with BAD_USER_INPUT', async () => {
    const { body } = await gql(url, INDEX, { input: { path: FIXTURE, name: "x'}) DETACH DELETE n//" } });
    expect(body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0].message).toMatch(/name/);
  });

  it('ends both subscriptions with the failure and its reason when the job fails', async () => {
    // The API accepts the folder; it is gone before the worker runs (the index queue is paused until
    // then), so the job fails, unrecoverably, in the worker.
    fs.mkdirSync(path.join(ROOT, '.cache'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, '.cache', 'gone-'));
    fs.writeFileSync(path.join(dir, 'a.ts'), 'export const a = 1;\n');
    const queue = new Queue(bullQueueName(QueueName.INDEX), { connection: redis, prefix: stack.prefix });
    await queue.pause();
    const client = wsClient(url);
    try {
      const started = await gql(url, INDEX, { input: { path: dir, name: runId('gone') } });
      expect(started.body.errors).toBeUndefined();
      const id = started.body.data.indexRepository.id;
      fs.rmSync(dir, { recursive: true, force: true });
      const progress = collect(client, PROGRESS, { id }, 60_000);
      const jobEvents = collect(client, JOB_EVENTS, { id }, 60_000);
      await queue.resume();
      const [indexEvents, events] = await Promise.all([progress, jobEvents]);
      const last = indexEvents[indexEvents.length - 1].data!.indexProgress;
      expect(last).toMatchObject({ phase: 'failed', result: null });
      expect(last.failedReason).toMatch(/does not exist|no such|ENOENT/i);
      expect(last.failedReason).toContain(path.basename(dir));
      const final = events[events.length - 1].data!.jobEvents;
      expect(final).toEqual({ jobId: id, kind: 'FAILED', result: null, failedReason: last.failedReason });
      // Not retried: a vanished path will not come back.
      const job = await gql(url, 'query($id: ID!) { job(queue: INDEX, id: $id) { state attemptsMade failedReason } }', { id });
      expect(job.body.data.job).toEqual({ state: 'failed', attemptsMade: 1, failedReason: last.failedReason });
    } finally {
      await client.dispose();
      await queue.resume();
      await queue.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('deletes a repository and everything indexed from it', async () => {
    const other = runId('del');
    const started = await gql(url, INDEX, { input: { path: FIXTURE, name: other } });
    const client = wsClient(url);
    try {
      await collect(client, PROGRESS, { id: started.body.data.indexRepository.id });
    } finally {
      await client.dispose();
    }
    // Before: the graph and Redis hold the repository (its nodes carry its id; its file fingerprints are a key of its own).
    const { id } = (await gql(url, 'query($n: String!) { repository(name: $n) { id } }', { n: other })).body.data.repository;
    const nodesOf = async () =>
      (await neo4j.runStatement<{ n: number }>('MATCH (x) WHERE x.repoId = $id OR (x:Repository AND x.id = $id) RETURN count(x) AS n', { id }))[0].n;
    const keysOf = async () => {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, page] = await redis.scan(cursor, 'MATCH', `${stack.prefix}:*`, 'COUNT', 1000);
        keys.push(...page.filter((k) => k.includes(id)));
        cursor = next;
      } while (cursor !== '0');
      return keys;
    };
    expect(await nodesOf()).toBeGreaterThan(50);
    expect(await keysOf()).toEqual([`${stack.prefix}:fingerprints:${id}`]);
    // The worker's symbol index file (what a partial re-index reads) goes with the repository.
    const symbols = SymbolIndex.fileFor(config.ingest.symbolIndexDir!, stack.prefix, id);
    expect(fs.existsSync(symbols)).toBe(true);

    expect((await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: other })).body.data.deleteRepository).toBe(true);
    const after = await gql(url, 'query($n: String!) { repository(name: $n) { name } }', { n: other });
    expect(after.body.data.repository).toBeNull();
    expect(await nodesOf()).toBe(0);
    expect(await keysOf()).toEqual([]);
    expect(fs.existsSync(symbols)).toBe(false);
    const again = await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: other });
    expect(again.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
