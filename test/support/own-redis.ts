import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A Redis of a test's own on a spare port, so stopping, freezing or killing it disturbs nothing else.
 * `persist`: append-only file fsynced on every write in a temp dir, so a restart keeps its data;
 * without it a restart comes back empty (what `npm start`'s Redis does).
 */
export class OwnRedis {
  private child?: ChildProcess;
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-redis-'));
  constructor(
    readonly port: number,
    readonly persist = true,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const persistence = this.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, ...persistence, '--save', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        out += d;
        if (/Ready to accept connections/.test(out)) resolve();
      };
      this.child!.stdout!.on('data', onData);
      this.child!.on('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
  }

  /** SIGTERM, waiting for the exit. */
  stop(): Promise<void> {
    return this.end('SIGTERM');
  }

  /** SIGKILL: no shutdown, whatever is only in memory is gone. */
  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  /** SIGSTOP: connections stay open and commands pile up unanswered until `thaw`. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGCONT');
      child.kill(signal);
    });
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
