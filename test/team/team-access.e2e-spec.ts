import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { collect, gql, wsClient } from '../support/graphql-client';
import { API_READY, freePort, ROOT, runId, RunningApp, RunningStack, startApp, startStack } from '../support/processes';

jest.setTimeout(120_000);

// A shared server: keys scoped to repositories with roles, enforced alike over GraphQL (HTTP and
// graphql-ws) and MCP; no oracle for repositories outside a key's scope; revocation reaching every
// replica within a second; the audit trail; private conversations; server paths for admins only.
const ADMIN = 'team-e2e-admin-environment-key';
const admin = { 'x-api-key': ADMIN };
const METRICS = 'team-e2e-metrics-environment-key';
const INDEX = 'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }';
const PROGRESS = 'subscription($jobId: ID!) { indexProgress(jobId: $jobId) { phase } }';
const CREATE = 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key info { id role repositories } } }';
const SEARCH = 'query($input: SearchInput!) { search(input: $input) { results { scope { repoId name } } } }';

function repoWith(root: string, name: string, source: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'widget.ts'), source);
  return dir;
}

/** An error with the repository (or id) it names replaced, so two answers can be compared word for word. */
function normalised(body: { data?: unknown; errors?: { message: string; extensions?: unknown; path?: unknown }[] }, name: string) {
  return JSON.parse(JSON.stringify({ data: body.data ?? null, errors: body.errors?.map((e) => ({ message: e.message, extensions: e.extensions, path: e.path })) }).split(name).join('<NAME>'));
}

