import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from '@scopegraph/llm';
import { edgeKey, GraphEdgeType, GraphEdge, graphId } from '@scopegraph/code-model';
import { createHash, Hash } from 'node:crypto';
import { FileCommit, IngestRepository, StoredEdge, StoredFile } from '../graph/ingest.repository';
import { ParserService } from '../parse/parser.service';
import type { ParsedFile } from '../parse/types';
import { ReferenceResolver, ResolveResult } from '../resolve';
import { interfaceHash } from '../resolve/interface-hash';
import { isJsFamily } from '../resolve/precise/ts-oracle';
import { resolveAllowedPath } from '../walk/allowed-roots';
import { contentRulesKey, countSkip, currentFingerprint, listRepository, RACY_FINGERPRINT_MS, RepositoryListing, WalkFilters } from '../walk/file-walker';
import { ParsePool } from '../parse/parse-pool';
import type { ParseOutcome } from '../parse/parse-task';
import { EmbedPhase, EmbedPhaseHooks, EmbedPhaseStats } from './embed-phase';
import { EmbeddingCache } from './embedding-cache';
import { IngestErrorEntry, IngestProgress, IngestRequest, IngestResult, ResolveAllReason } from './ingest.types';
import { KnownFingerprint, ParseCache } from './parse-cache';
import { fileScopeId, ScopeSync } from './scope-sync';

export { fileScopeId };

export const REPOSITORY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_REPORTED_ERRORS = 200;
const RECENT_ERRORS = 10;
const PROGRESS_INTERVAL_MS = 250;
/** Fresh parses written to the parse cache per Redis pipeline (bounds what is held for it). */
const PARSE_CACHE_FLUSH = 64;
/** Files whose cached parses are fetched in one MGET, a chunk ahead of the parse cursor. */
const CACHE_PREFETCH = 128;

/** A file that was read: what the graph records about it (its content is not kept). */
interface FileMeta {
  path: string;
  contentHash: string;
  nonUtf8: boolean;
  /** Its fingerprint on disk when it can be trusted next time (see readRepositoryFileSync). */
  fingerprint: string | null;
  /** How many scopes it has. */
  scopes: number;
}

/**
 * Checks an index request before it is queued (the API calls this too), so bad input fails the
 * mutation with a named field rather than the job. Returns the repository's real path.
 */
export async function validateIndexRequest(request: { path: string; name: string }, allowedRoots: string[]): Promise<string> {
  if (!REPOSITORY_NAME_PATTERN.test(request.name)) {
    throw new DomainError(DomainErrorCode.InvalidRepositoryName, `name must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`, 'name');
  }
  try {
    return await resolveAllowedPath(request.path, allowedRoots);
  } catch (error) {
    throw new DomainError(DomainErrorCode.InvalidRepositoryPath, (error as Error).message, 'path');
  }
}

type ProgressSink = (progress: IngestProgress) => Promise<void> | void;

/** Who embeds a run's scopes: the run itself (EmbedPhase), or slices on every worker (EmbedFanOut). */
export interface EmbedRunner {
  run(repoId: string, hooks: EmbedPhaseHooks): Promise<EmbedPhaseStats>;
}

/**
 * Indexes one repository into the graph, incrementally: only files whose bytes changed are parsed,
 * only scopes whose properties changed are rewritten and re-embedded, code that disappeared is
 * deleted with its edges, and the result equals a fresh index of the same tree.
 */
