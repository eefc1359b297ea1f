/** Index runs in a child process with their peak memory and CPU, shared by bench:scale and bench:million. */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { neo4jCpuMs, neo4jPid } from '../support/bench-util';

const CHILD = path.join(__dirname, 'scale-child.js');

export const mib = (kb: number | undefined) => (kb ? Math.round(kb / 1024) : 0);

export function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export interface ChildRun {
  result?: any;
  maxRssKb?: number;
  cpuMs?: number;
  neo4jCpuMs: number;
  wallMs: number;
  neo4jPeakRssKb: number;
  killed: boolean;
  embeddedBeforeKill?: number;
}

/**
 * Runs one index in a child process. `killWhen`, given, is polled with the child's progress lines;
 * when it returns true the child is SIGKILLed.
 */
export function runChild(opts: Record<string, unknown>, killWhen?: (progress: any) => boolean, env: Record<string, string> = {}): Promise<ChildRun> {
  const pid = neo4jPid();
  let neo4jPeak = pid ? rssKb(pid) : 0;
  const neo4jCpu = neo4jCpuMs();
  const sampler = setInterval(() => (neo4jPeak = Math.max(neo4jPeak, pid ? rssKb(pid) : 0)), 250);
  const started = performance.now();
  // The worker's own V8 flag (scripts/start.sh): the child stands in for the worker's process.
  const child: ChildProcess = spawn(process.execPath, ['--heap-growing-percent=25', CHILD, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let buffer = '';
  let final: { result: any; maxRssKb: number; cpuMs: number } | undefined;
  let killed = false;
  let embeddedBeforeKill: number | undefined;
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      const msg = JSON.parse(line);
      if (msg.final) final = msg;
      else if (msg.progress && killWhen && !killed && killWhen(msg)) {
        killed = true;
        embeddedBeforeKill = msg.progress.embedded;
        child.kill('SIGKILL');
      }
    }
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      clearInterval(sampler);
      if (!killed && code !== 0) return reject(new Error(`index process exited with ${code ?? signal}`));
      resolve({
        result: final?.result, maxRssKb: final?.maxRssKb, cpuMs: final?.cpuMs, neo4jCpuMs: neo4jCpuMs() - neo4jCpu,
        wallMs: performance.now() - started, neo4jPeakRssKb: neo4jPeak, killed, embeddedBeforeKill,
      });
    });
  });
}

/** Appends a comment line to every 1/percent-th file (path order): their bytes change, nothing else does. */
export function touchFiles(root: string, files: string[], percent: number): string[] {
  const n = Math.max(1, Math.ceil((files.length * percent) / 100));
  const step = files.length / n;
  const touched = Array.from({ length: n }, (_, i) => files[Math.floor(i * step)]);
  for (const f of touched) fs.appendFileSync(path.join(root, f), '\n# touched by the scale bench\n');
  return touched;
}


/** Python files below `root`, relative, in path order. */
export function pythonFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...pythonFiles(root, p));
    else if (e.isFile() && e.name.endsWith('.py')) out.push(p);
  }
  return out;
}
