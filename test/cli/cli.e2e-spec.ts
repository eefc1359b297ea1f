import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
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
    // The default root (the folder holding this checkout) and the temporary folder (binary-only trees).
    stack = await startStack('cli', { INGEST_ALLOWED_ROOTS: [path.dirname(ROOT), fs.realpathSync(os.tmpdir())].join(path.delimiter) });
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
    // references per language: resolved (by provenance), external, dynamic, not-found, in JSON and as text
    const ts = mine.coverage.find((c: { language: string }) => c.language === 'typescript');
    expect(ts.resolved).toBeGreaterThan(10);
    expect(ts.byCompiler + ts.byScip + ts.byName + ts.byHeuristic).toBe(ts.resolved);
    const listed = (await cli('repos')).stdout;
    const section = listed.slice(listed.indexOf(`  ${name}\n`));
    expect(section).toMatch(new RegExp(`typescript\\s+resolved ${ts.resolved} \\([^)]*name ${ts.byName}[^)]*\\), external ${ts.external}, dynamic ${ts.dynamic}, not-found ${ts.notFound}`));
    const calls = ts.callsResolved + ts.callsNotFound;
    expect(section).toContain(`(not-found ${Math.round((100 * ts.callsNotFound) / calls)}% of ${calls} in-repo call sites)`);

    // The fixture holds the same invoicing example in several languages: the TypeScript one is asked for.
    const found = await cli('search', 'create and store an invoice', '--repo', name, '--top-k', '5', '--language', 'typescript', '--json');
    expect(found.code).toBe(0);
    const names = JSON.parse(found.stdout).results.map((r: { scope: { qualifiedName: string } }) => r.scope.qualifiedName);
    expect(names).toContain('InvoiceService.create');

    const text = await cli('search', 'InvoiceRepository', '--repo', name, '--mode', 'bm25', '--top-k', '3', '--language', 'typescript');
    expect(text.stdout).toMatch(/1\. InvoiceRepository \(class, typescript\)/);
  });

  it('fails with a clear message and exit code 1 on bad input', async () => {
    const unknown = await cli('search', 'x', '--repo', 'no-such-repo-here');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/BAD_USER_INPUT: unknown repository/);
    const outside = await cli('index', '/etc', '--name', 'etc');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/allowed roots/);
    const scip = await cli('index', FIXTURE, '--name', name, '--scip', '/etc/hostname');
    expect(scip.code).toBe(1);
    expect(scip.stderr).toMatch(/BAD_USER_INPUT.*\/etc\/hostname.*allowed roots/);
  });

  it('refuses a folder with nothing it can read (exit 1, no empty repository left behind)', async () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-binary-'));
    const binaryName = runId('bin');
    try {
      fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
      // A supported extension but binary bytes: skipped as binary when read.
      fs.writeFileSync(path.join(dir, 'blob.ts'), Buffer.from([0, 1, 2, 3, 0, 255]));
      const indexed = await cli('index', dir, '--name', binaryName);
      expect(indexed.code).toBe(1);
      expect(indexed.stderr).toMatch(/indexing failed: nothing could be read in .*sg-binary-.*: every file was skipped \(.*1 binary.*\)/);
      const repos = JSON.parse((await cli('repos', '--json')).stdout) as { name: string }[];
      expect(repos.map((r) => r.name)).not.toContain(binaryName);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says where the API was expected when it is not running', async () => {
    const down = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'health'], { env: { ...process.env, SCOPEGRAPH_URL: 'http://127.0.0.1:9/graphql' } }).catch((e) => e);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach the scopegraph API at http:\/\/127\.0\.0\.1:9\/graphql/);
  });
});
