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

  beforeAll(async () => {
    stack = await startStack('idx');
    url = stack.url;
  });

  afterAll(async () => {
    await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    await stack?.stop();
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
    expect((await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: other })).body.data.deleteRepository).toBe(true);
    const after = await gql(url, 'query($n: String!) { repository(name: $n) { name } }', { n: other });
    expect(after.body.data.repository).toBeNull();
    const again = await gql(url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: other });
    expect(again.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
