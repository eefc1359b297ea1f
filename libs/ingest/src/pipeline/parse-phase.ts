import type { StoredFile } from '../graph/ingest.repository';
import type { ParsePool } from '../parse/parse-pool';
import type { ParseOutcome } from '../parse/parse-task';
import { PackedBindings } from '../parse/packed-bindings';
import type { ParsedFile, ParsedScope } from '../parse/types';
import { contentRulesKey, countSkip, currentFingerprint, RACY_FINGERPRINT_MS, RepositoryListing, WalkFilters, WalkLimits } from '../walk/file-walker';
import { etaSeconds } from './eta';
import type { IngestErrorEntry, IngestProgress } from './ingest.types';
import type { KnownFingerprint, ParseCache } from './parse-cache';
import type { ReferenceSpill } from './reference-spill';
import type { ScopeSync } from './scope-sync';
import type { IndexRecorder, SymbolIndex } from './symbol-index';

/** Fresh parses written to the parse cache per Redis pipeline (bounds what is held for it). */
const PARSE_CACHE_FLUSH = 64;
/** Files whose cached parses are fetched in one MGET, a chunk ahead of the parse cursor. */
const CACHE_PREFETCH = 128;

/** A file that was read: what the graph records about it (its content is not kept). */
export interface FileMeta {
  path: string;
  contentHash: string;
  nonUtf8: boolean;
  /** Its fingerprint on disk when it can be trusted next time (see readRepositoryFileSync). */
  fingerprint: string | null;
  /** How many scopes it has. */
  scopes: number;
}

/** What one run's parse phase works on. */
export interface ParseRun {
  repoId: string;
  rootPath: string;
  filters: WalkFilters;
  limits: WalkLimits;
  /** The time fingerprints are judged by (IngestService.clock). */
  clock: () => number;
}

/**
 * Step 2 of an index run: reads and parses what changed on the parse threads, reusing cached parses
 * of files whose bytes did not change, and keeps the parse cache and the files' fingerprints.
 */
export class ParsePhase {
  constructor(
    private readonly cache: ParseCache,
    private readonly pool: ParsePool,
    private readonly run: ParseRun,
  ) {}

