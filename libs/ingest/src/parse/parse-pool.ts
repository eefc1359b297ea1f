import * as fs from 'node:fs';
import * as path from 'node:path';
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
 */
export class ParsePool {
  private readonly threads: RequestThread[] = [];
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
