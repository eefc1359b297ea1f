import * as http from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { API_READY, freePort, ROOT, runApp, runId, RunningApp, startApp } from '../support/processes';
import { gql, wsClient } from '../support/graphql-client';

// Safe by default: a keyless API on loopback only serves this machine's own pages and processes;
// keys split into read and admin; every path follows the same rule.

const EVIL = 'http://evil.example';
const PROBE = 'mutation { startProbe(input: { steps: 1, stepDelayMs: 1 }) { id } }';
const SYSTEM_COUNTS = '{ health { queues { name waiting active completed failed } } }';

/** A graphql-ws client whose socket presents these HTTP headers on the handshake (as a browser page would its Origin). */
function wsWithHeaders(url: string, headers: Record<string, string>, connectionParams: Record<string, unknown> = {}) {
  class HeaderSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  return createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: HeaderSocket, connectionParams, retryAttempts: 0, lazy: true });
}

/** Runs one operation over a socket; resolves with its result or the reason the socket refused it. */
function runOverSocket(client: ReturnType<typeof createClient>, query: string): Promise<{ data?: unknown; errors?: { extensions?: { code?: string } }[]; closeCode?: number }> {
  return new Promise((resolve) => {
    let result: { data?: unknown; errors?: { extensions?: { code?: string } }[] } = {};
    client.subscribe(
      { query },
      {
        next: (value) => (result = value as typeof result),
        error: (error) => resolve({ closeCode: (error as { code?: number }).code ?? -1 }),
        complete: () => resolve(result),
      },
    );
  });
}

