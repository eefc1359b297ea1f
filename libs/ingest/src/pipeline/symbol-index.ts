import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import type { ParsedFile } from '../parse/types';
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
 * disk, written at the end of every run. A re-index that resolves only the changed files reads it in
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

  /**
   * Records this run's files: the re-parsed ones appended when the index read at the start holds the
   * rest, else every file's view written anew (to a temporary file renamed over the old one).
   * `files` must still carry their EXTENDS/IMPLEMENTS references. Failures are the caller's to log:
   * the next run then reads from Redis.
   */
  async record(files: readonly ParsedFile[], changed: readonly ParsedFile[]): Promise<'appended' | 'written'> {
    const distinct = this.views.size + this.taken.size;
    const appendable = this.entries > 0 && this.entries + changed.length <= distinct * (1 + APPEND_SHARE) + APPEND_SLACK;
    if (appendable && this.servedAllBut(files, changed)) {
      if (changed.length) await appendRecords(this.file, changed);
      return 'appended';
    }
    await writeIndex(this.file, this.repoId, files);
    return 'written';
  }

  /**
   * Every file not re-parsed this run was served from this index (so it holds a current view of each);
   * appending the re-parsed ones then makes it describe the whole run.
   */
  private servedAllBut(files: readonly ParsedFile[], changed: readonly ParsedFile[]): boolean {
    const fresh = new Set(changed.map((f) => f.path));
    return files.every((f) => fresh.has(f.path) || this.taken.has(f.path));
  }
}

/** Writes every file's view to `file` (via a temporary file renamed over it). */
export async function writeIndex(file: string, repoId: string, files: readonly ParsedFile[]): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const handle = await fs.promises.open(tmp, 'w');
  try {
    const header: Header = { format: FORMAT, version: SYMBOL_INDEX_VERSION, parser: PARSER_CACHE_VERSION, repoId };
    await handle.write(framed(v8.serialize(header)));
    for (let i = 0; i < files.length; i += RECORD_FILES) {
      await handle.write(framed(v8.serialize(files.slice(i, i + RECORD_FILES).map((f) => pack(toView(f))))));
    }
    await handle.close();
    await fs.promises.rename(tmp, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true });
    throw error;
  }
}

async function appendRecords(file: string, files: readonly ParsedFile[]): Promise<void> {
  const parts: Buffer[] = [];
  for (let i = 0; i < files.length; i += RECORD_FILES) parts.push(framed(v8.serialize(files.slice(i, i + RECORD_FILES).map((f) => pack(toView(f))))));
  // One write of whole records: a reader sees them all or stops at a cut-short one.
  await fs.promises.appendFile(file, Buffer.concat(parts));
}

function framed(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  return Buffer.concat([length, body]);
}

type CachedScope = CachedView['scopes'][number];
type Binding = CachedView['bindings'][number];
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
  const id = (k: number) => (k < 0 ? prefix + strings[-k - 1] : strings[k]);
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
  const bindings: Binding[] = [];
  for (let i = 0; i < b.length; i += BINDING_COLUMNS) {
    const member = unflag(b[i + 3]);
    bindings.push({ scopeId: id(b[i]), name: strings[b[i + 1]], typeName: strings[b[i + 2]], ...(member === undefined ? {} : { member }) } as Binding);
  }
  return { path: p.path, language: p.language!, contentHash: p.contentHash, scopes, bindings, ...p.rest! };
}
