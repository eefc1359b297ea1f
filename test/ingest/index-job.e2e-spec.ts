import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { createRedisConnection } from '@scopegraph/queue';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { runId, RunningStack, startStack } from '../support/processes';

const INDEX = 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id queue } }';
const PROGRESS = 'subscription($id: ID!) { indexProgress(jobId: $id) { phase filesTotal filesParsed scopes edges embedded errors result failedReason } }';

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
      events = (await collect(client, PROGRESS, { id: started.body.data.indexRepository.id })).map((e) => e.data!.indexProgress);
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

    expect((await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: other })).body.data.deleteRepository).toBe(true);
    const after = await gql(url, 'query($n: String!) { repository(name: $n) { name } }', { n: other });
    expect(after.body.data.repository).toBeNull();
    expect(await nodesOf()).toBe(0);
    expect(await keysOf()).toEqual([]);
    const again = await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: other });
    expect(again.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
