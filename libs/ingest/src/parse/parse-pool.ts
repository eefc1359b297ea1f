import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParserService } from './parser.service';
import { ParseOutcome, ParseTask, runParseTask } from './parse-task';

/** The compiled thread entry beside this file (absent when running from TypeScript sources, as jest does). */
export const PARSE_WORKER_SCRIPT = path.join(__dirname, 'parse-worker.js');

interface Pending {
  resolve: (o: ParseOutcome) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Reads and parses files on worker threads, so tree-sitter runs on another core while the main
 * thread diffs scopes and feeds Neo4j. With 0 threads (or no compiled thread entry) the same work
 * runs in-process. Tasks go to the thread with the fewest in flight; a thread that dies fails its
 * tasks and is replaced on the next call. Written on node:worker_threads directly: a pool library
 * adds little to one message type and one thread per spare core.
 */
export class ParsePool {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  readonly threaded: boolean;
  readonly size: number;

  constructor(
    private readonly inProcess: ParserService,
    threads: number,
    private readonly script = PARSE_WORKER_SCRIPT,
  ) {
    this.threaded = threads > 0 && fs.existsSync(script);
    this.size = this.threaded ? threads : 0;
  }

  /** How many tasks to keep in flight: enough that reads overlap parsing on every thread. */
  get window(): number {
    return Math.max(8, this.size * 8);
  }

  run(task: ParseTask): Promise<ParseOutcome> {
    if (!this.threaded) return this.inProcess.init().then(() => runParseTask(this.inProcess, task));
    const thread = this.pick();
    const id = this.nextId++;
    return new Promise<ParseOutcome>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      // A thread holds the process open only while it has work.
      thread.worker.ref();
      thread.worker.postMessage({ id, task });
    });
  }

  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private pick(): Thread {
    while (this.threads.length < this.size) this.threads.push(this.spawn());
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private spawn(): Thread {
    const worker = new Worker(this.script);
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (msg: { id: number; outcome?: ParseOutcome; error?: string }) => {
      const p = thread.pending.get(msg.id);
      if (!p) return;
      thread.pending.delete(msg.id);
      if (thread.pending.size === 0) worker.unref();
      if (msg.error !== undefined) p.reject(new Error(`parse thread: ${msg.error}`));
      else p.resolve(msg.outcome!);
    });
    const fail = (error: Error) => {
      const i = this.threads.indexOf(thread);
      if (i !== -1) this.threads.splice(i, 1);
      for (const p of thread.pending.values()) p.reject(error);
      thread.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`parse thread exited with code ${code}`)));
    return thread;
  }
}
