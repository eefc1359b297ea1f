import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { PackedBindings } from '../parse/packed-bindings';
import type { ParsedFile, TypedBinding } from '../parse/types';
import { CachedView, fromView, PARSER_CACHE_VERSION, toView } from './parse-cache';

/** Bump when the stored shape changes: an index of another version is rebuilt, never read. */
export const SYMBOL_INDEX_VERSION = 1;
const FORMAT = 'scopegraph-symbol-index';
/** Files per record (what one serialisation holds at once, written or read). */
const RECORD_FILES = 512;
/** Appended records beyond this share of the files (and a few) make the next write a rewrite. */
const APPEND_SHARE = 0.25;
const APPEND_SLACK = 64;

interface Header {
  format: string;
  version: number;
  parser: number;
  repoId: string;
}

/**
 * A repository's files' resolution views (scopes without text, imports, exports, typed bindings,
 * EXTENDS/IMPLEMENTS: what other files' resolution reads of a file, ParseCache's view) in one file on
 * disk, written by every run as its parse goes (IndexRecorder). A re-index that resolves only the changed files reads it in
 * one pass instead of a view per unchanged file from Redis (73k MGET'd JSON values at a million
 * scopes), and patches it by appending the re-parsed files' views (later entries win) until appended
 * entries pass a quarter of the files, when it is written again whole.
 *
 * Each view carries the content hash it was parsed from and is used only for a file the graph records
 * with that hash (and as many scopes): a stale, partial or foreign index costs reads from Redis,
 * never a wrong parse. A file that cannot be read or parsed is treated as missing.
 * Records: a 4-byte length and a v8-serialised value; the first is the header.
 */
export class SymbolIndex {
  private constructor(
    private readonly file: string,
    private readonly repoId: string,
    /** Views by path, the latest entry of each: taken (and dropped) as the parse phase uses them. */
    private readonly views: Map<string, Packed>,
    /** Entries in the file (beyond its distinct paths: what appending has added). */
    private readonly entries: number,
  ) {}

  /** Paths whose views were handed out. */
  private readonly taken = new Set<string>();
  /** Views handed out, and asked for but missing or stale. */
  hits = 0;
  misses = 0;

  /** Whether `filePath`'s view was handed out this run. */
  served(filePath: string): boolean {
    return this.taken.has(filePath);
  }

  static fileFor(dir: string, prefix: string, repoId: string): string {
    return path.join(dir, `${createHash('sha256').update(`${prefix}\u0000${repoId}`).digest('hex').slice(0, 32)}.idx`);
  }

  /** Removes a deleted repository's index file (none there is fine). */
  static async remove(dir: string, prefix: string, repoId: string): Promise<void> {
    await fs.promises.rm(SymbolIndex.fileFor(dir, prefix, repoId), { force: true });
  }

