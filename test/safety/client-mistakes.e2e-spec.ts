import * as zlib from 'node:zlib';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';
import { gql, GqlResponse } from '../support/graphql-client';

// Client mistakes answered with the client's code over HTTP and graphql-ws alike (one error map),
// never INTERNAL_SERVER_ERROR, a 5xx, a closed socket or a stack in the log.

type Answer = { status: number; body: GqlResponse & Record<string, unknown>; headers: Headers };

async function post(url: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers };
}

/** One operation over a socket: its result, its errors, or the close code if the socket closed. */
function overSocket(client: Client, query: string, extra: { operationName?: string; variables?: Record<string, unknown> } = {}): Promise<{ next: GqlResponse[]; errors?: GqlResponse['errors']; closeCode?: number }> {
  return new Promise((resolve) => {
    const next: GqlResponse[] = [];
    client.subscribe(
      { query, ...extra },
      {
        next: (value) => void next.push(value as GqlResponse),
        error: (error) => resolve(Array.isArray(error) ? { next, errors: error as GqlResponse['errors'] } : { next, closeCode: (error as { code?: number }).code ?? -1 }),
        complete: () => resolve({ next }),
      },
    );
  });
}

const TWO_OPERATIONS = 'query A { __typename } query B { __typename }';
const FRAGMENT_BOMB = `{ ...F0 } ${Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { __typename ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F30 on Query { __typename }`;
const TYPENAME_1000 = `{ ${' __typename'.repeat(1000)} }`;
/** 8 aliases × topK 200 × sourceChars 1,000,000: a 2 KB request that returned 4.9 MB. */
const HUGE_SOURCES = `{ ${Array.from({ length: 8 }, (_, i) => `a${i}: search(input: { text: "parse", topK: 200, sourceChars: 1000000 }) { results { scope { source } } }`).join(' ')} }`;

