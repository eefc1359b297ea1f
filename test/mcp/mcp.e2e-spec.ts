import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { askModel, evidenceIds } from '../fakes/ask-scripts';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { gql } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { pollUntil } from '../support/poll';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';

// The SDK's own client against both transports: `scopegraph mcp` on stdio and /mcp on the API, with
// API_KEY set so both must present it.
const API_KEY = 'mcp-e2e-key';
const TOOLS = ['ask', 'dead_code', 'get_scope', 'history', 'impact', 'index_repository', 'list_repositories', 'localize', 'neighborhood', 'review_change', 'search'];

const textOf = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe('MCP server (stdio and Streamable HTTP)', () => {
  let stack: RunningStack;
  const name = runId('mcp');
  let http: Client;
  let stdio: Client;
  let gemini: FakeGemini;

  const connectHttp = async (key?: string) => {
    const client = new Client({ name: 'e2e-http', version: '1.0.0' });
    const url = new URL(stack.url.replace(/\/graphql$/, '/mcp'));
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: key ? { 'x-api-key': key } : {} } }));
    return client;
  };

  beforeAll(async () => {
    // A scripted chat model for the ask tool: the router picks hybrid, the answer cites the first evidence id.
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    gemini.onGenerate(askModel({ router: '[HYBRID:] create an invoice', answer: (req) => `[Answer:] InvoiceService.create builds it [cite:${evidenceIds(req)[0]}].` }));
    stack = await startStack('mcp', { API_KEY, GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GEMINI_BASE_URL: gemini.baseUrl, CHAT_PROVIDER: 'gemini', RERANK_PROVIDER: 'local' });
    http = await connectHttp(API_KEY);
    stdio = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(ROOT, 'bin/scopegraph'), 'mcp'],
        env: { ...(process.env as Record<string, string>), SCOPEGRAPH_URL: stack.url, API_KEY },
        stderr: 'pipe',
      }),
    );
    // Index through the tool, then wait for the repository to show its embedded scopes.
    const queued = await http.callTool({ name: 'index_repository', arguments: { path: FIXTURE, name } });
    expect(textOf(queued)).toMatch(/queued as job \S+/);
    let last: unknown;
    await pollUntil(
      `repository ${name} indexed with every scope embedded`,
      async () => {
        const repos = await gql(stack.url, 'query { repositories { name scopes embedded } }', {}, { 'x-api-key': API_KEY });
        const repo = (last = repos.body.data?.repositories.find((r: { name: string }) => r.name === name));
        return repo && repo.scopes > 0 && repo.embedded === repo.scopes;
      },
      { timeoutMs: 120_000, intervalMs: 500, seen: () => last },
    );
  });

  afterAll(async () => {
    await Promise.allSettled([http?.close(), stdio?.close()]);
    if (stack) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }, { 'x-api-key': API_KEY }).catch(() => undefined);
    await stack?.stop();
    await gemini?.close();
  });

  it.each([
    ['stdio', () => stdio],
    ['http', () => http],
  ])('lists the tools and searches over %s', async (_transport, client) => {
    const { tools } = await client().listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    expect(tools.find((t) => t.name === 'search')!.inputSchema.required).toEqual(['query']);

    const found = await client().callTool({ name: 'search', arguments: { query: 'create and store an invoice', repository: name, topK: 5 } });
    expect(found.isError).toBeFalsy();
    const text = textOf(found);
    // Compact hits: rank, qualified name, kind, path:lines, id, then an indented snippet.
    expect(text).toMatch(/^1\. \S+ \(\w+\) \S+:\d+(-\d+)? \[id [^\]]+\] score \d\.\d{4}/);
    expect(text).toMatch(/InvoiceService\.create \(method\) ts\/src\/services\/invoice-service\.ts:\d+-\d+/);
    expect(text.split('\n').length).toBeLessThan(5 * 12);
  });

  it('localizes an issue with a stack trace: the frame\'s method first, with its evidence and file', async () => {
    const issue = ['Invoices are stored twice', '', 'TypeError: invoice already saved', '    at InvoiceService.create (/srv/app/ts/src/services/invoice-service.ts:14:15)', '    at main (/srv/app/ts/src/main.ts:3:1)'].join('\n');
    const located = await http.callTool({ name: 'localize', arguments: { issue, repository: name, topK: 5 } });
    expect(located.isError).toBeFalsy();
    const text = textOf(located);
    expect(text).toMatch(/^1\. InvoiceService\.create \(method\) ts\/src\/services\/invoice-service\.ts:\d+-\d+ \[id [^\]]+\]/);
    expect(text).toMatch(/frame: ts\/src\/services\/invoice-service\.ts:14 in InvoiceService\.create/);
    expect(text).toMatch(/files:\n  1\. ts\/src\/services\/invoice-service\.ts/);
  });

  it('reads a scope and walks its callers', async () => {
    const found = textOf(await http.callTool({ name: 'search', arguments: { query: 'InvoiceRepository.save', repository: name, mode: 'bm25', topK: 3, kind: 'method' } }));
    const id = /\[id ([^\]]+)\]/.exec(found)![1];
    const scope = textOf(await stdio.callTool({ name: 'get_scope', arguments: { id } }));
    expect(scope.split('\n')[0]).toContain(`[id ${id}]`);
    expect(scope).toMatch(/save/);

    const callers = await stdio.callTool({ name: 'neighborhood', arguments: { id, edges: ['CALLS'], direction: 'in' } });
    // Each hop says how its edge was made.
    expect(textOf(callers)).toMatch(/<-CALLS\[(compiler|scip|name|heuristic)\]- InvoiceService\.create \(method\)/);

    const repos = textOf(await http.callTool({ name: 'list_repositories', arguments: {} }));
    expect(repos).toMatch(new RegExp(`^${name}  \\S+  files \\d+, scopes \\d+`, 'm'));
  });

  it.each([
    ['stdio', () => stdio],
    ['http', () => http],
  ])('answers a question with the pipeline over %s, citing scopes from the evidence', async (_transport, client) => {
    const answered = await client().callTool({ name: 'ask', arguments: { question: 'How is an invoice created?', repository: name } });
    expect(answered.isError).toBeFalsy();
    const text = textOf(answered);
    // The citation marker becomes a footnote; the source it names: qualified name, path:lines, id.
    expect(text.split('\n')[0]).toBe('InvoiceService.create builds it [1].');
    expect(text).toMatch(/\nSources:\n {2}\[1\] \S+ \S+:\d+(-\d+)? \[id [^\]]+\]\n/);
    expect(text).toMatch(/retrieval: hybrid "create an invoice"/);
    const unknown = await client().callTool({ name: 'ask', arguments: { question: 'x?', repository: 'no-such-repo-here' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^BAD_USER_INPUT \(repository\)/);
  });

  it('answers bad input with the field at fault', async () => {
    // Schema validation by the SDK (zod): names the argument.
    const badK = await http.callTool({ name: 'search', arguments: { query: 'x', topK: 0 } });
    expect(badK.isError).toBe(true);
    expect(textOf(badK)).toMatch(/topK/);
    // Validation by the API: the GraphQL error code and field travel into the tool error.
    const unknownRepo = await stdio.callTool({ name: 'search', arguments: { query: 'x', repository: 'no-such-repo-here' } });
    expect(unknownRepo.isError).toBe(true);
    expect(textOf(unknownRepo)).toMatch(/^BAD_USER_INPUT \(repository\): unknown repository/);
    const outside = await http.callTool({ name: 'index_repository', arguments: { path: '/etc', name: 'etc' } });
    expect(textOf(outside)).toMatch(/^BAD_USER_INPUT.*allowed roots/);
    const missing = await stdio.callTool({ name: 'get_scope', arguments: { id: 'no:such:scope' } });
    expect(textOf(missing)).toMatch(/^NOT_FOUND \(id\)/);
  });

  it('refuses /mcp without the API key', async () => {
    await expect(connectHttp()).rejects.toThrow(/401|Unauthorized|API key/i);
    await expect(connectHttp('wrong-key')).rejects.toThrow(/401|Unauthorized|API key/i);
  });
});