describe('a server a team can share', () => {
  let stack: RunningStack;
  let replica: RunningApp;
  let replicaUrl: string;
  const A = runId('teama');
  const B = runId('teamb');
  const MISSING = runId('teamnone');
  let jobB: string;
  let readKey: string;
  let readKeyId: string;
  const secrets: string[] = [ADMIN, METRICS];

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'team-'));
    const dirA = repoWith(root, 'alpha', 'export class AlphaWidget {\n  render(): string {\n    return "alpha";\n  }\n}\n\nexport interface AlphaShape {\n  area(): number;\n}\n\nexport class AlphaCircle implements AlphaShape {\n  area(): number {\n    return 3;\n  }\n}\n');
    const dirB = repoWith(root, 'beta', 'export class BetaWidget {\n  render(): string {\n    return "beta";\n  }\n}\n');
    const env = { API_KEY: ADMIN, API_METRICS_KEY: METRICS, INGEST_ALLOWED_ROOTS: root };
    stack = await startStack('team', env);
    // A second API replica on the same queues and database: revocation must reach it too.
    const port = await freePort();
    replica = await startApp('api', { API_PORT: String(port), QUEUE_PREFIX: stack.prefix, ...env }, API_READY);
    replicaUrl = `http://127.0.0.1:${port}/graphql`;
    const ws = wsClient(stack.url, { apiKey: ADMIN });
    try {
      for (const [name, path] of [
        [A, dirA],
        [B, dirB],
      ]) {
        const queued = await gql(stack.url, INDEX, { input: { path, name } }, admin);
        expect(queued.body.errors).toBeUndefined();
        const id = queued.body.data.indexRepository.id;
        if (name === B) jobB = id;
        const events = await collect(ws, PROGRESS, { jobId: id }, 90_000);
        expect(events[events.length - 1].data!.indexProgress.phase).toBe('done');
      }
    } finally {
      await ws.dispose();
    }
    const created = await gql(stack.url, CREATE, { input: { repositories: [A], role: 'read', name: 'reader of A' } }, admin);
    expect(created.body.errors).toBeUndefined();
    readKey = created.body.data.createApiKey.key;
    readKeyId = created.body.data.createApiKey.info.id;
    secrets.push(readKey);
    expect(readKey).toMatch(/^sgk_/);
  });

  afterAll(async () => {
    for (const name of [A, B]) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }, admin).catch(() => undefined);
    await replica?.stop();
    await stack?.stop();
  });

  it('a read key scoped to A searches A, and gets the same answer for B as for a repository that does not exist', async () => {
    const reader = { 'x-api-key': readKey };
    const inA = await gql(stack.url, SEARCH, { input: { text: 'AlphaWidget', repository: A, mode: 'BM25' } }, reader);
    expect(inA.body.errors).toBeUndefined();
    expect(inA.body.data.search.results.map((r: { scope: { name: string } }) => r.scope.name)).toContain('AlphaWidget');
    const inB = await gql(stack.url, SEARCH, { input: { text: 'BetaWidget', repository: B, mode: 'BM25' } }, reader);
    const inMissing = await gql(stack.url, SEARCH, { input: { text: 'BetaWidget', repository: MISSING, mode: 'BM25' } }, reader);
    expect(inB.body.errors?.[0]).toBeDefined();
    expect({ status: inB.status, body: normalised(inB.body, B) }).toEqual({ status: inMissing.status, body: normalised(inMissing.body, MISSING) });
    // The admin does see B: the refusal above is the key's scope, not a missing repository.
    const adminB = await gql(stack.url, SEARCH, { input: { text: 'BetaWidget', repository: B, mode: 'BM25' } }, admin);
    expect(adminB.body.data.search.results.map((r: { scope: { name: string } }) => r.scope.name)).toContain('BetaWidget');
    // Searching everything, B's scopes never come back; listing and lookup show only A.
    const all = await gql(stack.url, SEARCH, { input: { text: 'BetaWidget AlphaWidget', mode: 'BM25', topK: 50 } }, reader);
    expect(all.body.data.search.results.length).toBeGreaterThan(0);
    expect(new Set(all.body.data.search.results.map((r: { scope: { repoId: string } }) => r.scope.repoId))).toEqual(new Set([A]));
    const listed = await gql(stack.url, '{ repositories { name } }', {}, reader);
    expect(listed.body.data.repositories.map((r: { name: string }) => r.name).filter((n: string) => n === A || n === B)).toEqual([A]);
    const askB = await gql(stack.url, 'mutation($input: AskInput!) { ask(input: $input) { id } }', { input: { question: 'what is BetaWidget?', repository: B } }, reader);
    const askMissing = await gql(stack.url, 'mutation($input: AskInput!) { ask(input: $input) { id } }', { input: { question: 'what is BetaWidget?', repository: MISSING } }, reader);
    expect(askB.body.errors?.[0]).toBeDefined();
    expect(normalised(askB.body, B)).toEqual(normalised(askMissing.body, MISSING));
    const one = await gql(stack.url, 'query($b: String!, $m: String!) { b: repository(name: $b) { name } m: repository(name: $m) { name } }', { b: B, m: MISSING }, reader);
    expect(one.body.data).toEqual({ b: null, m: null });
    // Searching all, the key's repositories are filtered before the limit (the one hit is A's, not
    // dropped after the fact), and explain counts only what the key may see (the database holds more).
    const top = await gql(stack.url, 'query($input: SearchInput!) { search(input: $input) { results { scope { repoId } } explain } }', { input: { text: 'BetaWidget render', mode: 'BM25', topK: 1 } }, reader);
    expect(top.body.data.search.results.map((r: { scope: { repoId: string } }) => r.scope.repoId)).toEqual([A]);
    expect(JSON.stringify(top.body.data.search.explain)).toContain('<all 1 repositories>');
  });

  it('a read key may not rerank, not even through a search; a rerank is its starter’s: another key gets the answer of a made-up id', async () => {
    const reader = { 'x-api-key': readKey };
    const START = 'mutation($input: StartRerankInput!) { startRerank(input: $input) { jobId } }';
    const RESULT = 'query($id: ID!) { rerankResult(jobId: $id) { jobId question } }';
    const hits = await gql(stack.url, 'query($input: SearchInput!) { search(input: $input) { results { scope { id } } } }', { input: { text: 'AlphaWidget render area', repository: A, mode: 'BM25', topK: 5 } }, admin);
    const scopeIds: string[] = hits.body.data.search.results.map((r: { scope: { id: string } }) => r.scope.id);
    expect(scopeIds.length).toBeGreaterThan(0);
    const started = await gql(stack.url, START, { input: { question: 'what renders?', scopeIds } }, reader);
    expect(started.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const viaSearch = await gql(stack.url, 'query($input: SearchInput!) { search(input: $input) { rerank { jobId } } }', { input: { text: 'AlphaWidget', repository: A, mode: 'BM25', rerank: {} } }, reader);
    expect(viaSearch.body.data).toBeNull();
    expect(viaSearch.body.errors?.map((e: { message: string; extensions?: { code?: string } }) => [e.message, e.extensions?.code])).toEqual(started.body.errors!.map((e: { message: string; extensions?: { code?: string } }) => [e.message, e.extensions?.code]));
    // A write key scoped to A starts one; it reads it back, the reader of A (another key) does not.
    const writer = await gql(stack.url, CREATE, { input: { repositories: [A], role: 'write' } }, admin);
    const writeKey: string = writer.body.data.createApiKey.key;
    secrets.push(writeKey);
    const job = await gql(stack.url, START, { input: { question: 'what renders?', scopeIds } }, { 'x-api-key': writeKey });
    expect(job.body.errors).toBeUndefined();
    const jobId: string = job.body.data.startRerank.jobId;
    const made = `rr${'0'.repeat(24)}`;
    expect((await gql(stack.url, RESULT, { id: jobId }, { 'x-api-key': writeKey })).body.data.rerankResult).toMatchObject({ jobId, question: 'what renders?' });
    const theirs = await gql(stack.url, RESULT, { id: jobId }, reader);
    const madeUp = await gql(stack.url, RESULT, { id: made }, reader);
    expect(theirs.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect({ status: theirs.status, body: normalised(theirs.body, jobId) }).toEqual({ status: madeUp.status, body: normalised(madeUp.body, made) });
    const ws = wsClient(stack.url, { apiKey: readKey });
    try {
      const PROG = 'subscription($id: ID!) { rerankProgress(jobId: $id) { kind } }';
      const onTheirs = await collect(ws, PROG, { id: jobId }, 10_000);
      const onMade = await collect(ws, PROG, { id: made }, 10_000);
      expect(onTheirs[0].errors?.[0]).toBeDefined();
      expect(normalised(onTheirs[0], jobId)).toEqual(normalised(onMade[0], made));
    } finally {
      await ws.dispose();
    }
  });

  it('/metrics takes the admin key or the metrics key, not a read key', async () => {
    const metrics = stack.url.replace(/\/graphql$/, '/metrics');
    expect((await fetch(metrics, { headers: { 'x-api-key': readKey } })).status).toBe(403);
    expect((await fetch(metrics, { headers: { 'x-api-key': METRICS } })).status).toBe(200);
    expect((await fetch(metrics, { headers: admin })).status).toBe(200);
    // The metrics key reads nothing else.
    expect((await gql(stack.url, '{ repositories { name } }', {}, { 'x-api-key': METRICS })).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('a reader sees no server path; the admin does', async () => {
    const query = 'query($a: String!) { repository(name: $a) { name rootPath } }';
    const asReader = await gql(stack.url, query, { a: A }, { 'x-api-key': readKey });
    expect(asReader.body.data.repository).toEqual({ name: A, rootPath: null });
    const asAdmin = await gql(stack.url, query, { a: A }, admin);
    expect(asAdmin.body.data.repository.rootPath).toMatch(/alpha$/);
  });

  it("a read key cannot subscribe to B's index progress: refused like a job that does not exist", async () => {
    const ws = wsClient(stack.url, { apiKey: readKey });
    try {
      const onB = await collect(ws, PROGRESS, { jobId: jobB }, 10_000);
      const onMissing = await collect(ws, PROGRESS, { jobId: '999999999' }, 10_000);
      expect(onB[0].errors?.[0]).toBeDefined();
      expect(normalised(onB[0], jobB)).toEqual(normalised(onMissing[0], '999999999'));
    } finally {
      await ws.dispose();
    }
    // The admin may watch the same job (it replays its end).
    const adminWs = wsClient(stack.url, { apiKey: ADMIN });
    try {
      const events = await collect(adminWs, PROGRESS, { jobId: jobB }, 10_000);
      expect(events[0].errors).toBeUndefined();
    } finally {
      await adminWs.dispose();
    }
  });

  it('a read key cannot index or delete (FORBIDDEN), and nothing changes', async () => {
    const reader = { 'x-api-key': readKey };
    const index = await gql(stack.url, INDEX, { input: { path: '/tmp', name: A } }, reader);
    expect(index.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const del = await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: A }, reader);
    expect(del.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const listed = await gql(stack.url, '{ repositories { name } }', {}, admin);
    expect(listed.body.data.repositories.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining([A, B]));
  });

  it('holds MCP over HTTP (bearer key) to the same scope: A listed and searched, B answered like a missing repository, no indexing', async () => {
    const client = new Client({ name: 'team-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.url.replace(/\/graphql$/, '/mcp')), { requestInit: { headers: { authorization: `Bearer ${readKey}` } } }));
    try {
      const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
      const listed = text(await client.callTool({ name: 'list_repositories', arguments: {} }));
      expect(listed).toContain(A);
      expect(listed).not.toContain(B);
      expect(text(await client.callTool({ name: 'search', arguments: { query: 'AlphaWidget', repository: A, mode: 'bm25' } }))).toContain('AlphaWidget');
      const onB = (await client.callTool({ name: 'search', arguments: { query: 'BetaWidget', repository: B, mode: 'bm25' } })) as CallToolResult;
      const onMissing = (await client.callTool({ name: 'search', arguments: { query: 'BetaWidget', repository: MISSING, mode: 'bm25' } })) as CallToolResult;
      expect(onB.isError).toBe(true);
      expect(text(onB).split(B).join('<NAME>')).toBe(text(onMissing).split(MISSING).join('<NAME>'));
      const index = (await client.callTool({ name: 'index_repository', arguments: { path: '/tmp', name: A } })) as CallToolResult;
      expect(index.isError).toBe(true);
      expect(text(index)).toMatch(/^FORBIDDEN/);
    } finally {
      await client.close();
    }
  });

  it('another key’s conversation answers like a missing one', async () => {
    const other = await gql(stack.url, CREATE, { input: { repositories: [A], role: 'read' } }, admin);
    const otherKey: string = other.body.data.createApiKey.key;
    secrets.push(otherKey);
    const sessionId = runId('conv');
    const asked = await gql(stack.url, 'mutation($input: AskInput!) { ask(input: $input) { id } }', { input: { question: 'what does AlphaWidget render?', repository: A, sessionId } }, { 'x-api-key': readKey });
    expect(asked.body.errors).toBeUndefined();
    const CONV = 'query($s: String!) { conversation(sessionId: $s) { sessionId turns { seq } } }';
    // The worker records the turn when the ask ends (answered from retrieval alone without a model).
    let mine: { sessionId: string } | null = null;
    for (let i = 0; i < 120 && !mine; i++) {
      mine = (await gql(stack.url, CONV, { s: sessionId }, { 'x-api-key': readKey })).body.data?.conversation ?? null;
      if (!mine) await new Promise((r) => setTimeout(r, 250));
    }
    expect(mine).toMatchObject({ sessionId });
    const theirs = await gql(stack.url, CONV, { s: sessionId }, { 'x-api-key': otherKey });
    const missing = await gql(stack.url, CONV, { s: `${sessionId}x` }, { 'x-api-key': otherKey });
    expect(theirs.body).toEqual(missing.body);
    expect(theirs.body.data.conversation).toBeNull();
    // Sessions are per key: the other key asking under the same id starts a conversation of its own
    // (no "taken" refusal telling it the id is in use), and neither sees the other's turns.
    const again = await gql(stack.url, 'mutation($input: AskInput!) { ask(input: $input) { id } }', { input: { question: 'what is AlphaCircle?', repository: A, sessionId } }, { 'x-api-key': otherKey });
    expect(again.body.errors).toBeUndefined();
    let own: { sessionId: string; turns: { seq: number }[] } | null = null;
    for (let i = 0; i < 120 && !own; i++) {
      own = (await gql(stack.url, CONV, { s: sessionId }, { 'x-api-key': otherKey })).body.data?.conversation ?? null;
      if (!own) await new Promise((r) => setTimeout(r, 250));
    }
    expect(own).toEqual({ sessionId, turns: [{ seq: 1 }] });
    expect((await gql(stack.url, CONV, { s: sessionId }, { 'x-api-key': readKey })).body.data.conversation).toEqual({ sessionId, turns: [{ seq: 1 }] });
  });

  it('a revoked key is refused within a second by every API replica', async () => {
    const created = await gql(stack.url, CREATE, { input: { repositories: ['*'], role: 'read' } }, admin);
    const key: string = created.body.data.createApiKey.key;
    secrets.push(key);
    for (const url of [stack.url, replicaUrl]) expect((await gql(url, '{ repositories { name } }', {}, { 'x-api-key': key })).status).toBe(200);
    const revoked = await gql(replicaUrl, 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id: created.body.data.createApiKey.info.id }, admin);
    expect(revoked.body.data.revokeApiKey.revokedAt).toBeTruthy();
    const start = Date.now();
    for (const url of [stack.url, replicaUrl]) {
      let status = 0;
      while (Date.now() - start < 1_000) {
        status = (await gql(url, '{ repositories { name } }', {}, { 'x-api-key': key })).status;
        if (status === 401) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect({ url, status }).toEqual({ url, status: 401 });
    }
    expect(Date.now() - start).toBeLessThan(1_000);
  });

  it('scopegraph keys create / list / revoke: the key printed once, listed without its secret, then refused', async () => {
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, [join(ROOT, 'bin/scopegraph'), ...args], { env: { ...process.env, SCOPEGRAPH_URL: stack.url, API_KEY: ADMIN }, cwd: ROOT });
    const created = await cli('keys', 'create', '--repos', `${A},team-*`, '--role', 'write', '--name', 'ci');
    const key = created.stdout.trim();
    secrets.push(key);
    expect(key).toMatch(/^sgk_[A-Za-z0-9_-]{40,}$/);
    const id = created.stderr.match(/^key (\w+) \(write on /)![1];
    const listed = await cli('keys', 'list', '--json');
    expect(listed.stdout).not.toContain(key);
    expect(JSON.parse(listed.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id, role: 'write', repositories: [A, 'team-*'], revokedAt: null })]));
    expect((await gql(stack.url, '{ repositories { name } }', {}, { 'x-api-key': key })).status).toBe(200);
    expect((await cli('keys', 'revoke', id)).stdout).toMatch(new RegExp(`^revoked ${id} at `));
    expect((await gql(stack.url, '{ repositories { name } }', {}, { 'x-api-key': key })).status).toBe(401);
  });

  it('prints a relationship the way its edge points, in the CLI and over MCP', async () => {
    const cli = await promisify(execFile)(process.execPath, [join(ROOT, 'bin/scopegraph'), 'search', 'what implements AlphaShape', '--mode', 'graph', '--repo', A], { env: { ...process.env, SCOPEGRAPH_URL: stack.url, API_KEY: ADMIN }, cwd: ROOT });
    expect(cli.stdout).toContain('implementers of AlphaShape: AlphaCircle -IMPLEMENTS-> AlphaShape');
    const client = new Client({ name: 'team-e2e-arrows', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.url.replace(/\/graphql$/, '/mcp')), { requestInit: { headers: { authorization: `Bearer ${readKey}` } } }));
    try {
      const found = (await client.callTool({ name: 'search', arguments: { query: 'what implements AlphaShape', repository: A, mode: 'graph' } })) as CallToolResult;
      expect((found.content[0] as { text: string }).text).toContain('implementers of AlphaShape: AlphaCircle -IMPLEMENTS-> AlphaShape');
    } finally {
      await client.close();
    }
  });

  it("the audit log holds the run's mutations with key id and outcome, and no key appears in logs, errors or the audit", async () => {
    const { body } = await gql(stack.url, 'query { auditLog(limit: 500) { at keyId operation repository outcome errorCode } }', {}, admin);
    expect(body.errors).toBeUndefined();
    const events: { keyId: string; operation: string; repository: string | null; outcome: string }[] = body.data.auditLog;
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ keyId: 'env:admin', operation: 'indexRepository', repository: A, outcome: 'ok' }),
        expect.objectContaining({ keyId: 'env:admin', operation: 'indexRepository', repository: B, outcome: 'ok' }),
        expect.objectContaining({ keyId: 'env:admin', operation: 'createApiKey', outcome: 'ok' }),
        expect.objectContaining({ keyId: 'env:admin', operation: 'revokeApiKey', outcome: 'ok' }),
        expect.objectContaining({ keyId: readKeyId, operation: 'indexRepository', repository: A, outcome: 'refused' }),
        expect.objectContaining({ keyId: readKeyId, operation: 'deleteRepository', repository: A, outcome: 'refused' }),
        expect.objectContaining({ keyId: readKeyId, operation: 'ask', repository: A, outcome: 'ok' }),
        expect.objectContaining({ keyId: readKeyId, operation: 'ask', repository: B, outcome: 'refused' }),
      ]),
    );
    // A reader may not read the audit trail.
    expect((await gql(stack.url, '{ auditLog { keyId } }', {}, { 'x-api-key': readKey })).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const keys = await gql(stack.url, '{ apiKeys { id role repositories revokedAt } }', {}, admin);
    const everything = [JSON.stringify(body), JSON.stringify(keys.body), stack.api.output(), stack.worker.output(), replica.output()].join('\n');
    for (const secret of secrets) expect(everything.includes(secret)).toBe(false);
  });
});