  /** The index as last written, or an empty one when there is none or it cannot be read. */
  static async load(file: string, repoId: string): Promise<SymbolIndex> {
    const views = new Map<string, Packed>();
    let entries = 0;
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(file, 'r');
      const length = Buffer.alloc(4);
      let position = 0;
      const next = async (): Promise<unknown> => {
        const got = await handle!.read(length, 0, 4, position);
        if (got.bytesRead === 0) return undefined;
        if (got.bytesRead < 4) throw new Error('truncated record length');
        const n = length.readUInt32LE(0);
        const body = Buffer.allocUnsafe(n);
        if ((await handle!.read(body, 0, n, position + 4)).bytesRead < n) throw new Error('truncated record');
        position += 4 + n;
        return v8.deserialize(body);
      };
      const header = (await next()) as Header | undefined;
      if (!header || header.format !== FORMAT || header.version !== SYMBOL_INDEX_VERSION || header.parser !== PARSER_CACHE_VERSION || header.repoId !== repoId) {
        return new SymbolIndex(file, repoId, new Map(), 0);
      }
      for (let record = await next(); record !== undefined; record = await next()) {
        for (const v of record as Packed[]) {
          views.set(v.path, v);
          entries++;
        }
      }
    } catch {
      // Missing, or cut short by a run that died while appending: what was read before stands (each
      // entry is checked against the graph's hash anyway).
    } finally {
      await handle?.close().catch(() => undefined);
    }
    return new SymbolIndex(file, repoId, views, entries);
  }

  /** Files it holds a view of. */
  get size(): number {
    return this.views.size;
  }

  /** The parse of `filePath` as of `fileHash` (resolution view only), if held; each is handed out once. */
  take(filePath: string, fileHash: string): ParsedFile | undefined {
    const v = this.views.get(filePath);
    if (!v || v.contentHash !== fileHash) {
      this.misses++;
      return undefined;
    }
    this.views.delete(filePath);
    this.taken.add(filePath);
    this.hits++;
    return fromView(unpack(v));
  }

  /** Whether `changed` more entries may be appended (else the index is written anew: see APPEND_SHARE). */
  private appendable(changed: number): boolean {
    return this.entries > 0 && this.entries + changed <= (this.views.size + this.taken.size) * (1 + APPEND_SHARE) + APPEND_SLACK;
  }

  /** Whether the re-parsed files' views can be appended as the parse takes them (IndexRecorder). */
  get appends(): boolean {
    return this.entries > 0;
  }

  /**
   * Whether the entries appended this run leave an index describing the whole run: every file not
   * re-parsed was served from this index (so it holds a current view of each), and appends do not
   * pile up.
   */
  describes(files: readonly ParsedFile[], changed: readonly ParsedFile[]): boolean {
    const fresh = new Set(changed.map((f) => f.path));
    return this.appendable(changed.length) && files.every((f) => fresh.has(f.path) || this.taken.has(f.path));
  }
}

/**
 * Leaves a run's views for the next run as the parse takes each file, a record at a time, so that no
 * phase holds every view for the index: written after resolution it kept every full parse through the
 * start of the edge write, the graph phase's largest heap (or, written synchronously there, cost its
 * serialisation at resolution's heap high). Views do not depend on resolution.
 * - No index read at the start (or an empty one): every file's view goes to a temporary file, renamed
 *   over the index by `finish`.
 * - An index read at the start: the re-parsed files' views are appended to it as they come (a reader
 *   keeps the later entry); `finish` writes it anew from the run's parses when some unchanged file was
 *   not served by it or appends pile up.
 * Synchronous writes: a record (RECORD_FILES views) takes a few ms, and nothing waits on it. A failure
 * is kept and thrown by `finish`: the run goes on, the next run then reads from Redis.
 */
export class IndexRecorder {
  private fd: number | undefined;
  private pending: Packed[] = [];
  private failure?: Error;
  private spent = 0;

  private constructor(
    private readonly file: string,
    private readonly repoId: string,
    /** The index read at the start, appended to; undefined: written anew to `tmp`. */
    private readonly read: SymbolIndex | undefined,
    private readonly tmp: string | undefined,
  ) {}

