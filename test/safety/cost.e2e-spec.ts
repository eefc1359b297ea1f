import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';
import { gql } from '../support/graphql-client';

// Query cost control and client errors answered as client errors, against the real API process.

const RATE_LIMIT = 15;

function aliases(count: number, field: (i: number) => string): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field(i)}`).join(' ')} }`;
}

const ATTACKS: Record<string, string> = {
  // 1,000 aliased searches in one ~66 KB request (ran for 33 s before).
  'aliased searches': aliases(1000, () => 'search(input: { text: "x" }) { results { scope { id } } }'),
  // 100 max-size searches in one ~18 KB request (exhausted Neo4j's transaction memory before).
  'max-size search aliases': aliases(100, () => 'search(input: { text: "x", topK: 200, candidates: 1000, expand: { maxNodes: 200, depth: 3 } }) { results { scope { id } } }'),
  // 5,000 nested inline fragments (blew the parser's stack before).
  'nested fragments': `{ ${'... on Query { '.repeat(5000)}__typename${' }'.repeat(5000)} }`,
  // Few tokens, but each search is the largest allowed: refused by cost, not by size.
  'costly searches': aliases(5, () => 'search(input: { text: "x", topK: 200, candidates: 1000, expand: { maxNodes: 200, depth: 3 } }) { results { scope { id } } }'),
  'many aliases': aliases(25, () => '__typename'),
};

describe('query cost control and client errors', () => {
  let api: RunningApp;
  let url: string;
  const read = `read-${Math.random().toString(36).slice(2)}`;
  const admin = `admin-${Math.random().toString(36).slice(2)}`;
  const asAdmin = { 'x-api-key': admin };
  // A key of its own for /metrics: rate limits count per key, and the later specs count the admin's.
  const metrics = `metrics-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: read, API_ADMIN_KEY: admin, API_METRICS_KEY: metrics, API_RATE_LIMIT_PER_MIN: String(RATE_LIMIT), QUEUE_PREFIX: runId('cost') }, API_READY);
  });

  afterAll(() => api?.stop());

  /** Search stages the API has run so far (every stage's count summed, from /metrics). */
  const searchStagesRun = async (): Promise<number> => {
    const text = await (await fetch(url.replace(/\/graphql$/, '/metrics'), { headers: { 'x-api-key': metrics } })).text();
    return [...text.matchAll(/^scopegraph_search_stage_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  it.each(Object.keys(ATTACKS))('refuses %s with QUERY_TOO_COMPLEX before any search runs', async (name) => {
    const body = JSON.stringify({ query: ATTACKS[name] });
    const stagesBefore = await searchStagesRun();
    // The best of three: a refusal that did the work would take seconds every time; load on a
    // shared machine only delays some of them.
    const times: number[] = [];
    let last: { status: number; json: { errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown } } | undefined;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...asAdmin }, body });
      last = { status: res.status, json: (await res.json()) as NonNullable<typeof last>['json'] };
      times.push(performance.now() - started);
    }
    expect(last!.status).toBe(400);
    expect(last!.json.data).toBeUndefined();
    expect(last!.json.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(last!.json.errors?.[0].message).toMatch(/tokens|cost|aliases/);
    // Refused before execution: not one search stage ran. The time is a loose second check (a refusal
    // that did the work takes seconds; 100 ms held on a quiet machine, 212 ms was seen at load 12).
    expect(await searchStagesRun()).toBe(stagesBefore);
    expect(Math.min(...times)).toBeLessThan(1_000);
  });

  it('runs an ordinary search within the limits', async () => {
    const stagesBefore = await searchStagesRun();
    const { status, body } = await gql(url, aliases(3, () => 'search(input: { text: "parse config", topK: 10 }) { results { scope { id } } }'), {}, asAdmin);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    // The count the refusals above are held to moves when searches do run.
    expect(await searchStagesRun()).toBeGreaterThan(stagesBefore);
  });

  it('answers batches, CSRF-blocked requests and bad JSON with 400 BAD_REQUEST', async () => {
    const batch = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...asAdmin }, body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]) });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_REQUEST');

    const get = await fetch(`${url}?query=${encodeURIComponent('{ __typename }')}`, { headers: asAdmin });
    expect(get.status).toBe(400);
    expect(((await get.json()) as { errors: { message: string; extensions: { code: string } }[] }).errors[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' }, message: expect.stringMatching(/Cross-Site Request Forgery/) });

    const textPlain = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', ...asAdmin }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(textPlain.status).toBe(400);
    expect(((await textPlain.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('BAD_REQUEST');

    const badJson = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...asAdmin }, body: '{"query": ' });
    expect(badJson.status).toBe(400);

    const huge = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...asAdmin }, body: JSON.stringify({ query: `{ __typename }`, pad: 'x'.repeat(300_000) }) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers more than 50 bad variable items with 400 BAD_USER_INPUT', async () => {
    const many = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...asAdmin },
      body: JSON.stringify({
        query: 'query($edges: [EdgeType!]) { neighborhood(id: "x", edges: $edges) { __typename } }',
        variables: { edges: Array.from({ length: 80 }, (_, i) => `NOT_AN_EDGE_${i}`) },
      }),
    });
    const json = (await many.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(many.status).toBe(400);
    expect(json.errors.every((e) => e.extensions.code === 'BAD_USER_INPUT')).toBe(true);
    expect(json.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/Too many errors processing variables/));
  });

  it('logs a client error as at most one short line, without the input echoed whole', async () => {
    const name = `n${'q'.repeat(20_000)}`;
    const { body } = await gql(url, 'mutation($name: String!) { deleteRepository(name: $name) }', { name }, asAdmin);
    expect(body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const lines = api.output().split('\n');
    expect(lines.filter((l) => l.includes('q'.repeat(1000)))).toEqual([]);
    expect(lines.filter((l) => /"level":50|ERROR/.test(l))).toEqual([]);
  });

  it('limits operations per key with 429 RATE_LIMITED and a retry time', async () => {
    const auth = { 'x-api-key': read };
    const statuses: number[] = [];
    let refused: { errors?: { extensions?: { code?: string; retryAfterS?: number } }[] } | undefined;
    for (let i = 0; i < RATE_LIMIT + 2; i++) {
      const res = await gql(url, '{ pipelines { name } }', {}, auth);
      statuses.push(res.status);
      if (res.status === 429) refused = res.body as typeof refused;
    }
    expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(RATE_LIMIT)).toEqual([429, 429]);
    expect(refused?.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    expect(refused?.errors?.[0].extensions?.retryAfterS).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await gql(url, '{ pipelines { name } }', {}, asAdmin)).status).toBe(200);
  });
});
