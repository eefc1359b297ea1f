import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { RequestThread } from '../request-thread';
import type { ParserService } from './parser.service';
import { ParseOutcome, ParseTask, runParseTask } from './parse-task';

/** The compiled thread entry beside this file (absent when running from TypeScript sources, as jest does). */
export const PARSE_WORKER_SCRIPT = path.join(__dirname, 'parse-worker.js');

/**
 * Reads and parses files on worker threads, so tree-sitter runs on another core while the main
 * thread diffs scopes and feeds Neo4j. With 0 threads (or no compiled thread entry) the same work
 * runs in-process. Tasks go to the thread with the fewest in flight; a thread that dies fails its
 * tasks and is replaced on the next call.
 *
 * Runs hold a lease while they parse; when the last lease ends the threads are ended, since each
 * thread's isolate (its heap, tree-sitter's wasm memory, the grammars) otherwise stays resident
 * through the run's resolution, edge write and embedding. The next lease or task starts them again.
 */
export class ParsePool {
  private readonly logger = new Logger(ParsePool.name);
  private readonly threads: RequestThread[] = [];
  private leases = 0;
  /** The threads being ended when the last lease ended (awaited by `idle`). */
  private ending: Promise<void> = Promise.resolve();
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
    this.warm();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.leases === 0) {
        this.ending = this.close().catch((e: Error) => this.logger.warn(`parse threads not ended after the parse (${e.message}); they end with the process`));
      }
    };
  }

  /** Resolves once the threads ended by the last released lease have exited. */
  idle(): Promise<void> {
    return this.ending;
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
      const thread: RequestThread = new RequestThread(this.script, 'parse thread', () => {
        const i = this.threads.indexOf(thread);
        if (i !== -1) this.threads.splice(i, 1);
      });
      this.threads.push(thread);
    }
    return this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
  }
}