  /** Starts recording a run into `file`; `read`: the index read from it at the start of the run, if any. */
  static start(file: string, repoId: string, read?: SymbolIndex): IndexRecorder {
    const appending = read?.appends === true;
    const recorder = new IndexRecorder(file, repoId, appending ? read : undefined, appending ? undefined : `${file}.${process.pid}.${Date.now()}.tmp`);
    recorder.attempt(() => {
      if (recorder.tmp) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        recorder.fd = fs.openSync(recorder.tmp, 'w');
        const header: Header = { format: FORMAT, version: SYMBOL_INDEX_VERSION, parser: PARSER_CACHE_VERSION, repoId };
        writeAll(recorder.fd, framed(v8.serialize(header)));
      } else {
        // Without O_CREAT: an index removed since it was read is not recreated without its header.
        recorder.fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND);
      }
    });
    return recorder;
  }

  /** Milliseconds spent writing so far. */
  get ms(): number {
    return Math.round(this.spent);
  }

  /** One of the run's files as the parse takes it; `fresh`: parsed this run (not a reused parse). Never throws. */
  add(file: ParsedFile, fresh: boolean): void {
    if (this.failure || (this.read && !fresh)) return;
    this.attempt(() => {
      this.pending.push(pack(toView(file)));
      if (this.pending.length >= RECORD_FILES) this.flush();
    });
  }

  /**
   * Once the parse is done (`files`: every file of the run, `changed`: those parsed this run): the
   * index left for the next run, appended to or written anew. Throws what failed meanwhile.
   */
  finish(files: readonly ParsedFile[], changed: readonly ParsedFile[]): 'appended' | 'written' {
    this.attempt(() => this.flush());
    this.close();
    if (this.failure) throw this.failure;
    const t = performance.now();
    try {
      if (this.tmp) {
        fs.renameSync(this.tmp, this.file);
        return 'written';
      }
      if (this.read!.describes(files, changed)) return 'appended';
      writeIndex(this.file, this.repoId, files);
      return 'written';
    } finally {
      this.spent += performance.now() - t;
    }
  }

  /** Stops recording (the run failed, or `finish` threw): a temporary file is removed, appended entries stay (each is checked against the graph). */
  abort(): void {
    this.close();
    try {
      if (this.tmp) fs.rmSync(this.tmp, { force: true });
    } catch (error) {
      // Kept like any other failure (finish throws the first); the folder that refused it holds no file.
      this.failure ??= error as Error;
    }
  }

  private flush(): void {
    if (this.fd === undefined || this.pending.length === 0) return;
    // One write of a whole record: a reader sees it or stops at a cut-short one.
    writeAll(this.fd, framed(v8.serialize(this.pending)));
    this.pending = [];
  }

  private close(): void {
    this.pending = [];
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fs.closeSync(fd);
    } catch (error) {
      this.failure ??= error as Error;
    }
  }

  /** Runs `work`, timed; a failure is kept for `finish` (and stops the recording), never thrown to the parse. */
  private attempt(work: () => void): void {
    const t = performance.now();
    try {
      work();
    } catch (error) {
      this.failure ??= error as Error;
      this.abort();
    } finally {
      this.spent += performance.now() - t;
    }
  }
}

/** Writes every file's view to `file` (via a temporary file renamed over it). */
export function writeIndex(file: string, repoId: string, files: readonly ParsedFile[]): void {
  const recorder = IndexRecorder.start(file, repoId);
  try {
    for (const f of files) recorder.add(f, true);
    recorder.finish(files, files);
  } catch (error) {
    recorder.abort();
    throw error;
  }
}

/** fs.writeSync may write part of a buffer: the rest follows. */
function writeAll(fd: number, buf: Buffer): void {
  for (let at = 0; at < buf.length; ) at += fs.writeSync(fd, buf, at, buf.length - at);
}

function framed(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  return Buffer.concat([length, body]);
}

type CachedScope = CachedView['scopes'][number];
type Binding = TypedBinding;
const SCOPE_KEYS = new Set(['id', 'name', 'qualifiedName', 'kind', 'startLine', 'endLine', 'parentId', 'exported', 'owner']);
const BINDING_KEYS = new Set(['scopeId', 'name', 'typeName', 'member']);
/** Flags column values: a boolean, or absent (undefined). */
const flag = (b: boolean | undefined) => (b === undefined ? 2 : b ? 1 : 0);
const unflag = (n: number) => (n === 2 ? undefined : n === 1);

/**
 * A view as stored: scopes and typed bindings in number columns over the file's own string table
 * (ids and parent ids, names, kinds and types once each; a scope id `<path>#...` without its path),
 * the rest as it is. Serialised objects keep a copy of every string (ids recur as parents and in
 * every binding): this is ~4x smaller and as much faster to read. A view with fields this does not
 * know is stored as it is (`raw`).
 */