@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);
  private pool?: ParsePool;
  /**
   * The time fingerprints are judged by (files changed within RACY_FINGERPRINT_MS of it are read
   * again next time). Tests move it forward so that files they just wrote count as settled.
   */
  clock: () => number = Date.now;

  constructor(
    private readonly repo: IngestRepository,
    private readonly parser: ParserService,
    private readonly cache: ParseCache,
    private readonly resolver: ReferenceResolver,
    private readonly embeddingCache: EmbeddingCache,
    @Inject(EMBEDDING_PROVIDER) private readonly embedder: EmbeddingProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Reads and parses on worker threads (INGEST_PARSE_THREADS), created on first use. */
  private parsePool(): ParsePool {
    return (this.pool ??= new ParsePool(this.parser, this.config.ingest.parseThreads));
  }

  /** Replaces the parse pool (benchmarks comparing thread counts; tests running the compiled thread entry). */
  async useParsePool(pool: ParsePool): Promise<void> {
    if (this.pool && this.pool !== pool) await this.pool.close();
    this.pool = pool;
  }

  /** How many parse threads run (0: in-process, when configured so or running from TypeScript sources). */
  get parseThreads(): number {
    return this.parsePool().size;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.close();
  }

  validate(request: { path: string; name: string }): Promise<string> {
    return validateIndexRequest(request, this.config.ingest.allowedRoots);
  }

  /**
   * One run. The repository is INDEXING from the start of the run and INDEXED when it finishes; a run
   * that throws marks it FAILED (half-written: a new run completes it, see ingest/fail-repository).
   */
  async index(request: IngestRequest, onProgress: ProgressSink = () => undefined, embedRunner?: EmbedRunner): Promise<IngestResult> {
    try {
      return await this.run(request, onProgress, embedRunner);
    } catch (error) {
      const reason = `the index run did not finish: ${(error as Error).message}`;
      await this.repo.failRepository(request.name, request.jobId ?? null, reason).catch((e: Error) => this.logger.warn(`repository ${request.name} not marked FAILED: ${e.message}`));
      throw error;
    }
  }

  private async run(request: IngestRequest, onProgress: ProgressSink, embedRunner?: EmbedRunner): Promise<IngestResult> {
    const timings: Record<string, number> = {};
    const time = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[label] = Math.round(performance.now() - started);
      }
    };
    const rootPath = await this.validate(request);
    const repoId = request.name;
    const errors: IngestErrorEntry[] = [];
    const addError = (e: IngestErrorEntry) => errors.length < MAX_REPORTED_ERRORS && errors.push(e);
    const progress: IngestProgress = {
      phase: 'walking', filesTotal: 0, filesParsed: 0, filesReused: 0, scopes: 0, edges: 0, embedded: 0, toEmbed: 0, etaSeconds: null, errors: 0, recentErrors: [],
    };
    let lastSent = 0;
    const report = async (force = false) => {
      progress.errors = errors.length;
      progress.recentErrors = errors.slice(-RECENT_ERRORS);
      if (force || performance.now() - lastSent >= PROGRESS_INTERVAL_MS) {
        lastSent = performance.now();
        await onProgress({ ...progress });
      }
    };
    await report(true);

    await this.parser.init();
    // Parse threads load their grammars while the graph and the file tree are read.
    this.parsePool().warm();
    const filters = await time('upsertRepository', () => this.repo.upsertRepository(repoId, request.name, rootPath, { include: request.include, exclude: request.exclude }, request.jobId ?? null));

    // 1. Walk: list candidate files (contents are read a few at a time while parsing), and read what
    //    the graph holds per file (not per scope) and the files' last fingerprints meanwhile.
    const [walk, storedFiles, fingerprints] = await Promise.all([
      time('walk', () =>
        listRepository(rootPath, (p) => this.parser.supports(p), { maxFileBytes: this.config.ingest.maxFileBytes, maxFiles: this.config.ingest.maxFiles }, filters),
      ),
      time('readGraph', () => this.repo.storedFiles(repoId)),
      time('readFingerprints', () => this.cache.fingerprints(repoId)),
    ]);
    const stored = new Map(storedFiles.files.map((f) => [f.path, f]));
    progress.filesTotal = walk.candidates.length;
    progress.phase = 'parsing';
    await report(true);

    // 2. Read and parse what changed (reusing cached parses of files whose bytes did not) and write
    //    changed scopes while parsing goes on; delete the scopes of files that are gone.
    //    When the last run resolved against the same files and settings, only the changed files'
    //    references will likely be resolved (candidates not in the graph are new files, which change
    //    the set, or files skipped last time, likely skipped again). Then unchanged files' cached
    //    parses are read without their references (the bulk of them; read later if needed after
    //    all), and TypeScript's checker builds its program (on its own thread, from disk, while files
    //    are parsed) only once a TS/JS file is found changed: otherwise it is not needed.
    const contextKey = this.resolver.contextKey(rootPath, walk.candidates);
    const partialLikely = storedFiles.recordsAddUp && filters.resolutionKey === resolutionKey(contextKey, walk.candidates.filter((p) => stored.has(p)));
    let prepared = false;
    const prepareChecker = () => {
      if (!prepared) this.resolver.prepare(repoId, rootPath, walk.candidates);
      prepared = true;
    };
    if (!partialLikely) prepareChecker();
    const sync = new ScopeSync(repoId, this.repo, new Set(stored.keys()), { excludeDocComments: request.excludeDocComments === true });
    const { parsed, files, reusedPaths, unread } = await time('parse', () =>
      this.parseChanged(repoId, rootPath, walk, filters, stored, fingerprints, sync, progress, addError, report, {
        withReferences: !partialLikely,
        onParsed: (file) => isJsFamily(file) && prepareChecker(),
      }),
    );
    walk.errors.forEach(addError);
    // A first run that found files but could read none (binaries, images, unsupported languages) is
    // the caller's mistake, not an empty repository: refused, and the node just created removed.
    // An empty folder stays an empty repository; one that had files keeps going (their scopes go).
    const unreadable = Object.values(walk.skipped).reduce((a, b) => a + b, 0) + unread;
    if (files.length === 0 && stored.size === 0 && unreadable > 0) {
      await this.repo.deleteRepository(repoId);
      throw new DomainError(DomainErrorCode.InvalidRepositoryPath, nothingReadable(rootPath, walk.skipped, unread), 'path');
    }
    progress.filesTotal = files.length;
    const indexed = new Set(files.map((f) => f.path));
    const gone = [...stored.keys()].filter((p) => !indexed.has(p));
    sync.deletePaths(gone);
    // 3. Resolve references (in memory, while the last scope batches are written): of every file, or
    //    only of the changed ones when nothing other files' resolution reads of them changed.
    progress.phase = 'resolving';
    progress.etaSeconds = null;
    await report(true);
    const plan = resolutionPlan({
      key: resolutionKey(contextKey, files.map((f) => f.path)),
      storedKey: filters.resolutionKey,
      parsed,
      reusedPaths,
      stored,
      recordsAddUp: storedFiles.recordsAddUp,
      precise: this.config.ingest.tsResolver === 'precise',
    });
    if (!plan.only) prepareChecker();
    const completed = { referencesRead: 0, reparsed: 0 };
    if (partialLikely) {
      const lacking = files.filter((f) => reusedPaths.has(f.path) && (!plan.only || plan.only.has(f.path)));
      if (lacking.length) Object.assign(completed, await time('readReferences', () => this.completeReferences(repoId, rootPath, filters, parsed, lacking)));
    }
    const resolveRun = await time('resolve', async () => this.resolver.resolve(repoId, rootPath, parsed, plan.only));
    const resolved = resolveRun.result;

    // 4. Diff edges against the graph and write, only for files whose edges may differ: re-parsed
    //    files, and files whose edges as resolved now hash differently from what the graph records
    //    (computed while the last scope batches are written). Files not resolved this run keep their
    //    edges and records.
    progress.phase = 'writing';
    await report(true);
    const edgeState = await time('edgeHashes', async () => edgeHashes(parsed, resolved, plan.only));
    const hashes = edgeState.hashes;
    const resolvedHere = (path: string) => !plan.only || plan.only.has(path);
    const edgeChanged = files
      .filter((f) => resolvedHere(f.path) && (!reusedPaths.has(f.path) || stored.get(f.path)?.edgeHash !== hashes.get(f.path)))
      .map((f) => f.path);
    // A file's reference counts are kept with its edge hash; they are also recorded when only they
    // changed (a built-in name now declared in the repository may leave the edges as they were).
    const countsChanged = (path: string) => {
      const s = stored.get(path);
      const c = edgeState.counts.get(path);
      return !!c && (s?.unresolvedRefs !== c.unresolved || s?.builtinRefs !== c.builtin);
    };
    const refTotals = { unresolved: 0, builtin: 0 };
    for (const f of files) {
      const c = edgeState.counts.get(f.path) ?? { unresolved: stored.get(f.path)?.unresolvedRefs ?? 0, builtin: stored.get(f.path)?.builtinRefs ?? 0 };
      refTotals.unresolved += c.unresolved;
      refTotals.builtin += c.builtin;
    }
    const changedSet = new Set(edgeChanged);
    const desired = await time('edgeDiff', async () => this.desiredEdges(repoId, parsed, resolved, (p) => changedSet.has(p)));
    const { stats: scopeStats, last: lastScopes } = await time('writeScopes', () => sync.finish());
    // Files that had scopes before this run: their edges are read. Beside those, the containment this
    // run creates (written already, or with the last files' scopes just before the edges).
    const before = edgeChanged.filter((p) => stored.has(p));
    const storedEdgeMap = new Map<string, StoredEdge>();
    await time('readEdges', async () => {
      for (const e of before.length ? await this.repo.storedEdgesOf(repoId, before) : []) storedEdgeMap.set(edgeKey(e), e);
      for (const p of edgeChanged) {
        for (const e of sync.containment.get(p) ?? []) {
          if (!storedEdgeMap.has(edgeKey(e))) storedEdgeMap.set(edgeKey(e), { from: e.from, type: e.type, to: e.to, line: null, reason: null, resolver: null });
        }
      }
    });
    const storedEdges = [...storedEdgeMap.values()];
    const desiredKeys = new Set<string>();
    const edgeCreates: GraphEdge[] = [];
    const edgeWrites: GraphEdge[] = [];
    for (const path of edgeChanged) {
      for (const e of desired.get(path) ?? []) {
        const key = edgeKey(e);
        desiredKeys.add(key);
        const old = storedEdgeMap.get(key);
        if (!old) edgeCreates.push(e);
        else if ((old.line ?? null) !== e.line || (old.reason ?? null) !== (e.reason ?? null) || (old.resolver ?? null) !== (e.resolver ?? null)) edgeWrites.push(e);
      }
    }
    const edgeDeletes = storedEdges.filter((e) => !desiredKeys.has(edgeKey(e))).map((e) => ({ from: e.from, type: e.type as GraphEdgeType, to: e.to }));

    // The last files' scopes first, then the edges, and last the hashes that mark these files as
    // fully written (every file's, when the records did not add up). Reused files about to get new
    // edges are marked first when this takes several transactions (re-parsed ones were marked with
    // their scopes).
    // Fingerprints go to Redis meanwhile: they count only for the hashes the graph commits.
    const fingerprinted = time('fingerprints', () => this.recordFingerprints(repoId, files, fingerprints, gone, contentRulesKey(filters)));
    await time('write', () =>
      this.repo.writeEdgeChanges(repoId, {
        scopes: lastScopes,
        deletes: edgeDeletes,
        creates: edgeCreates,
        merges: edgeWrites,
        // ExternalModule / Unresolved nodes lose edges only with deleted edges and scopes.
        cleanOrphans: edgeDeletes.length > 0 || scopeStats.deleted > 0,
        dirtyFileIds: edgeChanged.filter((p) => reusedPaths.has(p)).map((p) => graphId(repoId, fileScopeId(p))),
        commits: files
          .filter((f) => changedSet.has(f.path) || plan.interfaces.has(f.path) || countsChanged(f.path) || !storedFiles.recordsAddUp)
          .map((f): FileCommit => {
            const reused = reusedPaths.has(f.path);
            const counts = edgeState.counts.get(f.path)!;
            return {
              id: graphId(repoId, fileScopeId(f.path)),
              fileHash: reused ? null : f.contentHash,
              interfaceHash: plan.interfaces.get(f.path) ?? null,
              scopeCount: f.scopes,
              edgeHash: hashes.get(f.path)!,
              unresolvedRefs: counts.unresolved,
              builtinRefs: counts.builtin,
            };
          }),
      }),
    );
    await fingerprinted;
    progress.scopes = scopeStats.total;
    await report(true);

    // 5. Embed whatever lacks an embedding (new, changed, or left over from an interrupted run).
    let embeddingError: string | undefined;
    let embedding: IngestResult['embedding'];
    if (request.embed !== false) {
      progress.phase = 'embedding';
      progress.etaSeconds = null;
      await report(true);
      const phaseStarted = performance.now();
      const stats = await time('embed', () =>
        (embedRunner ?? new EmbedPhase(this.repo, this.embedder, this.embeddingCache)).run(repoId, {
          onTotal: (total) => {
            progress.toEmbed = total;
            return report(true);
          },
          onEmbedded: (done) => {
            progress.embedded = done;
            progress.etaSeconds = etaSeconds(done, progress.toEmbed, performance.now() - phaseStarted);
            return report();
          },
        }),
      );
      embedding = { cacheHits: stats.cacheHits, duplicates: stats.duplicates, modelSwitched: stats.modelSwitched, model: this.embedder.model };
      for (const [stage, ms] of Object.entries(stats.profileMs)) timings[`embed.${stage}`] = Math.round(ms);
      embeddingError = stats.error;
      if (embeddingError) addError({ path: '', message: `embedding: ${embeddingError}` });
    }

    const embeddedThisRun = progress.embedded;
    const totals = await time('finish', () => this.repo.finishRepository(repoId, request.jobId ?? null, plan.key));
    progress.phase = 'done';
    progress.etaSeconds = 0;
    progress.scopes = totals.scopes;
    progress.edges = totals.edges;
    progress.embedded = totals.embedded;
    await report(true);

    return {
      repoId,
      name: request.name,
      rootPath,
      files: {
        indexed: files.length,
        parsed: files.length - reusedPaths.size,
        reused: reusedPaths.size,
        unread,
        ignored: walk.ignored,
        skipped: walk.skipped,
        nonUtf8: files.filter((f) => f.nonUtf8).length,
        ...completed,
      },
      filters: {
        include: filters.include,
        exclude: filters.exclude,
      },
      scopes: { ...scopeStats, total: totals.scopes },
      edges: { total: totals.edges, added: edgeCreates.length, updated: edgeWrites.length, removed: edgeDeletes.length, unresolved: refTotals.unresolved, builtinSkipped: refTotals.builtin },
      resolver: {
        ts: resolveRun.tsResolver,
        files: plan.only ? plan.only.size : files.length,
        ...(plan.all ? { all: plan.all } : {}),
        ...(resolveRun.precise ? { precise: resolveRun.precise } : {}),
      },
      embedded: totals.embedded,
      embeddedThisRun,
      embeddingError,
      embedding,
      errors,
      timingsMs: timings,
      bookmarks: await this.repo.bookmarks(),
    };
  }

  /**
   * Streams the repository through the parse threads: a bounded window of files is read and parsed
   * at a time, results are taken in path order (so the graph does not depend on timing), written as
   * they come and kept only slimmed (no scope text) for resolution. Unchanged files (same
   * fingerprint, or same bytes) reuse their cached parse when the graph holds its scopes.
   */
  private async parseChanged(
    repoId: string,
    rootPath: string,
    walk: RepositoryListing,
    filters: WalkFilters,
    stored: Map<string, StoredFile>,
    fingerprints: Map<string, KnownFingerprint>,
    sync: ScopeSync,
    progress: IngestProgress,
    addError: (e: IngestErrorEntry) => void,
    report: () => Promise<void>,
    opts: { withReferences: boolean; onParsed: (file: ParsedFile) => void },
  ): Promise<{ parsed: ParsedFile[]; files: FileMeta[]; reusedPaths: Set<string>; unread: number }> {
    const rulesKey = contentRulesKey(filters);
    /** A fingerprint counts only for the bytes the graph holds, classified under today's rules. */
    const known = (path: string): { hash: string | null; fingerprint: KnownFingerprint | null } => {
      const hash = stored.get(path)?.fileHash ?? null;
      const f = hash ? fingerprints.get(path) : undefined;
      return { hash, fingerprint: f && f.contentHash === hash && f.rulesKey === rulesKey ? f : null };
    };
    const pool = this.parsePool();
    const task = (path: string, knownHash: string | null) => this.readAndParse(rootPath, filters, path, knownHash);
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
        chunks.set(c, handled(this.cache.getMany(repoId, wanted, opts.withReferences).then((values) => new Map(wanted.map((w, k) => [w.path, values[k]])))));
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
      parsed.push(slim(result));
      progress.filesParsed++;
      progress.scopes = sync.committed;
      progress.etaSeconds = etaSeconds(progress.filesParsed + progress.filesReused, walk.candidates.length, performance.now() - started);
      await report();
      // In-process parsing is synchronous: yield now and then so queued writes reach Neo4j meanwhile.
      if (!pool.threaded && progress.filesParsed % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    cacheWrites.push(this.cache.setMany(repoId, fresh));
    await Promise.all(cacheWrites);
    return { parsed, files, reusedPaths, unread };
  }

  private readAndParse(rootPath: string, filters: WalkFilters, path: string, knownHash: string | null): Promise<ParseOutcome> {
    const limits = { maxFileBytes: this.config.ingest.maxFileBytes, maxFiles: this.config.ingest.maxFiles };
    return this.parsePool().run({ root: rootPath, path, limits, filters, knownHash, settledBefore: this.clock() - RACY_FINGERPRINT_MS });
  }

  /**
   * Gives unchanged files read without their references (see ParseCache.getMany) those
   * references: from the cache, or by parsing the file again when they are gone from it.
   */
  private async completeReferences(repoId: string, rootPath: string, filters: WalkFilters, parsed: ParsedFile[], files: FileMeta[]): Promise<{ referencesRead: number; reparsed: number }> {
    const index = new Map(parsed.map((f, i) => [f.path, i]));
    const found = await this.cache.references(repoId, files.map((f) => ({ path: f.path, fileHash: f.contentHash })));
    let reparsed = 0;
    for (const [k, meta] of files.entries()) {
      const file = parsed[index.get(meta.path)!];
      const references = found[k];
      if (references) {
        file.references = file.references.concat(references);
        continue;
      }
      const again = await this.readAndParse(rootPath, filters, meta.path, null);
      // Its scopes are in the graph as they were: a file that changed meanwhile cannot be completed.
      if ('skip' in again || again.unchanged || again.contentHash !== meta.contentHash) throw new Error(`${meta.path} changed while being indexed`);
      parsed[index.get(meta.path)!] = slim(again.parsed);
      reparsed++;
    }
    return { referencesRead: files.length - reparsed, reparsed };
  }

  /** Keeps each indexed file's fingerprint with the content hash read under it; forgets gone files. */
  private async recordFingerprints(repoId: string, files: FileMeta[], known: Map<string, KnownFingerprint>, gone: string[], rulesKey: string): Promise<void> {
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
    await this.cache.setFingerprints(repoId, set, remove);
  }

  /**
   * The edges the graph should hold leaving the scopes of the files `wanted` accepts, from the parse
   * and the resolution of the whole repository (one edge per source, type and target: the first wins).
   */
  private desiredEdges(repoId: string, parsed: ParsedFile[], resolved: ResolveResult, wanted: (path: string) => boolean) {
    const byPath = new Map<string, GraphEdge[]>();
    const seen = new Set<string>();
    const g = (id: string) => graphId(repoId, id);
    const { pathOf, kindById, fileIds } = scopeIndex(parsed, wanted);
    const push = (path: string, e: GraphEdge) => {
      const key = edgeKey(e);
      if (seen.has(key)) return;
      seen.add(key);
      let group = byPath.get(path);
      if (!group) byPath.set(path, (group = []));
      group.push(e);
    };
    for (const f of parsed) {
      if (!wanted(f.path)) continue;
      for (const s of f.scopes) {
        if (!s.parentId) continue;
        push(f.path, { from: g(s.parentId), type: kindById.get(s.parentId) === 'file' ? 'DECLARES' : 'HAS_MEMBER', to: g(s.id), target: 'scope', line: null });
      }
    }
    for (const e of resolved.edges) {
      const path = pathOf.get(e.fromId);
      if (path) push(path, { from: g(e.fromId), type: e.type, to: g(e.toId), target: 'scope', line: e.line ?? null, ...(e.resolver ? { resolver: e.resolver } : {}) });
    }
    for (const imp of resolved.fileImports) {
      const from = fileIds.get(imp.fromPath);
      if (!from || !wanted(imp.fromPath)) continue;
      if (imp.toPath && fileIds.has(imp.toPath)) {
        push(imp.fromPath, { from: g(from), type: 'IMPORTS', to: g(fileIds.get(imp.toPath)!), target: 'scope', line: imp.line });
      } else if (imp.external) {
        push(imp.fromPath, { from: g(from), type: 'IMPORTS', to: `${repoId}:module:${imp.external}`, target: 'external', name: imp.external, line: imp.line });
      } else {
        push(imp.fromPath, { from: g(from), type: 'IMPORTS', to: `${repoId}:unresolved:${imp.specifier}`, target: 'unresolved', name: imp.specifier, line: imp.line, reason: 'missing-file' });
      }
    }
    for (const u of resolved.unresolved) {
      // Built-ins (console.log, print, Task...) are language noise, not code of this repository.
      const path = pathOf.get(u.fromId);
      if (u.reason === 'builtin' || !path) continue;
      push(path, {
        from: g(u.fromId), type: u.type, to: `${repoId}:unresolved:${u.targetName}`, target: 'unresolved', name: u.targetName, line: u.line,
        reason: u.reason, resolver: u.resolver,
      });
    }
    return byPath;
  }

}

