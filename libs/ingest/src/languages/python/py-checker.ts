import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Logger } from '@nestjs/common';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { ParsedFile } from '../../parse/types';
import type { PreciseOutcome } from '../../resolve/types';
import { readSourceText } from '../../walk/file-walker';
import { rootPackageName } from './modules';
import { pythonEnvironment } from './py-env';
import { DefinitionSite, outcomeOfDefinitions, sitePosition, SourceLines } from './py-sites';

/** One reference to answer, by the path of the file it is in. */
export interface PyCheckerQuery {
  path: string;
  ref: ParsedFile['references'][number];
}

/** What a run of the Python checker did, for the index summary. */
export interface PyRunStats {
  /** The checker that answered (INGEST_PY_CHECKER, or pyright when the one asked for is not installed). */
  checker?: PyCheckerName;
  /**
   * Why the checker asked for is not the one that answered (it is not installed), or why it stopped
   * answering part-way (ty reached its memory cap): the fast resolver's answers stand for the rest.
   */
  fallback?: string;
  /** Python files the checker's program covers. */
  files: number;
  /** Files it was told changed since its last run (all of them on a first run): it parses and binds again these and their importers. */
  rechecked: number;
  /** Why the checker was not used (not installed, too many files, it failed): the fast resolver's answers stand. */
  skipped?: string;
  /**
   * The dependencies the checker read (site-packages folders given as search paths, never run): from
   * INGEST_PY_ENV or the repository's own `.venv`/`venv`; absent when it had none.
   */
  environment?: string;
  /** Peak resident memory of the checker process so far, in MB (Linux). */
  peakMb?: number;
  /** CPU time the checker process has used so far (start-up included), ms (Linux). */
  cpuMs?: number;
  /**
   * Why the checker was given up during the run (it did not answer in time, or its process died):
   * the answers it gave before stand, the fast resolver's answers stand for the rest.
   */
  failed?: string;
}

/** The language servers PyChecker drives (INGEST_PY_CHECKER). */
export type PyCheckerName = 'pyright' | 'ty';

/**
 * The phase a checker's answers take when INGEST_PY_PRECISE_PHASE is unset. ty inline: its answers
 * cost less than the second edge write a deferred phase needs (bench/graph/README.md, eighth pass).
 * pyright deferred: its seconds of type evaluation hide behind the embedding.
 */
export function defaultPyPhase(checker: PyCheckerName): 'deferred' | 'inline' {
  return checker === 'ty' ? 'inline' : 'deferred';
}

