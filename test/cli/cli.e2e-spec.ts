import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { gql } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';

const run = promisify(execFile);

// The scopegraph command as a user runs it, against a real API and worker.
describe('scopegraph CLI', () => {
  let stack: RunningStack;
  const name = runId('cli');
  const cli = (...args: string[]) =>
    run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), ...args], { env: { ...process.env, SCOPEGRAPH_URL: stack.url }, cwd: ROOT }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  beforeAll(async () => {
    stack = await startStack('cli');
  });

  afterAll(async () => {
    await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    await stack?.stop();
  });

  it('indexes, lists and searches a repository', async () => {
    const indexed = await cli('index', FIXTURE, '--name', name, '--json');
    expect(indexed.code).toBe(0);
    const result = JSON.parse(indexed.stdout);
    expect(result.files.indexed).toBeGreaterThan(10);
    expect(result.embedded).toBe(result.scopes.total);

    const repos = JSON.parse((await cli('repos', '--json')).stdout);
    const mine = repos.find((r: { name: string }) => r.name === name);
    expect(mine).toMatchObject({ scopes: result.scopes.total });
    // references per language: resolved, external, dynamic, unresolved, in JSON and as text
    const ts = mine.coverage.find((c: { language: string }) => c.language === 'typescript');
    expect(ts.resolved).toBeGreaterThan(10);
    const listed = (await cli('repos')).stdout;
    const section = listed.slice(listed.indexOf(`  ${name}\n`));
    expect(section).toMatch(new RegExp(`typescript\\s+resolved ${ts.resolved}, external ${ts.external}, dynamic ${ts.dynamic}, unresolved ${ts.unresolved}`));

    const found = await cli('search', 'create and store an invoice', '--repo', name, '--top-k', '5', '--json');
    expect(found.code).toBe(0);
    const names = JSON.parse(found.stdout).results.map((r: { scope: { qualifiedName: string } }) => r.scope.qualifiedName);
    expect(names).toContain('InvoiceService.create');

    const text = await cli('search', 'InvoiceRepository', '--repo', name, '--mode', 'bm25', '--top-k', '3');
    expect(text.stdout).toMatch(/1\. .*InvoiceRepository/);
  });

  it('fails with a clear message and exit code 1 on bad input', async () => {
    const unknown = await cli('search', 'x', '--repo', 'no-such-repo-here');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/BAD_USER_INPUT: unknown repository/);
    const outside = await cli('index', '/etc', '--name', 'etc');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/allowed roots/);
  });

  it('says where the API was expected when it is not running', async () => {
    const down = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'health'], { env: { ...process.env, SCOPEGRAPH_URL: 'http://127.0.0.1:9/graphql' } }).catch((e) => e);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach the scopegraph API at http:\/\/127\.0\.0\.1:9\/graphql/);
  });
});