/** Per scope id (local) of the files `of` accepts its file's path and kind; per path (all) its file scope's id. */
function scopeIndex(parsed: ParsedFile[], of: (path: string) => boolean = () => true) {
  const pathOf = new Map<string, string>();
  const kindById = new Map<string, string>();
  const fileIds = new Map<string, string>();
  for (const f of parsed) {
    fileIds.set(f.path, f.scopes.find((s) => s.kind === 'file')?.id ?? fileScopeId(f.path));
    if (!of(f.path)) continue;
    for (const s of f.scopes) {
      pathOf.set(s.id, f.path);
      kindById.set(s.id, s.kind);
    }
  }
  return { pathOf, kindById, fileIds };
}

/**
 * Per file, one hash of everything its outgoing edges are made from (its scopes' containment, and
 * the resolution of its references and imports), kept on the file scope: an equal hash means the
 * graph already holds exactly the edges this run would write, so a re-index neither reads nor
 * diffs them. Computed from the resolver's output directly (no edge objects for unchanged files),
 * in the order it comes, which depends only on the parse and the resolution. Ids carry no
 * repository prefix, like scope content hashes. Also counts per file its references left
 * unresolved and skipped as built-ins. With `only`, for those files alone (the resolution covered
 * no others).
 */
export function edgeHashes(
  parsed: ParsedFile[],
  resolved: ResolveResult,
  only?: ReadonlySet<string>,
): { hashes: Map<string, string>; counts: Map<string, { unresolved: number; builtin: number }> } {
  const { pathOf, fileIds } = scopeIndex(parsed, (path) => !only || only.has(path));
  const hashers = new Map<string, Hash>();
  const counts = new Map<string, { unresolved: number; builtin: number }>();
  const add = (path: string, item: string) => hashers.get(path)!.update(item);
  for (const f of parsed) {
    if (only && !only.has(f.path)) continue;
    hashers.set(f.path, createHash('sha256'));
    counts.set(f.path, { unresolved: 0, builtin: 0 });
    for (const s of f.scopes) if (s.parentId) add(f.path, `c\u0000${s.parentId}\u0000${s.id}\n`);
  }
  for (const e of resolved.edges) add(pathOf.get(e.fromId)!, `e\u0000${e.fromId}\u0000${e.type}\u0000${e.toId}\u0000${e.line ?? ''}\u0000${e.resolver ?? ''}\n`);
  for (const i of resolved.fileImports) {
    if (!fileIds.has(i.fromPath)) continue;
    const to = i.toPath && fileIds.has(i.toPath) ? `p${i.toPath}` : i.external ? `x${i.external}` : `u${i.specifier}`;
    add(i.fromPath, `i\u0000${to}\u0000${i.line}\n`);
  }
  for (const u of resolved.unresolved) {
    const path = pathOf.get(u.fromId)!;
    if (u.reason === 'builtin') {
      counts.get(path)!.builtin++;
      continue;
    }
    counts.get(path)!.unresolved++;
    add(path, `u\u0000${u.fromId}\u0000${u.type}\u0000${u.targetName}\u0000${u.line}\u0000${u.reason}\u0000${u.resolver ?? ''}\n`);
  }
  return { hashes: new Map([...hashers].map(([path, h]) => [path, h.digest('hex')])), counts };
}

