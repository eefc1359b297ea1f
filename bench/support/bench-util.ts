import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';

export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** Every file below `dir` (absolute paths), skipping node_modules and dot-entries. */
export function listFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, out);
    else out.push(p);
  }
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** Prints rows as an aligned table (first row is the header). */
export function printTable(rows: (string | number)[][]): void {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? formatNumber(c) : c)));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  for (const [n, r] of cells.entries()) {
    process.stdout.write(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ') + '\n');
    if (n === 0) process.stdout.write(widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
  }
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Number.isInteger(n) ? String(n) : n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 3);
}

/**
 * The TypeScript sources shipped in an npm package, unpacked once into .cache/bench (npm pack uses
 * the registry the machine is configured for; nothing else is downloaded).
 */
export function npmPackageSources(spec: string): string {
  const dir = path.join(projectRoot(), '.cache', 'bench', spec.replace(/[^A-Za-z0-9.@-]/g, '_'));
  const done = path.join(dir, '.complete');
  if (!fs.existsSync(done)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const out = execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop()!;
    execFileSync('tar', ['xzf', path.join(dir, out), '-C', dir]);
    fs.writeFileSync(done, '');
  }
  return path.join(dir, 'package');
}

/** Options of startBuiltApp beyond the env. */
export interface BuiltAppOptions {
  /** Entry file to run instead of dist/apps/<name>/src/main.js (an A/B run against another build). */
  main?: string;
  /** Node options for the child, e.g. a --require of the CPU profile preload. */
  nodeOptions?: string;
}

/** Characters of an app's output kept for the error message when it exits before it is ready. */
const STARTUP_OUTPUT_CHARS = 20_000;

/**
 * Node flags the API is launched with by `npm start`, `npm run start:api` and the Dockerfile (a larger
 * young generation: see scripts/start.sh); the benches launch it the same way.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Starts dist/apps/<name> (built) with extra env and waits for its ready line. */
export function startBuiltApp(name: 'api' | 'worker', env: Record<string, string>, ready: RegExp, options: BuiltAppOptions = {}): Promise<ChildProcess> {
  const main = options.main ? path.resolve(options.main) : path.join(projectRoot(), 'dist/apps', name, 'src/main.js');
  const nodeOptions = [process.env.NODE_OPTIONS, options.nodeOptions].filter(Boolean).join(' ');
  const child = spawn(process.execPath, [...(name === 'api' ? API_NODE_FLAGS : []), main], {
    cwd: projectRoot(),
    env: { ...process.env, NO_COLOR: '1', ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Output is read until the end (a full pipe would block the app's log writes), but only kept and
  // matched until the app is ready: under load the access log would otherwise cost the bench CPU
  // that the measured app needs on the same machine.
  let out = '';
  let started = false;
  return new Promise((resolve, reject) => {
    const check = (d: Buffer) => {
      if (started) return;
      out = (out + d).slice(-STARTUP_OUTPUT_CHARS);
      if (ready.test(out)) {
        started = true;
        resolve(child);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${out}`)));
  });
}

/** CPU milliseconds (user + system) a process has used so far, from /proc; null where there is no /proc entry. */
export function processCpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
/** /proc counts CPU time in USER_HZ ticks, 100 per second on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

export function stopApp(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The pid of the Neo4j that scripts/services.sh started for this checkout, or null. */
export function neo4jPid(): number | null {
  try {
    return Number(fs.readFileSync(path.join(projectRoot(), '.services/neo4j/home/run/neo4j.pid'), 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

/** CPU time (user + system, ms) Neo4j has used so far, from /proc; 0 when its pid is unknown. */
export function neo4jCpuMs(): number {
  const pid = neo4jPid();
  return (pid && processCpuMs(pid)) || 0;
}

/**
 * Waits until Neo4j is idle: less than one /proc tick (10 ms) of CPU over `windowMs`, or `maxMs` in
 * all. A deletion leaves Neo4j work after its commit (index clean-up, Lucene merges); a run started
 * meanwhile would be charged for it and compete with it for the cores. Returns the ms waited.
 */
export async function settleNeo4j(maxMs = 5_000, windowMs = 300): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = neo4jCpuMs();
    await new Promise((r) => setTimeout(r, windowMs));
    if (neo4jCpuMs() - before < 10 || performance.now() - started >= maxMs) return Math.round(performance.now() - started);
  }
}

/** CPU time (user + system, ms) of this process so far, all its threads included. */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