export interface PyCheckerOptions {
  /** Which language server answers (default ty, as INGEST_PY_CHECKER's); ty needs its binary (`tyBinary`), else pyright answers. */
  checker?: PyCheckerName;
  /** ty's executable (default `.cache/pycheckers/ty/ty` under the working directory). */
  tyBinary?: string;
  /** Above this many Python files a repository is resolved fast only (bounds the checker's memory). */
  maxFiles: number;
  /** V8 heap limit of the checker process, MB. */
  maxHeapMb: number;
  /** ty's resident memory cap, MB: past it the process is stopped and the fast resolver answers the rest (INGEST_PY_TY_MAX_RSS_MB). */
  tyMaxRssMb?: number;
  /** How often ty's resident memory is read against its cap, ms. */
  memoryPollMs?: number;
  /** The language server's entry (default: the installed `pyright` package's). */
  serverScript?: string;
  /** Longest wait for one answer; past it the process is stopped and the run goes on without it. */
  requestTimeoutMs?: number;
  /** Longest wait for the server to start (its `initialize` answer). */
  startTimeoutMs?: number;
  /** Repositories that keep a checker process at once (least recently used ones are stopped). */
  maxProcesses?: number;
  /** A checker process idle this long (ms) is stopped (its memory freed; the next run starts it again). */
  idleMs?: number;
  /** INGEST_PY_ENV: a site-packages folder or a virtual environment the checker reads dependencies from (default: the repository's `.venv`/`venv`). */
  environment?: string;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;

const DEFAULT_MAX_PROCESSES = 2;
/** ty's memory read every this often, ms: /proc reads cost microseconds; a second of overshoot at ty's allocation rate is tens of MB. */
const DEFAULT_MEMORY_POLL_MS = 250;
const DEFAULT_IDLE_MS = 10 * 60_000;
/** Answers pending at once: the server answers one at a time, pipelining only saves round trips. */
const IN_FLIGHT = 64;
/** An interpreter path that never exists (see start). */
const NO_PYTHON = path.join(path.sep, 'nonexistent', 'scopegraph-no-python', 'python');

/** Where set-up (scripts/pycheckers.sh) installs ty's binary, under the project root. */
export function defaultTyBinary(root = process.cwd()): string {
  return path.join(root, '.cache', 'pycheckers', 'ty', 'ty');
}

/** The pyright language server's entry script, or undefined when the package is not installed. */
export function pyrightServerScript(): string | undefined {
  try {
    return require.resolve('pyright/langserver.index.js');
  } catch {
    return undefined;
  }
}

interface Session {
  key: string;
  root: string;
  child: ChildProcess;
  conn: MessageConnection;
  ready: Promise<void>;
  dead?: string;
  hashes: Map<string, string>;
  files: Map<string, ParsedFile>;
  lastUsed: number;
  idle?: NodeJS.Timeout;
  /** Calls waiting on the process: while any is, it keeps this one alive. */
  waiting: number;
  /** Started by `prepare` from the files on disk: the first `open` takes its files' hashes as read. */
  fresh: boolean;
  /** Set when the process was stopped because it did not answer in time. */
  timedOut?: string;
  /** When the server last answered anything (ms since the epoch). */
  lastAnswer: number;
  /** Whether it has answered a question yet (the first one loads the standard library's stubs). */
  warm?: boolean;
  /** Reads the process's resident memory against its cap (ty only). */
  memoryPoll?: NodeJS.Timeout;
  /** Set when the process was stopped at its memory cap. */
  capped?: string;
  /** Python files of the program it was started with. */
  fileCount: number;
  /** Where the dependencies it reads come from (PyRunStats.environment). */
  environment?: string;
}

/** Runs `fn` with the process held alive (an idle checker never keeps its parent from exiting). */
async function held<T>(s: Session, fn: () => Promise<T>): Promise<T> {
  if (s.waiting++ === 0) setRef(s, true);
  try {
    return await fn();
  } finally {
    if (--s.waiting === 0) setRef(s, false);
  }
}

function setRef(s: Session, on: boolean): void {
  for (const h of [s.child, s.child.stdout, s.child.stdin] as unknown as { ref?: () => void; unref?: () => void }[]) {
    if (on) h?.ref?.();
    else h?.unref?.();
  }
}

/**
 * Pyright (its language server, over JSON-RPC on stdio) in a process of its own per repository:
 * "which declaration does this name denote" for the Python references the fast resolver could not
 * pin. The server keeps its program between runs: a re-index tells it which files changed (LSP
 * `didChangeWatchedFiles`), and pyright parses and binds again only those and the files importing
 * them, evaluating types lazily for the sites asked. The process's heap is capped (`maxHeapMb`);
 * pyright empties its caches when its heap runs high. A process that dies fails its questions (no
 * answers: the fast resolver's stand) and is started again on the next run.
 */
export class PyChecker {
  private readonly logger = new Logger(PyChecker.name);
  private readonly sessions = new Map<string, Session>();
  /** A checker that hung while `prepare` warmed it up: this run's `open` does not start another. */
  private readonly startFailures = new Map<string, string>();
  /** Why a repository's checker was given up during `answer`, until `failure` reads it. */
  private readonly runFailures = new Map<string, string>();
  /** Repositories whose ty reached its memory cap: why, and at how many files (as large a program is not started again). */
  private readonly capped = new Map<string, { why: string; files: number }>();
  readonly script: string | undefined;
  private readonly requestMs: number;
  private readonly startMs: number;
  private readonly maxProcesses: number;
  private readonly idleMs: number;
  /** The language server in use: the one asked for, or pyright when that one is not installed. */
  readonly checker: PyCheckerName;
  /** Why the checker asked for is not used (said in every run's stats). */
  readonly fallback?: string;
  private readonly tyBinary?: string;