/** What a run resolves references against besides the parses (stored with the repository when it finishes). */
export function resolutionKey(contextKey: string, paths: string[]): string {
  return createHash('sha256').update(contextKey).update(JSON.stringify(paths)).digest('hex');
}

/** Which files' references a run resolves, and what it records about that. */
export interface ResolutionPlan {
  /** The key this run resolves against (stored when it finishes). */
  key: string;
  /** Only these files' references, or (undefined) every file's. */
  only?: Set<string>;
  /** Why every file: set exactly when `only` is not. */
  all?: ResolveAllReason;
  /**
   * Interface hashes to record: of re-parsed files, and when every file is resolved, of every file
   * whose recorded one differs (none yet, or recorded by other code: this run's key covers the code).
   */
  interfaces: Map<string, string>;
}

/**
 * Decides whether resolving only the changed files gives the same edges as resolving all of them:
 * the last finished run resolved the same set of files with the same settings and resolver code
 * (`storedKey`), every reused file's interface was recorded, and no re-parsed file's interface
 * changed. Then every other file's resolution reads exactly what it read last time, so its edges,
 * edge hash and counts in the graph stand. Re-resolved: the re-parsed files, and reused files whose
 * edges were not fully written.
 */
export function resolutionPlan(input: {
  key: string;
  storedKey: string | null;
  parsed: ParsedFile[];
  reusedPaths: ReadonlySet<string>;
  stored: ReadonlyMap<string, StoredFile>;
  recordsAddUp: boolean;
  precise: boolean;
}): ResolutionPlan {
  const { key, parsed, reusedPaths, stored } = input;
  const interfaces = new Map<string, string>();
  for (const f of parsed) if (!reusedPaths.has(f.path)) interfaces.set(f.path, interfaceHash(f));
  const all = (reason: ResolveAllReason): ResolutionPlan => {
    for (const f of parsed) {
      if (!reusedPaths.has(f.path)) continue;
      const hash = interfaceHash(f);
      if (stored.get(f.path)?.interfaceHash !== hash) interfaces.set(f.path, hash);
    }
    return { key, all: reason, interfaces };
  };
  if (input.storedKey === null) return all('no-previous-run');
  if (input.storedKey !== key) return all('context');
  if (!input.recordsAddUp) return all('records');
  const only = new Set<string>();
  for (const f of parsed) {
    const s = stored.get(f.path);
    if (reusedPaths.has(f.path)) {
      if (!s?.interfaceHash || s.unresolvedRefs === null || s.builtinRefs === null) return all('records');
      if (!s.edgeHash) only.add(f.path);
      continue;
    }
    // TypeScript's checker infers types from bodies: any TS/JS edit may change other files' edges.
    if (input.precise && isJsFamily(f)) return all('ts-checker');
    if (!s?.interfaceHash || s.interfaceHash !== interfaces.get(f.path)) return all('interface');
    only.add(f.path);
  }
  return { key, only, interfaces };
}

/**
 * What resolution needs of a parsed file once its scopes are queued for writing: no scope text (the
 * bulk of a parse; TypeScript's checker reads the files it needs itself).
 */
function slim(file: ParsedFile): ParsedFile {
  return { ...file, scopes: file.scopes.map((s) => ({ ...s, source: '' })) };
}

/** Marks a promise that is awaited later as handled, so a failure meanwhile is not an unhandled rejection. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Seconds left at the rate so far; null until there is a rate to go by. */
export function etaSeconds(done: number, total: number, elapsedMs: number): number | null {
  if (done <= 0 || elapsedMs <= 0 || total <= done) return done >= total && total > 0 ? 0 : null;
  return Math.round(((total - done) * elapsedMs) / done / 1000);
}

/** Why a folder gave nothing to index, from the walk's counts. */
export function nothingReadable(rootPath: string, skipped: Record<string, number>, unread: number): string {
  const reasons = Object.entries(skipped).filter(([, n]) => n > 0).map(([reason, n]) => `${n} ${reason}`);
  if (unread > 0) reasons.push(`${unread} unreadable`);
  return `nothing could be read in ${rootPath}: every file was skipped (${reasons.join(', ')}); index a folder with source files in a supported language`;
}
