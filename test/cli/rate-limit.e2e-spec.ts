import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RateLimitedFetch } from '@scopegraph/api-client';
import { collect, wsClient } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';

const run = promisify(execFile);

// The project's own clients at the API's rate limit: `scopegraph eval` and the stdio MCP server pace
// themselves or wait out 429s, finish with every result, and report the waiting; the server's count
// of 429s equals what the clients say they received.
const LIMIT_PER_WINDOW = 10;
// Long enough that a loaded machine (specs run two at a time) still sends a window's budget inside it:
// at 2 s, searches slowed past 200 ms each never reached the limit and nothing was there to wait out.
const WINDOW_S = 5;
const QUERIES = 40;

const INDEX_PROGRESS = 'subscription($jobId: ID!) { indexProgress(jobId: $jobId) { phase } }';
const TARGETS = [
  { query: 'InvoiceService', relevant: { path: 'ts/src/services/invoice-service.ts', name: 'InvoiceService', kind: 'class' } },
  { query: 'InvoiceRepository', relevant: { path: 'ts/src/services/invoice-repository.ts', name: 'InvoiceRepository', kind: 'class' } },
  { query: 'compute_tax', relevant: { path: 'py/billing/tax.py', name: 'compute_tax', kind: 'function' } },
  { query: 'BaseEntity', relevant: { path: 'ts/src/models/base-entity.ts', name: 'BaseEntity', kind: 'class' } },
];

describe('clients at the rate limit', () => {
  let stack: RunningStack;
  const name = runId('rate');
  // The test's own calls wait like every other client, so its 429s are counted too.
  const own = new RateLimitedFetch();
  const call = async <T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await own.fetch(stack.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: T; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data as T;
  };
  const refusedByServer = async () => {
    const res = await own.fetch(stack.url.replace(/\/graphql$/, '/metrics'), { method: 'GET' });
    // every way a 429 leaves the API (the GraphQL guard, the HTTP guard, the early gate), summed
    return [...(await res.text()).matchAll(/^scopegraph_rate_limited_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  beforeAll(async () => {
    stack = await startStack('rate', {
      API_RATE_LIMIT_PER_MIN: String((LIMIT_PER_WINDOW * 60) / WINDOW_S),
      API_RATE_LIMIT_WINDOW_S: String(WINDOW_S),
      EMBEDDING_PROVIDER: 'hash',
    });
    const { indexRepository } = await call<{ indexRepository: { id: string } }>('mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }', { input: { path: FIXTURE, name } });
    const ws = wsClient(stack.url);
    try {
      const events = await collect(ws, INDEX_PROGRESS, { jobId: indexRepository.id }, 110_000);
      expect(events.at(-1)!.data!.indexProgress.phase).toBe('done');
    } finally {
      await ws.dispose();
    }
  });

  afterAll(async () => {
    await call('mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    await stack?.stop();
  });

  it(`scopegraph eval of ${QUERIES} queries completes, keeps the waiting out of latency, and says how long it waited`, async () => {
    const dataset = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sg-rate-')), 'rate.jsonl');
    const lines = Array.from({ length: QUERIES }, (_, i) => {
      const t = TARGETS[i % TARGETS.length];
      return JSON.stringify({ id: `rate-${i}`, repo: name, query: t.query, relevant: [t.relevant] });
    });
    fs.writeFileSync(dataset, lines.join('\n') + '\n');
    const before = await refusedByServer();
    const ownBefore = own.stats.limited;
    const env = { ...process.env, SCOPEGRAPH_URL: stack.url };
    const json = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'eval', '--dataset', dataset, '--modes', 'bm25', '--json'], { env, cwd: ROOT });
    const out = JSON.parse(json.stdout);
    const runs = out.queries.filter((q: { system: string }) => q.system === 'bm25');
    expect(runs).toHaveLength(QUERIES);
    // every search answered, each finding its target
    expect(runs.every((q: { returned: number; firstRank: number | null }) => q.returned > 0 && q.firstRank !== null)).toBe(true);
    // 42 requests (repositories, one warm-up, 40 searches) through a budget of 10 per window: it waited
    expect(out.rateLimit.limited + out.rateLimit.paced).toBeGreaterThanOrEqual(Math.floor((QUERIES + 2) / LIMIT_PER_WINDOW) - 1);
    expect(out.rateLimit.waitedMs).toBeGreaterThan(0);
    // no wait hides inside a latency: the latencies add up to far less than the waiting
    const latency = out.systems.find((s: { system: string }) => s.system === 'bm25').latencyMs;
    expect(latency.mean * QUERIES).toBeLessThan(out.rateLimit.waitedMs);
    expect(json.stderr).toMatch(/(rate limited|pacing to the API's rate limit), resuming in \d+ s/);
    const after = await refusedByServer();
    expect(after - before).toBe(out.rateLimit.limited + (own.stats.limited - ownBefore));

    // The text report says it too (a shorter run: a dozen searches still pass one window's budget).
    const short = dataset.replace(/\.jsonl$/, '-short.jsonl');
    fs.writeFileSync(short, lines.slice(0, LIMIT_PER_WINDOW + 2).join('\n') + '\n');
    const text = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'eval', '--dataset', short, '--modes', 'bm25'], { env, cwd: ROOT });
    expect(text.stdout).toMatch(/waited \d+\.\d s at the API's rate limit \(\d+ times rate limited, \d+ paced\); latencies exclude the waiting/);
  }, 180_000);

  it(`an MCP client making ${QUERIES} searches gets every result; the server's 429s are the ones the MCP server waited out`, async () => {
    const before = await refusedByServer();
    const ownBefore = own.stats.limited;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin/scopegraph'), 'mcp'],
      env: { ...(process.env as Record<string, string>), SCOPEGRAPH_URL: stack.url },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (d) => (stderr += d));
    const mcp = new Client({ name: 'rate-e2e', version: '1.0.0' });
    await mcp.connect(transport);
    for (let i = 0; i < QUERIES; i++) {
      const t = TARGETS[i % TARGETS.length];
      const r = (await mcp.callTool({ name: 'search', arguments: { query: t.query, repository: name, mode: 'bm25', topK: 3 } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect((r.content[0] as { text: string }).text).toContain(t.relevant.name);
    }
    await mcp.close();
    // the MCP server reports its waiting when it exits
    await new Promise<void>((resolve) => (/waited [\d.]+ s at the API's rate limit/.test(stderr) ? resolve() : transport.stderr!.once('end', () => resolve())));
    const m = /waited ([\d.]+) s at the API's rate limit \((\d+) times rate limited, (\d+) paced\)/.exec(stderr);
    expect(m).not.toBeNull();
    const [, , limited, paced] = m!.map(Number);
    expect(limited + paced).toBeGreaterThanOrEqual(Math.floor(QUERIES / LIMIT_PER_WINDOW) - 1);
    const after = await refusedByServer();
    expect(after - before).toBe(limited + (own.stats.limited - ownBefore));
  }, 180_000);
});
