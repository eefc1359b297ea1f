import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, ROOT, runId } from '../support/processes';

// Logs as a person at a terminal and a log collector each need them: readable lines on a TTY, JSON
// lines in files; `npm start` (scripts/run-app.sh) keeps the terminal to warnings and errors and
// caps its files. A terminal is a real pseudo-terminal (util-linux `script`).

jest.setTimeout(120_000);

/** Runs a shell command on a pseudo-terminal; its terminal output is what `output()` returns. */
function onTerminal(command: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out.replace(/\r/g, '') };
}

async function until(condition: () => boolean, what: () => string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The node processes below a terminal (script → shell → node), stopped by their own pids. */
function stopTree(root: ChildProcess): Promise<void> {
  const descendants = (pid: number): number[] => {
    let children: number[] = [];
    try {
      children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
    } catch {
      children = [];
    }
    return children.flatMap((c) => [c, ...descendants(c)]);
  };
  const pids = descendants(root.pid!);
  return new Promise((resolve) => {
    if (root.exitCode !== null) return resolve();
    root.once('exit', () => resolve());
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    setTimeout(() => root.kill('SIGKILL'), 10_000).unref();
  });
}

async function ask(port: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
  }
}

describe('logs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-logs-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('on a terminal the API writes readable lines, not JSON, request lines only at debug', async () => {
    const port = await freePort();
    const app = onTerminal('exec node dist/apps/api/src/main.js', { API_PORT: String(port), QUEUE_PREFIX: runId('tty'), LOG_LEVEL: 'debug' });
    try {
      await until(() => /INFO  \[Api\] GraphQL http:\/\//.test(app.output()), app.output);
      await ask(port, 3);
      await until(() => (app.output().match(/DEBUG POST \/graphql 200/g) ?? []).length >= 3, app.output, 10_000);
      const lines = app.output().split('\n').filter(Boolean);
      expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
      expect(lines.every((l) => /^\d\d:\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /.test(l))).toBe(true);
    } finally {
      await stopTree(app.child);
    }
  });

  it('as npm start runs it: the terminal shows no JSON line, the file holds JSON lines and no request line at info', async () => {
    const port = await freePort();
    const file = path.join(dir, 'api.log');
    const app = onTerminal('exec bash scripts/run-app.sh api dist/apps/api/src/main.js', { API_PORT: String(port), QUEUE_PREFIX: runId('start'), LOG_DIR: dir });
    try {
      await until(() => fs.existsSync(file) && /GraphQL http:\/\//.test(fs.readFileSync(file, 'utf8')), () => `${app.output()}\n${fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''}`);
      const linesAtReady = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(linesAtReady.every((l) => l.startsWith('{'))).toBe(true);
      await ask(port, 30);
      await new Promise((r) => setTimeout(r, 500));
      // 30 requests, not one more line: request lines are at debug. (The query-plan warm-up logs once,
      // in the background, whenever it ends: not a request line.)
      const notWarmUp = (l: string) => !l.includes('"context":"PlanWarmup"');
      expect(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).filter(notWarmUp)).toHaveLength(linesAtReady.filter(notWarmUp).length);
      // What the welcome screen would share its terminal with: nothing at all while all is well.
      expect(app.output().split('\n').filter((l) => l.trim())).toEqual([]);
    } finally {
      await stopTree(app.child);
    }
  });

  it('caps and rotates the files npm start writes', async () => {
    const port = await freePort();
    const capDir = fs.mkdtempSync(path.join(dir, 'cap-'));
    const file = path.join(capDir, 'api.log');
    // 20 KB files and a line per request (LOG_LEVEL=debug), so a few hundred requests rotate them.
    const app = onTerminal('exec bash scripts/run-app.sh api dist/apps/api/src/main.js', { API_PORT: String(port), QUEUE_PREFIX: runId('cap'), LOG_DIR: capDir, LOG_FILE_MAX_MB: '0.02', LOG_LEVEL: 'debug' });
    try {
      await until(() => fs.existsSync(file) && /GraphQL http:\/\//.test(fs.readFileSync(file, 'utf8') + (fs.existsSync(`${file}.1`) ? fs.readFileSync(`${file}.1`, 'utf8') : '')), app.output);
      await ask(port, 300);
      await new Promise((r) => setTimeout(r, 500));
      const cap = Math.round(0.02 * 1024 * 1024);
      expect(fs.readdirSync(capDir).sort()).toEqual(['api.log', 'api.log.1']);
      expect(fs.statSync(file).size).toBeLessThanOrEqual(cap);
      expect(fs.statSync(`${file}.1`).size).toBeLessThanOrEqual(cap);
      expect(fs.statSync(`${file}.1`).size).toBeGreaterThan(cap * 0.9);
    } finally {
      await stopTree(app.child);
    }
  });
});
