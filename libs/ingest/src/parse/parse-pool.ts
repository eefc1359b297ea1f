import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { RequestThread } from '../request-thread';
import type { ParserService } from './parser.service';
import { ParseOutcome, ParseTask, runParseTask } from './parse-task';

/** The compiled thread entry beside this file (absent when running from TypeScript sources, as jest does). */
export const PARSE_WORKER_SCRIPT = path.join(__dirname, 'parse-worker.js');
/** How long the threads outlive the last run's parse, for a next run to reuse them. */
export const PARSE_THREADS_IDLE_MS = 2_000;

/**
 * Reads and parses files on worker threads, so tree-sitter runs on another core while the main
 * thread diffs scopes and feeds Neo4j. With 0 threads (or no compiled thread entry) the same work
 * runs in-process. Tasks go to the thread with the fewest in flight; a thread that dies fails its
 * tasks and is replaced on the next call.
 *
 * Runs hold a lease while they parse; once no lease has been held for a short while the threads are
 * ended, since each thread's isolate (its heap, tree-sitter's wasm memory, the grammars) otherwise
 * stays resident through the run's resolution, edge write and embedding. The wait lets runs that
 * follow one another (a queue of small repositories) keep the threads instead of starting them
 * again (~0.3 s and ~0.5 CPU-s a start). The next lease or task starts them again.
 */
export class ParsePool {
  private readonly logger = new Logger(ParsePool.name);
  private readonly threads: RequestThread[] = [];
  private leases = 0;
  /** Ends the threads once unleased for the idle wait; cancelled by a lease taken meanwhile. */
  private pendingEnd?: { cancel: () => void; done: Promise<void> };
  private starts = 0;
  readonly threaded: boolean;
  readonly size: number;

  constructor(
    private readonly inProcess: ParserService,
    threads: number,
    private readonly script = PARSE_WORKER_SCRIPT,
    /** Calls `end` after the idle wait; returns what cancels it. Tests pass their own clock. */
    private readonly afterIdle: (end: () => void) => () => void = (end) => {
      const timer = setTimeout(end, PARSE_THREADS_IDLE_MS);
      timer.unref();
      return () => clearTimeout(timer);
    },
  ) {
    this.threaded = threads > 0 && fs.existsSync(script);
    this.size = this.threaded ? threads : 0;
  }

  /** How many tasks to keep in flight: enough that reads overlap parsing on every thread. */
  get window(): number {
    return Math.max(8, this.size * 8);
  }

  /** Starts the threads (each loads the tree-sitter runtime first), so a run's first files need not wait for that. */
  warm(): void {
    if (this.threaded) this.pick();
  }

  /**
   * Marks a run that will parse: the threads start now (as `warm`) and live until every lease is
   * released. The release is idempotent; the last one ends the threads (see `idle`).
   */
  lease(): () => void {
    this.leases++;
    this.pendingEnd?.cancel();
    this.warm();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.leases === 0) this.endWhenIdle();
    };
  }

  /** Resolves once the threads have been ended after the last released lease (at once if a lease came back meanwhile). */
  idle(): Promise<void> {
    return this.pendingEnd?.done ?? Promise.resolve();
  }

  private endWhenIdle(): void {
    let settle!: () => void;
    let cancelTimer = () => undefined as void;
    const pending = {
      done: new Promise<void>((resolve) => (settle = resolve)),
      cancel: () => {
        cancelTimer();
        if (this.pendingEnd === pending) this.pendingEnd = undefined;
        settle();
      },
    };
    this.pendingEnd = pending;
    cancelTimer = this.afterIdle(() => {
      if (this.pendingEnd !== pending) return;
      // Kept as pending until the threads have exited, so `idle` waits for that.
      this.close()
        .catch((e: Error) => this.logger.warn(`parse threads not ended after the parse (${e.message}); they end with the process`))
        .finally(() => {
          if (this.pendingEnd === pending) this.pendingEnd = undefined;
          settle();
        });
    });
  }

  /** Threads started so far (a lease during the idle wait starts none). */
  get started(): number {
    return this.starts;
  }

  /** Threads running now (0 once the last lease is released, until the next one). */
  get running(): number {
    return this.threads.length;
  }

  run(task: ParseTask): Promise<ParseOutcome> {
    if (!this.threaded) return this.inProcess.init().then(() => runParseTask(this.inProcess, task));
    return this.pick().request<ParseOutcome>({ task });
  }

  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.terminate()));
  }

  private pick(): RequestThread {
    while (this.threads.length < this.size) {
      this.starts++;
      const thread: RequestThread = new RequestThread(this.script, 'parse thread', () => {
        const i = this.threads.indexOf(thread);
        if (i !== -1) this.threads.splice(i, 1);
      });
      this.threads.push(thread);
    }
    return this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
  }
}