/** fetch() will not send a Host header of our choosing; node:http will. */
function statusWithHost(port: number, path: string, host: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function indexQueue(url: string, headers: Record<string, string>) {
  const { body } = await gql(url, SYSTEM_COUNTS, {}, headers);
  return body.data.health.queues.find((q: { name: string }) => q.name === 'index');
}

async function systemQueue(url: string, headers: Record<string, string> = {}) {
  const { body } = await gql(url, SYSTEM_COUNTS, {}, headers);
  return body.data.health.queues.find((q: { name: string }) => q.name === 'system');
}

describe('keyless API on loopback: Origin and Host checks', () => {
  let api: RunningApp;
  let url: string;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    // No worker: a job the API accepts stays waiting, so queue counts show whether a mutation ran.
    api = await startApp('api', { API_PORT: String(port), API_KEY: '', API_ADMIN_KEY: '', API_ALLOWED_ORIGINS: 'http://localhost:5174', QUEUE_PREFIX: runId('acc') }, API_READY);
  });

  afterAll(() => api?.stop());

  it('serves local processes (no Origin), its own origin and listed origins; a page on another local port is refused over HTTP and graphql-ws', async () => {
    expect((await gql(url, '{ __typename }')).body.data.__typename).toBe('Query');
    const local = await gql(url, '{ __typename }', {}, { origin: `http://localhost:${port}` });
    expect(local.status).toBe(200);
    const listed = await gql(url, '{ __typename }', {}, { origin: 'http://localhost:5174' });
    expect(listed.status).toBe(200);
    const devServer = await gql(url, PROBE, {}, { origin: 'http://127.0.0.1:5173' });
    expect(devServer.status).toBe(403);
    expect(devServer.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const devSocket = wsWithHeaders(url, { origin: 'http://localhost:5173' });
    try {
      expect((await runOverSocket(devSocket, PROBE)).closeCode).toBe(4403);
    } finally {
      await devSocket.dispose();
    }
  });

  it('forbids framing and sniffing on every page, and does not name its framework', async () => {
    for (const path of ['/graphql', '/graphiql', '/guides/neo4j-browser.html']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect({ path, frame: res.headers.get('x-frame-options'), csp: res.headers.get('content-security-policy'), sniff: res.headers.get('x-content-type-options'), powered: res.headers.get('x-powered-by') }).toEqual({
        path,
        frame: 'DENY',
        csp: "frame-ancestors 'none'",
        sniff: 'nosniff',
        powered: null,
      });
    }
  });

  it('refuses a foreign Origin over HTTP with 403 FORBIDDEN, before the mutation runs', async () => {
    const before = await systemQueue(url);
    const { status, body } = await gql(url, PROBE, {}, { origin: EVIL });
    expect(status).toBe(403);
    expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(body.errors?.[0].message).toMatch(/Origin/);
    expect(await systemQueue(url)).toEqual(before);
  });

  it('refuses a foreign Origin with 403 FORBIDDEN on /mcp, /metrics, /queues and the console too; a loopback Origin passes', async () => {
    const base = `http://127.0.0.1:${port}`;
    const request = (path: string, origin: string) => {
      const post = path === '/mcp';
      return fetch(`${base}${path}`, {
        method: post ? 'POST' : 'GET',
        headers: { origin, ...(post ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}) },
        body: post ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : undefined,
      });
    };
    for (const path of ['/mcp', '/metrics', '/queues', '/']) {
      const refused = await request(path, EVIL);
      const body = await refused.json();
      // /mcp answers in JSON-RPC's shape, the rest in GraphQL's; both say it was the Origin.
      const code = path === '/mcp' ? body.error?.data?.code : body.errors?.[0]?.extensions?.code;
      const message = path === '/mcp' ? body.error?.message : body.errors?.[0]?.message;
      expect({ path, status: refused.status, code, origin: /Origin/.test(message) }).toEqual({ path, status: 403, code: 'FORBIDDEN', origin: true });
      const local = await request(path, `http://localhost:${port}`);
      await local.arrayBuffer();
      expect({ path, forbidden: local.status === 403 }).toEqual({ path, forbidden: false });
    }
  });

  it('refuses a DNS-rebinding Host header on every path', async () => {
    for (const path of ['/graphql', '/graphiql', '/mcp', '/queues', '/metrics', '/']) {
      const post = path === '/graphql' || path === '/mcp';
      const status = await statusWithHost(port, path, `evil.example:${port}`, post ? 'POST' : 'GET', post ? JSON.stringify({ query: '{ __typename }' }) : undefined);
      expect({ path, status }).toEqual({ path, status: 403 });
    }
    // The same request naming this machine passes.
    expect(await statusWithHost(port, '/graphql', `localhost:${port}`, 'POST', JSON.stringify({ query: '{ __typename }' }))).toBe(200);
  });

  it('closes a graphql-ws socket opened by a foreign page (4403) and runs nothing over it', async () => {
    const before = await systemQueue(url);
    const evil = wsWithHeaders(url, { origin: EVIL });
    try {
      const outcome = await runOverSocket(evil, PROBE);
      expect(outcome.closeCode).toBe(4403);
    } finally {
      await evil.dispose();
    }
    const rebinding = wsWithHeaders(url, { host: `evil.example:${port}` });
    try {
      expect((await runOverSocket(rebinding, PROBE)).closeCode).toBe(4403);
    } finally {
      await rebinding.dispose();
    }
    expect(await systemQueue(url)).toEqual(before);

    // The same mutation from a local process (no Origin) is accepted: the counts do move.
    const local = wsClient(url);
    try {
      const outcome = await runOverSocket(local, PROBE);
      expect(outcome.errors).toBeUndefined();
    } finally {
      await local.dispose();
    }
    expect((await systemQueue(url)).waiting).toBe(before.waiting + 1);
  });
});