describe('client mistakes over HTTP and graphql-ws', () => {
  let api: RunningApp;
  let url: string;
  const admin = `admin-${Math.random().toString(36).slice(2)}`;
  const auth = { 'x-api-key': admin };
  let socket: Client;
  let closed: number | undefined;
  let connections = 0;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: admin, API_RATE_LIMIT_PER_MIN: '100000', QUEUE_PREFIX: runId('mist') }, API_READY);
    // Not lazy: one socket for the whole test, so a close after a bad document would show.
    socket = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { apiKey: admin }, retryAttempts: 0, lazy: false });
    socket.on('connected', () => void (connections += 1));
    socket.on('closed', (event) => void (closed = (event as { code?: number }).code));
  });

  afterAll(async () => {
    await socket?.dispose();
    await api?.stop();
  });

  it('answers several operations without a known operationName with 400 BAD_REQUEST in graphql-js words', async () => {
    const none = await post(url, JSON.stringify({ query: TWO_OPERATIONS }), auth);
    expect(none.status).toBe(400);
    expect(none.body.errors?.[0]).toEqual({ message: expect.stringMatching(/^Must provide operation name if query contains multiple operations \(send operationName: one of "A", "B"\)/), extensions: { code: 'BAD_REQUEST' } });
    const unknown = await post(url, JSON.stringify({ query: TWO_OPERATIONS, operationName: 'C' }), auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Unknown operation named "C"/), extensions: { code: 'BAD_REQUEST' } });
    const named = await post(url, JSON.stringify({ query: TWO_OPERATIONS, operationName: 'B' }), auth);
    expect(named.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers an unknown persisted-query hash with PERSISTED_QUERY_NOT_FOUND (the client then sends the query)', async () => {
    const { status, body } = await post(url, JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }), auth);
    expect(status).toBe(200);
    expect(body.errors?.[0].extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
  });

  it('refuses a subscription sent over POST with 400 BAD_REQUEST naming graphql-ws', async () => {
    const { status, body } = await post(url, JSON.stringify({ query: 'subscription { jobEvents(queue: INDEX, jobId: "x") { __typename } }' }), auth);
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/graphql-ws/), extensions: { code: 'BAD_REQUEST' } });
  });

  it('refuses a fragment bomb by its expanded size with 400 QUERY_TOO_COMPLEX, in well under a second', async () => {
    const started = performance.now();
    const { status, body } = await post(url, JSON.stringify({ query: FRAGMENT_BOMB }), auth);
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/expands to \d+ fields once its fragments are spread/), extensions: { code: 'QUERY_TOO_COMPLEX' } });
    // 2^31 fields walked one spread at a time would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('gives "Validation aborted." its reason ({ __typename × 1000 })', async () => {
    const { status, body } = await post(url, JSON.stringify({ query: TYPENAME_1000 }), auth);
    expect(status).toBe(400);
    expect(body.errors?.[0]).toEqual({ message: expect.stringMatching(/too costly to validate: too many fields share a response name/), extensions: { code: 'QUERY_TOO_COMPLEX' } });
  });

  it('refuses a query whose sources would be too large before it runs (sourceChars × topK × aliases)', async () => {
    const { status, body } = await post(url, JSON.stringify({ query: HUGE_SOURCES }), auth);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/may return 1600000000 characters of source, more than the limit of 2000000 \(GRAPHQL_MAX_SOURCE_CHARS\)/), extensions: { code: 'QUERY_TOO_COMPLEX' } });
    const ordinary = await post(url, JSON.stringify({ query: '{ search(input: { text: "parse", topK: 10 }) { results { scope { id } } } }' }), auth);
    expect(ordinary.body.errors).toBeUndefined();
  });

  it('answers malformed JSON and gzip bodies in the GraphQL shape with BAD_REQUEST', async () => {
    const json = await post(url, '{"query": ', auth);
    expect({ status: json.status, body: json.body }).toEqual({ status: 400, body: { errors: [{ message: expect.stringMatching(/^request body is not valid JSON: /), extensions: { code: 'BAD_REQUEST' } }] } });
    const gzip = await post(url, Buffer.from('not gzip at all'), { ...auth, 'content-encoding': 'gzip' });
    expect({ status: gzip.status, body: gzip.body }).toEqual({ status: 400, body: { errors: [{ message: expect.stringMatching(/^request body could not be decoded as content-encoding gzip: /), extensions: { code: 'BAD_REQUEST' } }] } });
    // A good gzip body is read.
    const good = await post(url, zlib.gzipSync(JSON.stringify({ query: '{ __typename }' })), { ...auth, 'content-encoding': 'gzip' });
    expect(good.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('over graphql-ws shows GraphQL\'s own validation message with its code, and the socket stays open after a syntax error', async () => {
    const misspelt = await overSocket(socket, 'subscription { askProgress(id: "x") { step } }');
    expect(misspelt.errors?.[0]).toMatchObject({ message: expect.stringMatching(/must have a selection of subfields\. Did you mean "step \{ \.\.\. \}"\?/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const syntax = await overSocket(socket, '{ health { ok }');
    expect(syntax.closeCode).toBeUndefined();
    expect(syntax.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error: Expected Name, found <EOF>/), extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    const twoOps = await overSocket(socket, TWO_OPERATIONS);
    expect(twoOps.errors?.[0]).toEqual({ message: expect.stringMatching(/^Must provide operation name/), extensions: { code: 'BAD_REQUEST' } });
    const costly = await overSocket(socket, HUGE_SOURCES);
    expect(costly.errors?.[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX' });
    const aborted = await overSocket(socket, TYPENAME_1000);
    expect(aborted.errors?.[0]).toMatchObject({ message: expect.stringMatching(/too costly to validate/), extensions: { code: 'QUERY_TOO_COMPLEX' } });
    const badVariable = await overSocket(socket, 'query($n: Int!) { scope(id: "x", sourceChars: $n) { id } }', { variables: { n: 'many' } });
    expect(badVariable.next).toEqual([{ errors: [{ message: expect.stringMatching(/^Variable "\$n" got invalid value "many"/), locations: expect.any(Array), extensions: { code: 'BAD_USER_INPUT' } }] }]);
    // The same socket still runs operations.
    const after = await overSocket(socket, '{ __typename }');
    expect(after.next).toEqual([{ data: { __typename: 'Query' } }]);
    expect(closed).toBeUndefined();
    expect(connections).toBe(1);
  });

  it('logged none of these at error, and wrote no stack or non-JSON line', () => {
    const lines = api.output().split('\n').filter(Boolean);
    expect(lines.filter((l) => /"level":50/.test(l))).toEqual([]);
    expect(lines.filter((l) => !l.startsWith('{'))).toEqual([]);
    expect(lines.filter((l) => /\\n\s+at /.test(l))).toEqual([]);
  });
});

describe('rate limits per principal', () => {
  const LIMIT = 10;
  let api: RunningApp;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    // No key configured: whatever key a caller sends is unchecked, so it is no principal.
    api = await startApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', API_RATE_LIMIT_PER_MIN: String(LIMIT), QUEUE_PREFIX: runId('rate') }, API_READY);
  });

  afterAll(() => api?.stop());

  it('counts invented keys against the client address, tells the limit in headers, and answers 429 before parsing or logging', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const invented: Record<string, string> = i % 2 ? { 'x-api-key': `made-up-${i}` } : { authorization: `Bearer made-up-${i}` };
      answers.push(await post(url, JSON.stringify({ query: '{ pipelines { name } }' }), invented));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(LIMIT).fill(200), 429, 429, 429]);
    expect(answers[0].headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(answers[0].headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(answers[LIMIT - 1].headers.get('ratelimit-remaining')).toBe('0');
    const refused = answers[LIMIT + 2];
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^rate limit of 10 operations per 60 s reached; retry in \d+ s$/), extensions: { code: 'RATE_LIMITED', retryAfterS: expect.any(Number) } });

    // Refused before the body is read: even a body that is not JSON gets the 429.
    // The API's background query-plan warm-up may log its one line meanwhile: not a request's line.
    const lines = () => api.output().split('\n').filter((l) => !l.includes('PlanWarmup')).length;
    const linesBefore = lines();
    for (let i = 0; i < 50; i++) {
      const blocked = await post(url, '{"not json', { 'x-api-key': `another-${i}` });
      expect(blocked.status).toBe(429);
    }
    // A 429 writes no log line (request lines are at debug; the refusal comes before any of them).
    expect(lines()).toBe(linesBefore);
  });
});

describe('health without Redis', () => {
  let api: RunningApp;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    const nothingThere = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), REDIS_URL: `redis://127.0.0.1:${nothingThere}`, QUEUE_PREFIX: runId('nored') }, API_READY);
  });

  afterAll(() => api?.stop());

  it('says what is wrong with Redis, not how ioredis is configured, and logs it as JSON lines', async () => {
    const { body } = await gql(url, '{ health { ok redis { ok error } } }');
    expect(body.data.health.redis.ok).toBe(false);
    expect(body.data.health.redis.error).toMatch(/^(not connected to Redis|Redis refused the connection|Redis did not answer)/);
    expect(body.data.health.redis.error).not.toMatch(/enableOfflineQueue|Stream isn't writeable/);
    expect(api.output().split('\n').filter((l) => l && !l.startsWith('{'))).toEqual([]);
  });
});
