import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { gql } from '../support/graphql-client';
import { pollUntil } from '../support/poll';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';
import { GitRepo } from './git-repo';

const run = promisify(execFile);
const textOf = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

// The same answers through every way in: GraphQL, the MCP tools and the CLI, on a repository the
// worker indexed (history read after the scopes) from a git repository made here.
describe('impact, reviewChange, history and deadCode through the API, MCP and CLI', () => {
  let stack: RunningStack;
  let mcp: Client;
  const name = runId('impapi');
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-impact-'));
  const git = new GitRepo(tmp);
  const shas: string[] = [];

  beforeAll(async () => {
    shas.push(git.commit('start', { 'pkg/util.py': 'def helper(x):\n    return x + 1\n\n\ndef unused_thing():\n    return 0\n', 'pkg/app.py': 'from pkg.util import helper\n\n\ndef run_app():\n    return helper(1)\n' }, 'Dee'));
    shas.push(git.commit('both', { 'pkg/util.py': 'def helper(x):\n    return x + 2\n\n\ndef unused_thing():\n    return 0\n', 'pkg/app.py': 'from pkg.util import helper\n\n\ndef run_app():\n    return helper(2)\n' }, 'Eve'));
    shas.push(git.commit('both again', { 'pkg/util.py': 'def helper(x):\n    return x + 3\n\n\ndef unused_thing():\n    return 0\n', 'pkg/app.py': 'from pkg.util import helper\n\n\ndef run_app():\n    return helper(3)\n' }, 'Eve'));
    stack = await startStack('impapi', { INGEST_ALLOWED_ROOTS: fs.realpathSync(os.tmpdir()) });
    const queued = await gql(stack.url, 'mutation($i: IndexRepositoryInput!) { indexRepository(input: $i) { id } }', { i: { path: tmp, name } });
    expect(queued.body.errors).toBeUndefined();
    let last: unknown;
    await pollUntil(
      `${name} indexed with its history`,
      async () => {
        const r = await gql(stack.url, 'query($r: String!) { history(repository: $r) { status commits } }', { r: name });
        last = r.body;
        return r.body.data?.history.status === 'git';
      },
      { timeoutMs: 60_000, intervalMs: 300, seen: () => last },
    );
    mcp = new Client({ name: 'e2e-impact', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(stack.url.replace(/\/graphql$/, '/mcp'))));
  });

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    if (stack) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    await stack?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('answers history without emails unless asked, impact with co-change, dead code, and a review of two refs', async () => {
    const history = await gql(
      stack.url,
      `query($r: String!, $e: Boolean) { history(repository: $r, includeEmails: $e) { status head commits authors { name email commits }
         scopes { qualifiedName changeCount mainAuthors coChanged { qualifiedName support confidence } } recentCommits { sha author email } } }`,
      { r: name },
    );
    const h = history.body.data.history;
    expect(h).toMatchObject({ status: 'git', head: shas[2], commits: 3 });
    expect(h.authors).toEqual([{ name: 'Eve', email: null, commits: 2 }, { name: 'Dee', email: null, commits: 1 }]);
    expect(h.recentCommits.every((c: { email: string | null }) => c.email === null)).toBe(true);
    expect(h.scopes.find((s: { qualifiedName: string }) => s.qualifiedName === 'helper')).toMatchObject({ changeCount: 3, coChanged: [{ qualifiedName: 'run_app', support: 3, confidence: 1 }] });
    const withEmails = await gql(stack.url, 'query($r: String!) { history(repository: $r, includeEmails: true) { authors { email } } }', { r: name });
    expect(withEmails.body.data.history.authors[0].email).toBe('eve@example.org');

    const IMPACT_QUERY = `query($i: ImpactInput!) { impact(input: $i) { levels { depth scopes { relation scope { qualifiedName } path { edge resolver } } } coverage { nameOnlyEdges testsFound summary } history
         changesWith { scope { qualifiedName } sources { kind rank links depth lineDistance support confidence } } changesWithStatus } }`;
    // changesWith is opt-in: by default none are computed and the answer says it was not asked.
    const plain = await gql(stack.url, IMPACT_QUERY, { i: { repository: name, qualifiedNames: ['helper'], depth: 2 } });
    expect(plain.body.errors).toBeUndefined();
    expect(plain.body.data.impact).toMatchObject({ changesWith: [], changesWithStatus: 'not-asked' });
    const impact = await gql(stack.url, IMPACT_QUERY, { i: { repository: name, qualifiedNames: ['helper'], depth: 2, changesWith: 10 } });
    expect(impact.body.errors).toBeUndefined();
    expect(impact.body.data.impact.changesWithStatus).toBe('computed');
    expect(impact.body.data.impact.levels).toEqual(plain.body.data.impact.levels);
    // run_app calls helper and changed with it in all three commits; unused_thing sits 4 lines below it.
    const changesWith = impact.body.data.impact.changesWith;
    expect(changesWith.map((c: { scope: { qualifiedName: string } }) => c.scope.qualifiedName)).toEqual(['run_app', 'unused_thing']);
    expect(changesWith[0].sources).toEqual([
      { kind: 'static', rank: 1, links: 1, depth: 1, lineDistance: null, support: null, confidence: null },
      { kind: 'co-change', rank: 1, links: null, depth: null, lineDistance: null, support: 3, confidence: 1 },
    ]);
    expect(changesWith[1].sources).toEqual([{ kind: 'same-file', rank: 1, links: null, depth: null, lineDistance: 4, support: null, confidence: null }]);
    expect(impact.body.data.impact.levels[0]).toMatchObject({ depth: 1, scopes: [{ relation: 'caller', scope: { qualifiedName: 'run_app' }, path: [{ edge: 'CALLS', resolver: 'fast' }] }] });
    expect(impact.body.data.impact.coverage).toMatchObject({ nameOnlyEdges: 1, testsFound: false });

    const dead = await gql(stack.url, 'query($i: DeadCodeInput!) { deadCode(input: $i) { candidates { confidence reasons scope { qualifiedName } } } }', { i: { repository: name, minConfidence: 0 } });
    expect(dead.body.data.deadCode.candidates.map((c: { scope: { qualifiedName: string } }) => c.scope.qualifiedName)).toContain('unused_thing');

    const review = await gql(stack.url, 'query($i: ReviewChangeInput!) { reviewChange(input: $i) { changedScopes { qualifiedName change } coChangeMissing { scope { qualifiedName } } } }', {
      i: { repository: name, base: shas[0], head: shas[1] },
    });
    expect(review.body.data.reviewChange.changedScopes).toEqual([
      { qualifiedName: 'run_app', change: 'modified' },
      { qualifiedName: 'helper', change: 'modified' },
    ]);
  });

  it('refuses bad input with BAD_USER_INPUT and the field', async () => {
    const bad = await gql(stack.url, 'query($i: ImpactInput!) { impact(input: $i) { depth } }', { i: { repository: name, qualifiedNames: ['helper'], depth: 50 } });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'depth' });
    const tooMany = await gql(stack.url, 'query($i: ImpactInput!) { impact(input: $i) { depth } }', { i: { repository: name, qualifiedNames: ['helper'], changesWith: 51 } });
    expect(tooMany.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'changesWith' });
    const unknown = await gql(stack.url, 'query($i: ReviewChangeInput!) { reviewChange(input: $i) { base } }', { i: { repository: name, base: 'no-such-ref', head: 'HEAD' } });
    expect(unknown.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'base' });
  });

  it('gives the same answers as MCP tools and CLI commands', async () => {
    const plainTool = await mcp.callTool({ name: 'impact', arguments: { repository: name, qualifiedNames: ['helper'] } });
    expect(textOf(plainTool)).toMatch(/depth 1:\n\s+caller run_app pkg\/app\.py:4-5 \(CALLS line 5, by name\)/);
    expect(textOf(plainTool)).toContain('usually changes with it: not asked (pass changesWith: N for N suggestions)');
    const tool = await mcp.callTool({ name: 'impact', arguments: { repository: name, qualifiedNames: ['helper'], changesWith: 10 } });
    expect(textOf(tool)).toMatch(/depth 1:\n\s+caller run_app pkg\/app\.py:4-5 \(CALLS line 5, by name\)/);
    expect(textOf(tool)).toMatch(/usually changes with it \(static edges, same file, co-change fused\):\n\s+run_app pkg\/app\.py:4-5 \(static: linked to 1; co-change: 100% of 3\+ commits\)/);
    const histTool = await mcp.callTool({ name: 'history', arguments: { repository: name } });
    expect(textOf(histTool)).toMatch(/3 commits from/);
    const cli = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'dead-code', '--repo', name, '--min-confidence', '0'], { env: { ...process.env, SCOPEGRAPH_URL: stack.url }, cwd: ROOT });
    expect(cli.stdout).toMatch(/function unused_thing pkg\/util\.py:5-6/);
    const cliImpact = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'impact', 'helper', '--repo', name, '--changes-with', '5'], { env: { ...process.env, SCOPEGRAPH_URL: stack.url }, cwd: ROOT });
    expect(cliImpact.stdout).toMatch(/usually changes with it \(static edges, same file, co-change fused\):\n\s+run_app pkg\/app\.py:4-5 \(static: linked to 1; co-change: 100% of 3\+ commits\)/);
  });
});