describe('read and admin keys', () => {
  let api: RunningApp;
  let base: string;
  let url: string;
  const read = `read-${Math.random().toString(36).slice(2)}`;
  const admin = `admin-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    url = `${base}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: read, API_ADMIN_KEY: admin, QUEUE_PREFIX: runId('keys') }, API_READY);
  });

  afterAll(() => api?.stop());

  it('answers 401 UNAUTHENTICATED without a key on every path, introspection included, and hides which paths exist', async () => {
    const introspection = await gql(url, '{ __schema { queryType { name } } }');
    expect(introspection.status).toBe(401);
    expect(introspection.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(introspection.body.data).toBeUndefined();
    for (const path of ['/graphiql', '/queues', '/metrics', '/', '/no-such-path']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
    const mcp = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(mcp.status).toBe(401);
    const wrong = await gql(url, '{ __typename }', {}, { 'x-api-key': `${read}x` });
    expect(wrong.status).toBe(401);
  });

  it('lets the read key query but not delete, index or run diagnostics (403 FORBIDDEN); the admin key may', async () => {
    const auth = { 'x-api-key': read };
    expect((await gql(url, '{ repositories { name } }', {}, auth)).body.errors).toBeUndefined();
    for (const mutation of [
      'mutation { deleteRepository(name: "no-such-repository") }',
      'mutation { indexRepository(input: { name: "x", path: "/tmp" }) { id } }',
      PROBE,
    ]) {
      const { status, body } = await gql(url, mutation, {}, auth);
      expect({ mutation, status, code: body.errors?.[0].extensions?.code }).toEqual({ mutation, status: 403, code: 'FORBIDDEN' });
    }
    // With the admin key the resolver runs (and finds no such repository): the refusal above came first.
    const asAdmin = await gql(url, 'mutation { deleteRepository(name: "no-such-repository") }', {}, { authorization: `Bearer ${admin}` });
    expect(asAdmin.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const board = await fetch(`${base}/queues`, { headers: { authorization: `Basic ${Buffer.from(`me:${read}`).toString('base64')}` } });
    expect(board.status).toBe(403);
    const boardAdmin = await fetch(`${base}/queues`, { headers: { authorization: `Basic ${Buffer.from(`me:${admin}`).toString('base64')}` } });
    expect(boardAdmin.status).toBe(200);
  });

  it('refuses index_repository through MCP to the read key (FORBIDDEN, nothing queued); the admin key is let through', async () => {
    const mcp = async (key: string) => {
      const client = new Client({ name: 'e2e-keys', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
      return client;
    };
    const before = await indexQueue(url, { 'x-api-key': admin });
    const reader = await mcp(read);
    try {
      // Reading through MCP works with the read key; indexing does not.
      expect((await reader.callTool({ name: 'list_repositories', arguments: {} })).isError).toBeFalsy();
      // A path the admin key could index: only the key stands in the way.
      const refused = (await reader.callTool({ name: 'index_repository', arguments: { path: join(ROOT, 'test/fixtures/polyglot-repo'), name: runId('mcpread') } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toMatch(/^FORBIDDEN\b.*admin key/);
    } finally {
      await reader.close();
    }
    expect(await indexQueue(url, { 'x-api-key': admin })).toEqual(before);
    // The admin key passes the same check: its refusal, if any, is about the path, not the key.
    const writer = await mcp(admin);
    try {
      const outside = (await writer.callTool({ name: 'index_repository', arguments: { path: '/etc', name: 'etc' } })) as CallToolResult;
      expect((outside.content[0] as { text: string }).text).toMatch(/^BAD_USER_INPUT.*allowed roots/);
    } finally {
      await writer.close();
    }
  });

  it('holds sockets to the same keys: none is refused at the handshake, read cannot delete', async () => {
    const anonymous = wsClient(url);
    try {
      expect((await runOverSocket(anonymous, '{ __typename }')).closeCode).toBe(4403);
    } finally {
      await anonymous.dispose();
    }
    // A wrong key is no key: the socket is closed, nothing runs over it.
    const wrong = wsClient(url, { apiKey: `${read}x` });
    try {
      expect((await runOverSocket(wrong, '{ __typename }')).closeCode).toBe(4403);
    } finally {
      await wrong.dispose();
    }
    const reader = wsClient(url, { apiKey: read });
    try {
      const outcome = await runOverSocket(reader, 'mutation { deleteRepository(name: "no-such-repository") }');
      expect(outcome.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    } finally {
      await reader.dispose();
    }
    expect(api.output()).not.toContain(read);
    expect(api.output()).not.toContain(admin);
  });
});

describe('refusing to start unsafely', () => {
  it('refuses a key of only spaces', async () => {
    const { code, output } = await runApp('api', { API_KEY: '   ' });
    expect(code).toBe(1);
    expect(output).toMatch(/API_KEY: is blank/);
  });

  it('refuses to bind beyond loopback without a key', async () => {
    const { code, output } = await runApp('api', { API_HOST: '0.0.0.0', API_KEY: '', API_ADMIN_KEY: '' });
    expect(code).toBe(1);
    expect(output).toMatch(/API_KEY: is required when API_HOST \(0\.0\.0\.0\) is not a loopback address/);
  });
});