  constructor(private readonly opts: PyCheckerOptions) {
    this.script = opts.serverScript ?? pyrightServerScript();
    this.checker = 'pyright';
    if ((opts.checker ?? 'ty') === 'ty') {
      const bin = opts.tyBinary ?? defaultTyBinary();
      if (isExecutable(bin)) {
        this.checker = 'ty';
        this.tyBinary = bin;
      } else this.fallback = `ty is not installed (${bin}; scripts/pycheckers.sh installs it): pyright answers`;
    }
    this.requestMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.startMs = opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.maxProcesses = Math.max(1, opts.maxProcesses ?? DEFAULT_MAX_PROCESSES);
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Process ids of the checker processes running now, one per repository kept (at most maxProcesses). */
  get pids(): number[] {
    return [...this.sessions.values()].filter((s) => !s.dead && s.child.pid !== undefined).map((s) => s.child.pid!);
  }

  /** Repositories with more Python files than this keep the fast resolver (INGEST_PY_PRECISE_MAX_FILES). */
  get maxFiles(): number {
    return this.opts.maxFiles;
  }

  get available(): boolean {
    return this.checker === 'ty' || (!!this.script && fs.existsSync(this.script));
  }

  /** Which checker answered, and why not the one asked for, for a run's stats. */
  private get said(): Pick<PyRunStats, 'checker' | 'fallback'> {
    return { checker: this.checker, ...(this.fallback ? { fallback: this.fallback } : {}) };
  }

  /** Starts (or brings up to date) the repository's checker with its Python files; never throws. */
  async open(key: string, root: string, files: ParsedFile[]): Promise<PyRunStats> {
    if (!this.available) return { ...this.said, files: files.length, rechecked: 0, skipped: 'pyright is not installed (npm install pyright)' };
    if (files.length > this.opts.maxFiles) {
      this.forget(key);
      return { ...this.said, files: files.length, rechecked: 0, skipped: `${files.length} Python files > INGEST_PY_PRECISE_MAX_FILES (${this.opts.maxFiles})` };
    }
    const capped = this.capped.get(key);
    if (capped && files.length >= capped.files) {
      this.forget(key);
      const why = `${capped.why} on a run of ${capped.files} files: not started again for ${files.length}`;
      return { ...this.said, fallback: why, files: files.length, rechecked: 0, skipped: why };
    }
    const hung = this.startFailures.get(key);
    if (hung) {
      this.startFailures.delete(key);
      this.forget(key);
      return { ...this.said, files: files.length, rechecked: 0, skipped: hung };
    }
    let s = this.sessions.get(key);
    if (s && (s.dead || s.root !== root)) {
      this.forget(key);
      s = undefined;
    }
    let rechecked = files.length;
    if (!s) s = this.start(key, root, files.map((f) => f.path));
    else if (s.fresh) s.fresh = false;
    else {
      const changes: { uri: string; type: number }[] = [];
      const now = new Set<string>();
      for (const f of files) {
        now.add(f.path);
        const old = s.hashes.get(f.path);
        if (old !== f.contentHash) changes.push({ uri: uriOf(root, f.path), type: old === undefined ? 1 : 2 });
      }
      for (const p of s.hashes.keys()) if (!now.has(p)) changes.push({ uri: uriOf(root, p), type: 3 });
      rechecked = changes.length;
      if (changes.length) s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes }).catch(() => undefined);
    }
    s.hashes = new Map(files.map((f) => [f.path, f.contentHash]));
    s.files = new Map(files.map((f) => [f.path, f]));
    this.touch(s);
    try {
      await held(s, () => s!.ready);
    } catch (error) {
      this.forget(key);
      return { ...this.said, files: files.length, rechecked: 0, skipped: `${this.checker} failed to start: ${(error as Error).message}` };
    }
    return { ...this.said, files: files.length, rechecked, ...(s.environment ? { environment: s.environment } : {}), ...(s.dead ? { skipped: s.dead } : {}), ...peak(s.child) };
  }

