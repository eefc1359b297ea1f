import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningApp {
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts a built app (dist/apps/<name>) as a separate process with extra env, and waits until it
 * prints its ready line. Tests talk to it over real HTTP / WebSocket / Redis.
 */
function spawnApp(name: 'api' | 'worker', env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/apps', name, 'src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

export async function startApp(name: 'api' | 'worker', env: Record<string, string>, readyPattern: RegExp, timeoutMs = 60_000): Promise<RunningApp> {
  const { child, output } = spawnApp(name, env);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready after ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const check = () => {
      if (readyPattern.test(output())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready:\n${output()}`));
    });
  });
  return {
    process: child,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        // A process killed by a signal has no exit code, only its signal.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Runs an app to completion (for boot failures) and returns its exit code and output. */
export function runApp(name: 'api' | 'worker', env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const { child, output } = spawnApp(name, env);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not exit within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output() });
    });
  });
}

export const API_READY = /GraphQL http:\/\//;
export const WORKER_READY = /ready \(pid \d+\)/;

/** A unique id for this test run, used as queue prefix and repository id so runs never collide. */
export function runId(label: string): string {
  return `t${label}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export interface RunningStack {
  api: RunningApp;
  worker: RunningApp;
  /** GraphQL endpoint of the API. */
  url: string;
  /** The stack's queue prefix (more workers join the stack with it). */
  prefix: string;
  stop: () => Promise<void>;
}

/** An API and a worker sharing a queue prefix of their own, so this stack's jobs meet no one else's. */
export async function startStack(label: string, env: Record<string, string> = {}): Promise<RunningStack> {
  const port = await freePort();
  const prefix = runId(label);
  const [api, worker] = await Promise.all([
    startApp('api', { API_PORT: String(port), QUEUE_PREFIX: prefix, ...env }, API_READY),
    startApp('worker', { QUEUE_PREFIX: prefix, ...env }, WORKER_READY),
  ]);
  return { api, worker, prefix, url: `http://127.0.0.1:${port}/graphql`, stop: async () => void (await Promise.all([api.stop(), worker.stop()])) };
}
