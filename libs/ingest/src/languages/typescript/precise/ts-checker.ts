import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParsedFile, RawReference } from '../../../parse/types';
import { RequestThread } from '../../../request-thread';
import { readSourceText } from '../../../walk/file-walker';
import type { PreciseOracle, PreciseOutcome } from '../../../resolve/types';
import { PreciseRunStats, TsProjects } from './ts-project';

/** The compiled thread entry beside this file (absent when running from TypeScript sources, as jest does). */
export const TS_CHECKER_SCRIPT = path.join(__dirname, 'ts-checker-worker.js');

/** One reference to answer, by the path of the file it is in. */
export interface CheckerQuery {
  path: string;
  ref: RawReference;
}

/** What TypeScript's checker needs of a parsed TS/JS file (no references, no scope text): less to copy across threads. */
export function checkerFile(f: ParsedFile): ParsedFile {
  return {
    path: f.path,
    language: f.language,
    contentHash: f.contentHash,
    scopes: f.scopes.map((s) => ({ ...s, source: '', signature: '', docComment: null, nameTokens: '' })),
    imports: f.imports.map((i) => ({ ...i, names: [] })),
    references: [],
    exports: [],
    bindings: [],
    errors: [],
  };
}

/**
 * The checker's side: TypeScript projects per repository (see TsProjects) and the oracle of each
 * repository's latest run. Texts come from disk: the parse keeps none, and an unchanged file's
 * compiler AST is reused from the last run (or from `prepare`) without its text.
 */
export class TsCheckerState {
  private readonly projects: TsProjects;
  private readonly sessions = new Map<string, { oracle?: PreciseOracle; files: Map<string, ParsedFile> }>();

  constructor(maxFiles: number) {
    this.projects = new TsProjects(maxFiles);
  }

  prepare(key: string, rootPath: string, paths: string[]): void {
    this.projects.prepare(key, rootPath, paths, (rel) => readSourceText(rootPath, rel));
  }

  open(key: string, rootPath: string, files: ParsedFile[]): PreciseRunStats {
    const session = this.projects.open(key, rootPath, files, (rel) => readSourceText(rootPath, rel));
    this.sessions.set(key, { oracle: session.oracle, files: new Map(files.map((f) => [f.path, f])) });
    return session.stats;
  }

  answer(key: string, queries: CheckerQuery[]): (PreciseOutcome | undefined)[] {
    const session = this.sessions.get(key);
    return queries.map((q) => {
      const file = session?.files.get(q.path);
      return file && session?.oracle ? session.oracle.resolve(q.ref, file) : undefined;
    });
  }

  forget(key: string): void {
    this.sessions.delete(key);
    this.projects.forget(key);
  }
}

type Method = 'prepare' | 'open' | 'answer' | 'forget';
export interface CheckerRequest {
  id: number;
  method: Method;
  args: unknown[];
}

/**
 * TypeScript's checker on a thread of its own, so building the program and answering references
 * overlap the scope writes and the fast resolver on the main thread (and the program is built from
 * disk while files are still being parsed). Without a compiled thread entry, or with `threaded`
 * off, the same state runs in-process. A thread that dies fails its requests and is replaced on the
 * next call (its compiler state is lost: the next run checks everything again).
 */
export class TsChecker {
  private thread?: RequestThread;
  private readonly inProcess?: TsCheckerState;
  readonly threaded: boolean;

  constructor(
    private readonly maxFiles: number,
    threaded: boolean,
    private readonly script = TS_CHECKER_SCRIPT,
  ) {
    this.threaded = threaded && fs.existsSync(script);
    if (!this.threaded) this.inProcess = new TsCheckerState(maxFiles);
  }

  /** Starts building a repository's program from disk, unless its state is kept (threaded only: in-process it would only block). */
  prepare(key: string, rootPath: string, paths: string[]): void {
    if (this.threaded) this.call('prepare', [key, rootPath, paths]).catch(() => undefined);
  }

  open(key: string, rootPath: string, files: ParsedFile[]): Promise<PreciseRunStats> {
    return this.call('open', [key, rootPath, files]) as Promise<PreciseRunStats>;
  }

  answer(key: string, queries: CheckerQuery[]): Promise<(PreciseOutcome | undefined)[]> {
    return this.call('answer', [key, queries]) as Promise<(PreciseOutcome | undefined)[]>;
  }

  forget(key: string): void {
    this.call('forget', [key]).catch(() => undefined);
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }

  private call(method: Method, args: unknown[]): Promise<unknown> {
    if (this.inProcess) {
      try {
        return Promise.resolve((this.inProcess[method] as (...a: unknown[]) => unknown)(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (!this.thread) {
      const thread: RequestThread = new RequestThread(this.script, 'TypeScript checker thread', () => {
        if (this.thread === thread) this.thread = undefined;
      }, { maxFiles: this.maxFiles });
      this.thread = thread;
    }
    return this.thread.request({ method, args });
  }
}