  /**
   * Starts a repository's checker from the files on disk while they are being parsed (a first index):
   * the process, its file listing and the standard library's stubs (loaded by one throwaway question)
   * overlap the parse and the scope writes. Nothing when the repository's checker already runs.
   */
  prepare(key: string, root: string, paths: string[]): void {
    if (!this.available || !paths.length || paths.length > this.opts.maxFiles) return;
    const s0 = this.sessions.get(key);
    if (s0 && !s0.dead && s0.root === root) return;
    if (s0) this.forget(key);
    this.startFailures.delete(key);
    const s = this.start(key, root, paths);
    s.fresh = true;
    const warm = async () => {
      await s.ready;
      await this.ask(s, 'textDocument/definition', { textDocument: { uri: uriOf(root, paths[0]) }, position: { line: 0, character: 0 } });
    };
    held(s, warm).catch(() => {
      if (s.timedOut) this.startFailures.set(key, s.timedOut);
    });
  }

  /** The checker's answers, in order; undefined where it has none (or the process failed). */
  async answer(key: string, queries: PyCheckerQuery[]): Promise<(PreciseOutcome | undefined)[]> {
    const s = this.sessions.get(key);
    const out: (PreciseOutcome | undefined)[] = new Array(queries.length).fill(undefined);
    if (!s || s.dead) return out;
    this.runFailures.delete(key);
    this.touch(s);
    // Read once before asking: a cap already passed (e.g. while the workspace loaded) stops it now, not a poll later.
    this.checkMemory(s);
    const lines = new Map<string, SourceLines | undefined>();
    const linesOf = (rel: string) => {
      if (!lines.has(rel)) {
        const read = readSourceText(s.root, rel);
        // A file that changed on disk since it was parsed: its lines no longer match the references.
        const f = s.files.get(rel);
        lines.set(rel, read && (!f || read.contentHash === f.contentHash) ? new SourceLines(read.text) : undefined);
      }
      return lines.get(rel);
    };
    const scopesOf = (rel: string) => s.files.get(rel)?.scopes;
    let next = 0;
    const worker = async () => {
      while (next < queries.length && !s.dead) {
        const i = next++;
        const q = queries[i];
        const src = linesOf(q.path);
        const pos = src && sitePosition(src, q.ref);
        if (!pos) continue;
        try {
          const defs = await this.ask(s, 'textDocument/definition', { textDocument: { uri: uriOf(s.root, q.path) }, position: pos });
          out[i] = outcomeOfDefinitions(q.ref.kind, sitesOf(defs), s.root, scopesOf, linesOf);
        } catch {
          // the process died or refused this one: no answer
        }
      }
    };
    await held(s, () => Promise.all(Array.from({ length: Math.min(IN_FLIGHT, queries.length) }, worker)));
    if (s.dead && s.dead !== 'stopped') this.runFailures.set(key, `${s.capped ?? s.timedOut ?? s.dead} after ${out.filter((o) => o !== undefined).length} answers`);
    return out;
  }

  /** Why the last `answer` for a repository gave the checker up part-way, once (then forgotten). */
  failure(key: string): string | undefined {
    const why = this.runFailures.get(key);
    this.runFailures.delete(key);
    return why;
  }

  /** Why the repository's ty was stopped at its memory cap (until a run of fewer files starts it again). */
  memoryCapped(key: string): string | undefined {
    return this.capped.get(key)?.why;
  }

  /** ty's resident memory against its cap: past it the process is stopped, and remembered so a run as large does not start it again. */
  private checkMemory(s: Session): void {
    const cap = this.opts.tyMaxRssMb;
    if (this.checker !== 'ty' || !cap || s.dead) return;
    const rss = residentMb(s.child);
    if (rss === undefined || rss <= cap) return;
    const why = `ty reached its memory cap (${rss} MB > INGEST_PY_TY_MAX_RSS_MB ${cap})`;
    s.capped = why;
    this.capped.set(s.key, { why, files: Math.max(s.hashes.size, s.fileCount) });
    if (this.sessions.get(s.key) === s) this.sessions.delete(s.key);
    s.dead ??= why;
    stop(s, 'SIGKILL');
  }