  /**
   * Streams the repository through the parse threads: a bounded window of files is read and parsed
   * at a time, results are taken in path order (so the graph does not depend on timing), written as
   * they come and kept only slimmed (no scope text) for resolution. Unchanged files (same
   * fingerprint, or same bytes) reuse their cached parse when the graph holds its scopes.
   */
  async parseChanged(
    walk: RepositoryListing,
    stored: Map<string, StoredFile>,
    fingerprints: Map<string, KnownFingerprint>,
    sync: ScopeSync,
    progress: IngestProgress,
    addError: (e: IngestErrorEntry) => void,
    report: () => Promise<void>,
    opts: { withReferences: boolean; onParsed: (file: ParsedFile) => void; spill?: ReferenceSpill; index?: SymbolIndex; recorder?: IndexRecorder },
  ): Promise<{ parsed: ParsedFile[]; files: FileMeta[]; reusedPaths: Set<string>; unread: number }> {
    const { repoId, rootPath } = this.run;
    const rulesKey = contentRulesKey(this.run.filters);
    /** A fingerprint counts only for the bytes the graph holds, classified under today's rules. */
    const known = (path: string): { hash: string | null; fingerprint: KnownFingerprint | null } => {
      const hash = stored.get(path)?.fileHash ?? null;
      const f = hash ? fingerprints.get(path) : undefined;
      return { hash, fingerprint: f && f.contentHash === hash && f.rulesKey === rulesKey ? f : null };
    };
    const pool = this.pool;
    const task = (path: string, knownHash: string | null) => this.readAndParse(path, knownHash);
    // Cached parses of files likely unchanged are fetched a chunk at a time (one MGET), ahead of use.
    const chunks = new Map<number, Promise<Map<string, ParsedFile | undefined>>>();
    const cachedParse = (index: number, path: string): Promise<ParsedFile | undefined> => {
      const chunk = Math.floor(index / CACHE_PREFETCH);
      for (const c of [chunk, chunk + 1]) {
        if (chunks.has(c) || c * CACHE_PREFETCH >= walk.candidates.length) continue;
        const wanted = walk.candidates.slice(c * CACHE_PREFETCH, (c + 1) * CACHE_PREFETCH).flatMap((p) => {
          const hash = known(p).hash;
          return hash ? [{ path: p, fileHash: hash }] : [];
        });
        chunks.set(c, handled(this.cachedViews(wanted, opts)));
      }
      return chunks.get(chunk)!.then((m) => m.get(path));
    };
    type Done = { outcome: ParseOutcome; cached?: ParsedFile };
    /** `task`: the file went to a parse thread (to be read, and parsed unless its bytes are unchanged). */
    const start = (index: number): { done: Promise<Done>; task: boolean } => {
      const path = walk.candidates[index];
      const k = known(path);
      // Unchanged by its fingerprint: not even sent to a parse thread (a stat here costs less than the trip).
      if (k.fingerprint && currentFingerprint(rootPath, path) === k.fingerprint.fingerprint) {
        const { fingerprint, contentHash, nonUtf8 } = k.fingerprint;
        const outcome: ParseOutcome = { path, contentHash, nonUtf8, unchanged: true, fingerprint, read: false };
        return { done: handled(cachedParse(index, path).then((cached) => ({ outcome, cached }))), task: false };
      }
      const done = task(path, k.hash).then(async (outcome) =>
        'unchanged' in outcome && outcome.unchanged ? { outcome, cached: await cachedParse(index, path) } : { outcome },
      );
      return { done: handled(done), task: true };
    };

    const started = performance.now();
    const parsed: ParsedFile[] = [];
    const files: FileMeta[] = [];
    const reusedPaths = new Set<string>();
    let unread = 0;
    let fresh: { fileHash: string; parsed: ParsedFile }[] = [];
    const cacheWrites: Promise<void>[] = [];
    // The window bounds the files sent to parse threads ahead of the cursor, not the ones found
    // unchanged by their fingerprint (their cached parses are kept for resolution anyway): the
    // threads parse the next changed files while the unchanged ones before them are taken.
    const inFlight: { done: Promise<Done>; task: boolean }[] = [];
    let tasksAhead = 0;
    let next = 0;
    let taken = 0;
    const fill = () => {
      while (tasksAhead < pool.window && next < walk.candidates.length) {
        const entry = start(next++);
        inFlight.push(entry);
        if (entry.task) tasksAhead++;
      }
    };
    fill();
    while (inFlight.length > 0) {
      const entry = inFlight.shift()!;
      if (entry.task) tasksAhead--;
      const { outcome, cached } = await entry.done;
      // Chunks behind the cursor are no longer needed.
      if (++taken % CACHE_PREFETCH === 0) chunks.delete(taken / CACHE_PREFETCH - 1);
      fill();
      if ('skip' in outcome) {
        countSkip(walk, outcome.path, outcome);
        continue;
      }
      const meta: FileMeta = { path: outcome.path, contentHash: outcome.contentHash, nonUtf8: outcome.nonUtf8, fingerprint: outcome.fingerprint, scopes: 0 };
      files.push(meta);
      if (outcome.unchanged) {
        // Trust a cached parse only if the graph holds as many scopes for the file (a cheap guard on
        // top of the file hash, which is set only once a file is fully written).
        if (cached && cached.scopes.length === stored.get(outcome.path)?.scopes) {
          parsed.push(cached);
          opts.recorder?.add(cached, false);
          opts.spill?.add(cached);
          sync.keepUnchanged(cached);
          meta.scopes = cached.scopes.length;
          reusedPaths.add(outcome.path);
          if (!outcome.read) unread++;
          progress.filesReused++;
          continue;
        }
      }
      let result: ParsedFile;
      if (outcome.unchanged) {
        const again = await task(outcome.path, null);
        if ('skip' in again || again.unchanged) {
          addError({ path: outcome.path, message: 'changed while being indexed' });
          files.pop();
          continue;
        }
        Object.assign(meta, { contentHash: again.contentHash, nonUtf8: again.nonUtf8, fingerprint: again.fingerprint });
        result = again.parsed;
      } else {
        result = outcome.parsed;
      }
      meta.scopes = result.scopes.length;
      for (const message of result.errors) addError({ path: outcome.path, message });
      if (meta.nonUtf8) addError({ path: outcome.path, message: 'not valid UTF-8; read as Latin-1' });
      opts.onParsed(result);
      sync.add(result, meta.nonUtf8);
      await sync.room();
      fresh.push({ fileHash: meta.contentHash, parsed: result });
      if (fresh.length >= PARSE_CACHE_FLUSH) {
        // Written in the background (a failed write only costs a re-parse later), a few at a time so
        // serialising them happens while parse threads work, not after the last file.
        cacheWrites.push(this.cache.setMany(repoId, fresh));
        fresh = [];
      }
      const kept = slim(result);
      parsed.push(kept);
      opts.recorder?.add(kept, true);
      opts.spill?.add(kept);
      progress.filesParsed++;
      progress.scopes = sync.committed;
      progress.etaSeconds = etaSeconds(progress.filesParsed + progress.filesReused, walk.candidates.length, performance.now() - started);
      await report();
      // In-process parsing is synchronous: yield now and then so queued writes reach Neo4j meanwhile.
      if (!pool.threaded && progress.filesParsed % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    cacheWrites.push(this.cache.setMany(repoId, fresh));
    await Promise.all(cacheWrites);
    opts.spill?.flush();
    return { parsed, files, reusedPaths, unread };
  }

  /** Cached parses by path: views from the symbol index when it holds them (views alone wanted), the rest from Redis. */
  private async cachedViews(wanted: { path: string; fileHash: string }[], opts: { withReferences: boolean; index?: SymbolIndex }): Promise<Map<string, ParsedFile | undefined>> {
    const out = new Map<string, ParsedFile | undefined>();
    const index = opts.withReferences ? undefined : opts.index;
    const rest = index ? wanted.filter((w) => !out.set(w.path, index.take(w.path, w.fileHash)).get(w.path)) : wanted;
    const values = await this.cache.getMany(this.run.repoId, rest, opts.withReferences);
    // Kept as the parse keeps its own (slim): a view read from Redis has a string per id, name and
    // binding where the parse shares one, and a run without the symbol index holds every file's view.
    rest.forEach((w, k) => out.set(w.path, values[k] && slim(values[k])));
    return out;
  }

  private readAndParse(path: string, knownHash: string | null): Promise<ParseOutcome> {
    const { rootPath, filters, limits, clock } = this.run;
    return this.pool.run({ root: rootPath, path, limits, filters, knownHash, settledBefore: clock() - RACY_FINGERPRINT_MS });
  }

  /**
   * Gives unchanged files read without their references (see ParseCache.getMany) those
   * references: from the cache, or by parsing the file again when they are gone from it.
   */
  async completeReferences(parsed: ParsedFile[], files: FileMeta[]): Promise<{ referencesRead: number; reparsed: number }> {
    const index = new Map(parsed.map((f, i) => [f.path, i]));
    const found = await this.cache.references(this.run.repoId, files.map((f) => ({ path: f.path, fileHash: f.contentHash })));
    let reparsed = 0;
    for (const [k, meta] of files.entries()) {
      const file = parsed[index.get(meta.path)!];
      const references = found[k];
      if (references) {
        file.references = file.references.concat(references);
        continue;
      }
      const again = await this.readAndParse(meta.path, null);
      // Its scopes are in the graph as they were: a file that changed meanwhile cannot be completed.
      if ('skip' in again || again.unchanged || again.contentHash !== meta.contentHash) throw new Error(`${meta.path} changed while being indexed`);
      parsed[index.get(meta.path)!] = slim(again.parsed);
      reparsed++;
    }
    return { referencesRead: files.length - reparsed, reparsed };
  }

  /** Keeps each indexed file's fingerprint with the content hash read under it; forgets gone files. */
  async recordFingerprints(files: FileMeta[], known: Map<string, KnownFingerprint>, gone: string[]): Promise<void> {
    const rulesKey = contentRulesKey(this.run.filters);
    const set = new Map<string, KnownFingerprint>();
    const remove = [...gone.filter((p) => known.has(p))];
    for (const f of files) {
      const old = known.get(f.path);
      if (f.fingerprint === null) {
        if (old) remove.push(f.path);
      } else if (!old || old.fingerprint !== f.fingerprint || old.contentHash !== f.contentHash || old.rulesKey !== rulesKey || old.nonUtf8 !== f.nonUtf8) {
        set.set(f.path, { fingerprint: f.fingerprint, rulesKey, contentHash: f.contentHash, nonUtf8: f.nonUtf8 });
      }
    }
    await this.cache.setFingerprints(this.run.repoId, set, remove);
  }
}

/**
 * What resolution needs of a parsed file once its scopes are queued for writing, as small as it can
 * be: it is kept for every file until the edges are written. The scopes keep what a cached view keeps
 * (ParseCache): no text, signature, doc or hashes (TypeScript's checker reads the files it needs
 * itself). A parse thread's result arrives with a copy of every string per object, so scope and
 * parent ids in references and bindings become the scope's own id string, and kinds, languages and
 * the file's repeated names one string each. (A table of names for the whole run was tried: at 214k
 * scopes it left the heap where it was when resolution starts and held 23 MiB more in the write, as it
 * kept the names of references that go to disk until resolution.)
 */
export function slim(file: ParsedFile): ParsedFile {
  const path = file.path;
  const ids = new Map<string, string>();
  for (const s of file.scopes) ids.set(s.id, s.id);
  const id = (x: string) => ids.get(x) ?? x;
  const names = new Map<string, string>();
  const name = (x: string) => {
    const known = names.get(x);
    if (known !== undefined) return known;
    names.set(x, x);
    return x;
  };
  const language = intern(file.language);
  return {
    ...file,
    language,
    // One literal with every field, not a spread: V8 then keeps the fields inside the object instead of
    // in a separate property array (16 bytes a scope less, measured on 80,000 slimmed scopes).
    scopes: file.scopes.map((s): ParsedScope => ({
      // a top-level declaration's qualified name is its name: one string for both
      id: s.id, name: name(s.name), qualifiedName: s.qualifiedName === s.name ? name(s.name) : s.qualifiedName, kind: intern(s.kind), language, path,
      startLine: s.startLine, endLine: s.endLine, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '',
      parentId: s.parentId === null ? null : id(s.parentId),
      exported: s.exported,
      owner: s.owner === undefined ? undefined : name(s.owner),
    })),
    references: file.references.map((r) => ({ ...r, fromId: id(r.fromId), kind: intern(r.kind), targetName: name(r.targetName) })),
    imports: file.imports.map((i) => ({ ...i, fromPath: path, specifier: name(i.specifier), names: i.names.map((n) => ({ imported: name(n.imported), local: name(n.local) })) })),
    bindings: PackedBindings.of(file.bindings, id, name),
  };
}

/** Kinds and languages: a handful of strings, one copy each for the whole process. */
const INTERNED = new Map<string, string>();
function intern<T extends string>(x: T): T {
  const known = INTERNED.get(x);
  if (known !== undefined) return known as T;
  if (INTERNED.size < 256) INTERNED.set(x, x);
  return x;
}

/** Marks a promise that is awaited later as handled, so a failure meanwhile is not an unhandled rejection. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