interface Packed {
  path: string;
  contentHash: string;
  raw?: CachedView;
  language?: CachedView['language'];
  strings?: string[];
  /** Per scope: id (negative: -(string + 1) after `<path>#`), name, qualifiedName, kind, startLine, endLine, parentId (NONE: null), exported, owner (-1: none). */
  scopes?: number[];
  /** Per binding: scopeId, name, typeName, member. */
  bindings?: number[];
  rest?: Pick<CachedView, 'imports' | 'exports' | 'references'>;
}

const SCOPE_COLUMNS = 9;
/** A null parent (negative numbers are ids after `<path>#`). */
const NONE = 0x7fffffff;
const BINDING_COLUMNS = 4;

export function pack(v: CachedView): Packed {
  if (v.scopes.some((x) => Object.keys(x).some((k) => !SCOPE_KEYS.has(k))) || v.bindings.some((b) => Object.keys(b).some((k) => !BINDING_KEYS.has(k)))) {
    return { path: v.path, contentHash: v.contentHash, raw: v };
  }
  const strings: string[] = [];
  const index = new Map<string, number>();
  const str = (x: string) => {
    let k = index.get(x);
    if (k === undefined) index.set(x, (k = strings.push(x) - 1));
    return k;
  };
  const prefix = `${v.path}#`;
  const id = (x: string) => (x.startsWith(prefix) ? -(str(x.slice(prefix.length)) + 1) : str(x));
  const scopes: number[] = [];
  for (const x of v.scopes) {
    scopes.push(id(x.id), str(x.name), str(x.qualifiedName), str(x.kind), x.startLine, x.endLine, x.parentId === null ? NONE : id(x.parentId), flag(x.exported), x.owner === undefined ? -1 : str(x.owner));
  }
  const bindings: number[] = [];
  for (const b of v.bindings) bindings.push(id(b.scopeId), str(b.name), str(b.typeName), flag(b.member));
  return { path: v.path, contentHash: v.contentHash, language: v.language, strings, scopes, bindings, rest: { imports: v.imports, exports: v.exports, references: v.references } };
}

export function unpack(p: Packed): CachedView {
  if (p.raw) return p.raw;
  const strings = p.strings!;
  const prefix = `${p.path}#`;
  // One string per id: a scope's parent id is its parent's own id string, not another copy of it.
  const made = new Map<number, string>();
  const id = (k: number) => {
    if (k >= 0) return strings[k];
    let x = made.get(k);
    if (x === undefined) made.set(k, (x = prefix + strings[-k - 1]));
    return x;
  };
  const c = p.scopes!;
  const scopes: CachedScope[] = [];
  for (let i = 0; i < c.length; i += SCOPE_COLUMNS) {
    const s: CachedScope = { id: id(c[i]), name: strings[c[i + 1]], qualifiedName: strings[c[i + 2]], kind: strings[c[i + 3]] as CachedScope['kind'], startLine: c[i + 4], endLine: c[i + 5], parentId: c[i + 6] === NONE ? null : id(c[i + 6]) };
    const exported = unflag(c[i + 7]);
    if (exported !== undefined) s.exported = exported;
    if (c[i + 8] !== -1) s.owner = strings[c[i + 8]];
    scopes.push(s);
  }
  const b = p.bindings!;
  const rows: Binding[] = [];
  for (let i = 0; i < b.length; i += BINDING_COLUMNS) {
    const member = unflag(b[i + 3]);
    rows.push({ scopeId: id(b[i]), name: strings[b[i + 1]], typeName: strings[b[i + 2]], ...(member === undefined ? {} : { member }) } as Binding);
  }
  const bindings = PackedBindings.of(rows);
  return { path: p.path, language: p.language!, contentHash: p.contentHash, scopes, bindings, ...p.rest! };
}