  /**
   * One request, bounded in time: a server that answers nothing for the limit while this request is
   * pending is stopped (a hung pyright must not hang an index run), which fails its other pending
   * requests at once. Answers to other requests count: with many requests in flight, the server
   * answering them one after another is busy, not hung, however long the queue (a loaded machine).
   */
  private async ask(s: Session, method: string, params: unknown, ms = this.requestMs): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const sent = Date.now();
    const late = new Promise<never>((_, reject) => {
      const arm = (delay: number) => (timer = setTimeout(check, delay));
      const check = () => {
        // Until its first answer (the stubs' load, on a machine whose cores the embedding may be
        // using) a question is bounded by the start-up limit.
        const limit = method === 'textDocument/definition' && !s.warm ? Math.max(ms, this.startMs) : ms;
        const left = Math.max(sent, s.lastAnswer) + limit - Date.now();
        if (left > 0) return void arm(left);
        const why = `${this.checker} did not answer ${method} within ${limit} ms`;
        s.timedOut ??= why;
        if (this.sessions.get(s.key) === s) this.sessions.delete(s.key);
        s.dead ??= why;
        // First: stopping fails the pending requests, and this one must fail with why.
        reject(new Error(why));
        // A server that stopped answering may not heed a polite signal either.
        stop(s, 'SIGKILL');
      };
      arm(ms);
    });
    const answered = s.conn.sendRequest<unknown>(method, params).then((r) => {
      if (method === 'textDocument/definition') s.warm = true;
      return r;
    }).finally(() => (s.lastAnswer = Date.now()));
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Peak memory of a repository's checker process, MB (Linux), if it runs. */
  peakMb(key: string): number | undefined {
    const s = this.sessions.get(key);
    return s ? peak(s.child).peakMb : undefined;
  }

  /** CPU time a repository's checker process has used so far, ms (Linux), if it runs. */
  cpuMs(key: string): number | undefined {
    const s = this.sessions.get(key);
    return s ? cpuOf(s.child) : undefined;
  }

  forget(key: string): void {
    const s = this.sessions.get(key);
    if (!s) return;
    this.sessions.delete(key);
    stop(s);
  }

  async close(): Promise<void> {
    for (const key of [...this.sessions.keys()]) this.forget(key);
  }

  private touch(s: Session): void {
    s.lastUsed = Date.now();
    if (s.idle) clearTimeout(s.idle);
    const expire = () => {
      // A process being started or asked is in use, not idle, however long that takes.
      if (s.waiting > 0) s.idle = setTimeout(expire, this.idleMs).unref();
      else if (this.sessions.get(s.key) === s) this.forget(s.key);
    };
    s.idle = setTimeout(expire, this.idleMs);
    s.idle.unref();
  }

  private start(key: string, root: string, paths: string[]): Session {
    while (this.sessions.size >= this.maxProcesses) {
      // The least recently used one not being asked now; all in use, the least recently used anyway (a hard cap).
      const oldest = [...this.sessions.values()].sort((a, b) => Number(a.waiting > 0) - Number(b.waiting > 0) || a.lastUsed - b.lastUsed)[0];
      this.forget(oldest.key);
    }
    // A root that is itself a package imports itself by name (`from nikola import utils`): Python finds
    // that name on the root's parent, never in the root (where `import nikola` would be the root's own
    // nikola.py, and `import io` its io.py). Both checkers search their workspace folder first, so the
    // workspace is the parent, narrowed to the root's files (pyright `include`, ty `src.include`).
    const workspace = rootPackageName(root, paths) ? path.dirname(path.resolve(root)) : root;
    const narrowed = workspace !== root ? path.resolve(root) : undefined;
    // ty is one native process with no heap flag: its memory is bounded by the process cap and the idle stop.
    const child =
      this.checker === 'ty'
        ? spawn(this.tyBinary!, ['server'], { cwd: workspace, stdio: ['pipe', 'pipe', 'ignore'], env: tyEnv() })
        : spawn(process.execPath, [`--max-old-space-size=${this.opts.maxHeapMb}`, this.script!, '--stdio'], {
            cwd: workspace,
            stdio: ['pipe', 'pipe', 'ignore'],
          });
    const writer = new SettledWriter(child.stdin!);
    const conn = createMessageConnection(new StreamMessageReader(child.stdout!), writer);
    const s: Session = { key, root, child, conn, ready: Promise.resolve(), hashes: new Map(), files: new Map(), lastUsed: Date.now(), waiting: 0, fresh: false, lastAnswer: 0, fileCount: paths.length };
    // Neither the process nor its pipes keep this one alive while idle; pyright exits when its parent does.
    setRef(s, false);
    // The repository's dependencies, when there is an environment to read them from: a value of a
    // dependency's type (a docutils node) typed, its calls are external instead of unknown receivers,
    // and what they return types the in-repo calls made on it.
    const env = pythonEnvironment(root, this.opts.environment);
    s.environment = env?.from;
    this.logger.log(`${key}: ${this.checker} started; dependencies read from ${env?.from ?? 'nowhere (no INGEST_PY_ENV, no .venv or venv at the root)'}`);
    const extraPaths = [...pythonSourceRoots(paths).map((r) => path.join(root, r)), ...(env?.sitePackages ?? [])];
    const settings = {
      diagnosticMode: 'openFilesOnly',
      typeCheckingMode: 'off',
      autoSearchPaths: true,
      // Without an environment no dependency is there to read; with one, its untyped code gives the types.
      useLibraryCodeForTypes: !!env?.sitePackages.length,
      extraPaths,
      ...(narrowed ? { include: [narrowed] } : {}),
      indexing: false,
      autoImportCompletions: false,
      // "Found N source files" (an info message) says the workspace's files are known.
      logLevel: 'Information',
    };
    // No interpreter: pyright would run the host's python for its search paths (a process start) and
    // map every standard-library stub it answers with to the interpreter's .py sources (parsing them):
    // the repository and the bundled stubs are what the answers need.
    const python = { pythonPath: NO_PYTHON, analysis: settings };
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
      p.items.map((it) => (it.section === 'python.analysis' ? settings : it.section === 'python' ? python : it.section === 'ty' ? tySettings(extraPaths, narrowed) : {})),
    );
    conn.onRequest(() => null);
    let listed!: () => void;
    const filesListed = new Promise<void>((resolve) => (listed = resolve));
    conn.onNotification('window/logMessage', (m: { message?: string }) => {
      if (/^(Found \d+ source files?|No source files found)/m.test(m.message ?? '')) listed();
    });
    conn.onNotification(() => undefined);
    const died = (why: string) => {
      if (s.dead) return;
      s.dead = why;
      if (s.memoryPoll) clearInterval(s.memoryPoll);
      conn.dispose();
      if (this.sessions.get(key) === s) this.sessions.delete(key);
      listed();
    };
    const name = this.checker;
    child.on('exit', (code, signal) => died(`${name} exited (${signal ?? code})`));
    child.on('error', (e) => died(`${name} failed: ${e.message}`));
    writer.onFailure = (e) => died(`${name}'s input closed: ${e.message}`);
    conn.onError(() => undefined);
    conn.listen();
    const uri = pathToFileURL(workspace).href;
    s.ready = (async () => {
      const started = Date.now();
      await this.ask(s, 'initialize', {
        processId: process.pid,
        rootUri: uri,
        workspaceFolders: [{ uri, name: path.basename(workspace) || 'root' }],
        capabilities: { workspace: { configuration: true, workspaceFolders: true } },
        initializationOptions: {},
      }, this.startMs);
      await conn.sendNotification('initialized', {});
      // ty reads the workspace's files lazily per question: nothing to wait for.
      if (name === 'ty') {
        if (s.dead) throw new Error(s.dead);
        return;
      }
      // Waiting for the server to list the workspace's files; past the start-up limit, questions are asked anyway.
      let timer: NodeJS.Timeout | undefined;
      const left = Math.max(0, this.startMs - (Date.now() - started));
      await Promise.race([filesListed, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
      if (s.dead) throw new Error(s.dead);
    })();
    s.ready.catch(() => undefined);
    if (this.checker === 'ty' && this.opts.tyMaxRssMb) {
      s.memoryPoll = setInterval(() => this.checkMemory(s), this.opts.memoryPollMs ?? DEFAULT_MEMORY_POLL_MS);
      s.memoryPoll.unref();
    }
    this.sessions.set(key, s);
    return s;
  }
}

/**
 * Import roots beside the repository root, as the fast resolver finds them: the parent of every
 * top-level package (a directory with `__init__.py` whose parent has none), e.g. `src/`.
 */
export function pythonSourceRoots(paths: string[]): string[] {
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const initDirs = new Set(paths.filter((p) => p === '__init__.py' || p.endsWith('/__init__.py')).map(dirOf));
  const roots = new Set<string>();
  for (const d of initDirs) {
    const parent = dirOf(d);
    if (d && parent && !initDirs.has(parent)) roots.add(parent);
  }
  return [...roots].sort();
}

/**
 * vscode-jsonrpc's sendRequest rethrows a failed write from inside a promise executor, which nothing
 * can catch: an unhandled rejection that ends the worker when pyright exits while questions are sent.
 * Here a failed write settles, says the server is gone, and disposing the connection then fails the
 * pending requests (with the reason the caller sees).
 */
class SettledWriter extends StreamMessageWriter {
  onFailure: (error: Error) => void = () => undefined;

  override async write(msg: Parameters<StreamMessageWriter['write']>[0]): Promise<void> {
    try {
      await super.write(msg);
    } catch (error) {
      this.onFailure(error as Error);
    }
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * ty's environment: no virtual environment of the host's is taken for the repository's (its
 * site-packages would be read as the repository's dependencies: answers outside it are not used).
 */
function tyEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.VIRTUAL_ENV;
  delete env.CONDA_PREFIX;
  return env;
}

/**
 * ty's settings (the `ty` section of workspace/configuration): no diagnostics, the repository's import
 * roots, and (`include`) the one folder of its workspace that is the repository.
 */
function tySettings(extraPaths: string[], include?: string): Record<string, unknown> {
  const configuration = {
    // `environment.extra-paths` as a configuration override: roots such as `src/` beside the repository root.
    ...(extraPaths.length ? { environment: { 'extra-paths': extraPaths } } : {}),
    ...(include ? { src: { include: [include] } } : {}),
  };
  return { diagnosticMode: 'off', ...(Object.keys(configuration).length ? { configuration } : {}) };
}

function stop(s: Session, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (s.idle) clearTimeout(s.idle);
  if (s.memoryPoll) clearInterval(s.memoryPoll);
  s.dead ??= 'stopped';
  try {
    s.conn.dispose();
  } catch {
    // already closed
  }
  s.child.kill(signal);
}

function uriOf(root: string, rel: string): string {
  return pathToFileURL(path.join(root, rel)).href;
}

/** LSP `Location | Location[] | LocationLink[] | null` as file positions. */
function sitesOf(defs: unknown): DefinitionSite[] {
  const list = Array.isArray(defs) ? defs : defs ? [defs] : [];
  const out: DefinitionSite[] = [];
  for (const d of list as { uri?: string; targetUri?: string; range?: LspRange; targetSelectionRange?: LspRange }[]) {
    const uri = d.uri ?? d.targetUri;
    const range = d.range ?? d.targetSelectionRange;
    if (!uri?.startsWith('file:') || !range) continue;
    out.push({ file: fileURLToPath(uri), line: range.start.line, character: range.start.character });
  }
  return out;
}

interface LspRange {
  start: { line: number; character: number };
}

/** Resident memory of a process now, MB (Linux; undefined elsewhere or once it has exited). */
function residentMb(child: ChildProcess): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

function peak(child: ChildProcess): { peakMb?: number } {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? { peakMb: Math.round(Number(m[1]) / 1024) } : {};
  } catch {
    return {};
  }
}

/** utime + stime of a process from /proc/<pid>/stat, ms (clock ticks of 10 ms: Linux's USER_HZ is 100). */
function cpuOf(child: ChildProcess): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces), from field 3 on
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}
