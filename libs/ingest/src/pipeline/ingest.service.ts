import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { phaseTimer } from '@scopegraph/observability';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from '@scopegraph/llm';
import { edgeKey, GraphEdge, graphId } from '@scopegraph/code-model';
import { FileCommit, IngestRepository, StoredEdge, StoredFile } from '../graph/ingest.repository';
import { isJsFamily } from '../languages/typescript/precise/ts-oracle';
import { ParserService } from '../parse/parser.service';
import { ParsePool } from '../parse/parse-pool';
import type { ParsedFile } from '../parse/types';
import { ReferenceResolver } from '../resolve';
import type { ResolveRun } from '../resolve/reference-resolver';
import { resolveAllowedFile, resolveAllowedPath } from '../walk/allowed-roots';
import { decodeScipIndex, ScipDecodeError, ScipIndex, ScipResolution } from '../scip';
import { listRepository, RepositoryListing } from '../walk/file-walker';
import { desiredEdgeGroups, DesiredEdges, EdgeDiff, edgeHashes, keepForEdges } from './edges';
import { EmbedPhase, EmbedPhaseHooks, EmbedPhaseStats, reusedOf } from './embed-phase';
import { EmbeddingCache } from './embedding-cache';
import { etaSeconds } from './eta';
import { IngestErrorEntry, IngestProgress, IngestRequest, IngestResult, SymbolIndexUse } from './ingest.types';
import { KnownFingerprint, ParseCache } from './parse-cache';
import { FileMeta, ParsePhase } from './parse-phase';
import { ReferenceSpill } from './reference-spill';
import { PyPhaseInput, PyPhaseResult, upgradePythonEdges } from './py-phase';
import { ResolutionPlan, resolutionKey, resolutionPlan } from './resolution-plan';
import { fileScopeId, ScopeStats, ScopeSync } from './scope-sync';
import { IndexRecorder, SymbolIndex } from './symbol-index';

export { fileScopeId };

export const REPOSITORY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_REPORTED_ERRORS = 200;
const RECENT_ERRORS = 10;
const PROGRESS_INTERVAL_MS = 250;

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

/** Checks a SCIP index path given with an index request (the API calls this too); returns its real path. */
export async function validateScipPath(scip: string, allowedRoots: string[]): Promise<string> {
  try {
    return await resolveAllowedFile(scip, allowedRoots);
  } catch (error) {
    throw new DomainError(DomainErrorCode.InvalidScipIndex, (error as Error).message, 'scip');
  }
}

/** Reads and decodes a SCIP index; the key changes with its bytes (a new index re-resolves every file). */
async function loadScip(file: string): Promise<{ index: ScipIndex; key: string }> {
  const bytes = await readFile(file);
  try {
    return { index: decodeScipIndex(bytes), key: createHash('sha256').update(bytes).digest('hex') };
  } catch (error) {
    if (error instanceof ScipDecodeError) throw new DomainError(DomainErrorCode.InvalidScipIndex, `${file}: ${error.message}`, 'scip');
    throw error;
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
  /**
   * The clock as the parse phase reads it. A field, not a closure made in parseAndWrite: the parse
   * phase outlives that method (the edge write records fingerprints through it), and any closure made
   * there keeps the method's variables, every parse among them, for as long as it lives.
   */
  private readonly readClock = (): number => this.clock();

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
    const threads: ThreadLease = { release: () => undefined };
    try {
      return await this.run(request, onProgress, threads, embedRunner);
    } catch (error) {
      const reason = `the index run did not finish: ${(error as Error).message}`;
      await this.repo.failRepository(request.name, request.jobId ?? null, reason).catch((e: Error) => this.logger.warn(`repository ${request.name} not marked FAILED: ${e.message}`));
      throw error;
    } finally {
      // Normally released when the parse ends; a run that failed before then lets go here.
      threads.release();
    }
  }

  private async run(request: IngestRequest, onProgress: ProgressSink, threads: ThreadLease, embedRunner?: EmbedRunner): Promise<IngestResult> {
    const { timings, time } = phaseTimer();
    const rootPath = await this.validate(request);
    // A bad SCIP index fails the run before anything is written.
    const scipInput = request.scip ? await time('scipRead', async () => loadScip(await validateScipPath(request.scip!, this.config.ingest.allowedRoots))) : undefined;
    const repoId = request.name;
    const errors: IngestErrorEntry[] = [];
    const addError = (e: IngestErrorEntry) => errors.length < MAX_REPORTED_ERRORS && errors.push(e);
    const progress: IngestProgress = {
      phase: 'walking', filesTotal: 0, filesParsed: 0, filesReused: 0, scopes: 0, edges: 0, embedded: 0, embedReused: 0, toEmbed: 0, etaSeconds: null, errors: 0, recentErrors: [],
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
    // Parse threads start (and load the tree-sitter runtime) while the graph and the file tree are read;
    // they end when the parse does (ParsePool.lease).
    threads.release = this.parsePool().lease();
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
    // Resolution also depends on the SCIP index given (its bytes), if any.
    const graph = await this.writeGraph({ request, repoId, rootPath, scipInput, walk, filters, storedFiles, stored, fingerprints, progress, report, addError, time, threads });
    const { files, reusedPaths, unread, plan, completed, edgeCounts, refTotals, scopeStats, scip } = graph;
    progress.scopes = scopeStats.total;
    await report(true);
    // 4b. Pyright's answers beside the embedding (INGEST_PY_PRECISE_PHASE=deferred, py-phase.ts).
    const pyPhase = graph.pyPhase ? this.pythonPhase(graph.pyPhase, progress, report) : undefined;

    // 5. Embed whatever lacks an embedding (new, changed, or left over from an interrupted run).
    let embeddingError: string | undefined;
    let embedding: IngestResult['embedding'];
    if (request.embed !== false) {
      progress.phase = 'embedding';
      progress.etaSeconds = null;
      await report(true);
      const phaseStarted = performance.now();
      const stats = await time('embed', () =>
        (embedRunner ?? new EmbedPhase(this.repo, this.embedder, this.embeddingCache, undefined, { reuse: this.config.embedding.reuse })).run(repoId, {
          onTotal: (total) => {
            progress.toEmbed = total;
            return report(true);
          },
          onEmbedded: (done, reused) => {
            progress.embedded = done;
            progress.embedReused = reused ?? progress.embedReused;
            progress.etaSeconds = etaSeconds(done, progress.toEmbed, performance.now() - phaseStarted);
            return report();
          },
        }),
      );
      embedding = {
        model: this.embedder.model,
        dimensions: this.embedder.dimensions,
        reuse: this.config.embedding.reuse ? 'on' : 'off',
        computed: stats.computed,
        reused: reusedOf(stats),
        graphReused: stats.graphReused,
        cacheHits: stats.cacheHits,
        duplicates: stats.duplicates,
        modelSwitched: stats.modelSwitched,
      };
      for (const [stage, ms] of Object.entries(stats.profileMs)) timings[`embed.${stage}`] = Math.round(ms);
      embeddingError = stats.error;
      if (embeddingError) addError({ path: '', message: `embedding: ${embeddingError}` });
    }

    const py = pyPhase ? await time('pyPhaseWait', () => this.awaitPythonPhase(repoId, pyPhase, progress, report)) : undefined;
    const resolverRun = py?.run ?? graph.resolverRun;
    if (py) {
      refTotals.unresolved += py.unresolvedDelta;
      refTotals.builtin += py.builtinDelta;
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
      edges: { total: totals.edges, ...edgeCounts, unresolved: refTotals.unresolved, builtinSkipped: refTotals.builtin },
      resolver: {
        ts: resolverRun.tsResolver,
        files: plan.only ? plan.only.size : files.length,
        ...(plan.all ? { all: plan.all } : {}),
        ...(resolverRun.precise ? { precise: resolverRun.precise } : {}),
        py: resolverRun.pyResolver,
        ...(resolverRun.pyPrecise ? { pyPrecise: { ...resolverRun.pyPrecise, ...(py ? { phase: 'deferred' as const, edges: { files: py.files, added: py.added, updated: py.updated, removed: py.removed }, phaseMs: py.ms } : {}) } } : {}),
      },
      embedded: totals.embedded,
      embeddedThisRun,
      embeddingError,
      embedding,
      errors,
      timingsMs: timings,
      bookmarks: await this.repo.bookmarks(),
      ...(scip ? { scip } : {}),
    };
  }

  /** Starts pyright's phase; it never rejects (a failure is handed to awaitPythonPhase). */
  private pythonPhase(input: PyPhaseInput, progress: IngestProgress, report: (force?: boolean) => Promise<void>): Promise<PyPhaseResult | Error> {
    return upgradePythonEdges(this.repo, this.resolver, input, (stage) => {
      progress.checker = stage;
      return report(true);
    }).catch((e: Error) => e);
  }

  /** The run finishes only when pyright's phase has: progress says when it is all that is left. */
  private async awaitPythonPhase(repoId: string, phase: Promise<PyPhaseResult | Error>, progress: IngestProgress, report: (force?: boolean) => Promise<void>): Promise<PyPhaseResult> {
    if (progress.checker !== 'done' && progress.checker !== 'failed') {
      progress.phase = 'checking';
      progress.etaSeconds = null;
      await report(true);
    }
    const r = await phase;
    if (r instanceof Error) throw r;
    if (r.run.pyPrecise?.failed) this.logger.warn(`${repoId}: ${r.run.pyPrecise.checker ?? 'the Python checker'}'s phase gave up (${r.run.pyPrecise.failed}): the fast resolver's edges stand for the rest`);
    return r;
  }

  /**
   * Steps 2-4 of a run: parse, resolve and write the graph. In a method of its own so that the
   * parses, the resolution and the edge diff (the bulk of a run's memory) are released before the
   * embedding phase: closures in run() would keep them alive until it returns.
   */
  private async writeGraph(ctx: GraphRun): Promise<GraphWritten> {
    // The run's references wait on disk (reference-spill.ts) from the parse until resolution has read
    // them; removed at the end, or when pyright's phase that reads them again ends.
    const spill: SpillHolder = { handedOver: false };
    try {
      return await this.parseAndWrite(ctx, spill);
    } finally {
      if (!spill.handedOver) spill.current?.close();
    }
  }

  private async parseAndWrite(ctx: GraphRun, held: SpillHolder): Promise<GraphWritten> {
    const { request, repoId, rootPath, scipInput, walk, filters, storedFiles, stored, fingerprints, progress, report, addError, time, threads } = ctx;
    const contextKey = this.resolver.contextKey(rootPath, walk.candidates) + (scipInput ? `\u0000scip:${scipInput.key}` : '');
    const partialLikely = storedFiles.recordsAddUp && filters.resolutionKey === resolutionKey(contextKey, walk.candidates.filter((p) => stored.has(p)));
    let prepared = false;
    let preparedPy = false;
    const prepareChecker = () => {
      if (!prepared) this.resolver.prepare(repoId, rootPath, walk.candidates);
      prepared = true;
    };
    if (!partialLikely) prepareChecker();
    const sync = new ScopeSync(repoId, this.repo, new Set(stored.keys()), { excludeDocComments: request.excludeDocComments === true });
    const parsing = new ParsePhase(this.cache, this.parsePool(), {
      repoId,
      rootPath,
      filters,
      limits: { maxFileBytes: this.config.ingest.maxFileBytes, maxFiles: this.config.ingest.maxFiles },
      clock: this.readClock,
    });
    // A run reading cached parses without their references completes them after the parse: spilled then.
    if (!partialLikely) held.current = new ReferenceSpill();
    // Such a run reads the unchanged files' views from the symbol index the last run left, in one pass.
    const indexFile = this.config.ingest.symbolIndexDir ? SymbolIndex.fileFor(this.config.ingest.symbolIndexDir, this.config.queue.prefix, repoId) : undefined;
    const index = indexFile && partialLikely ? await time('symbolIndexRead', () => SymbolIndex.load(indexFile, repoId)) : undefined;
    // This run's views go to the index as the parse takes each file (they do not depend on resolution).
    const recorder = indexFile ? IndexRecorder.start(indexFile, repoId, index) : undefined;
    let parsedRun: Awaited<ReturnType<ParsePhase['parseChanged']>>;
    try {
      parsedRun = await time('parse', () =>
        parsing.parseChanged(walk, stored, fingerprints, sync, progress, addError, report, {
          withReferences: !partialLikely,
          spill: held.current,
          index,
          recorder,
          onParsed: (file) => {
            if (isJsFamily(file)) prepareChecker();
            else if (file.language === 'python' && !prepared && !preparedPy) {
              preparedPy = true;
              this.resolver.preparePython(repoId, rootPath, walk.candidates);
            }
          },
        }),
      );
      walk.errors.forEach(addError);
      // A first run that found files but could read none (binaries, images, unsupported languages) is
      // the caller's mistake, not an empty repository: refused, and the node just created removed.
      // An empty folder stays an empty repository; one that had files keeps going (their scopes go).
      const unreadable = Object.values(walk.skipped).reduce((a, b) => a + b, 0) + parsedRun.unread;
      if (parsedRun.files.length === 0 && stored.size === 0 && unreadable > 0) {
        await this.repo.deleteRepository(repoId);
        throw new DomainError(DomainErrorCode.InvalidRepositoryPath, nothingReadable(rootPath, walk.skipped, parsedRun.unread), 'path');
      }
    } catch (error) {
      recorder?.abort();
      throw error;
    }
    const { parsed, files, reusedPaths, unread } = parsedRun;
    const symbolIndex = recorder ? this.recordSymbols(repoId, recorder, index, parsed, reusedPaths) : undefined;
    progress.filesTotal = files.length;
    const indexed = new Set(files.map((f) => f.path));
    const gone = [...stored.keys()].filter((p) => !indexed.has(p));
    sync.deletePaths(gone);
    // 3. Resolve references (in memory, while the last scope batches are written): of every file, or
    //    only of the changed ones when nothing other files' resolution reads of them changed.
    progress.phase = 'resolving';
    progress.etaSeconds = null;
    await report(true);
    // Only a partial run may parse again (completing references, below): any other ends the threads now.
    if (!partialLikely) threads.release();
    const plan = resolutionPlan({
      key: resolutionKey(contextKey, files.map((f) => f.path)),
      storedKey: filters.resolutionKey,
      parsed,
      reusedPaths,
      stored,
      recordsAddUp: storedFiles.recordsAddUp,
      precise: this.config.ingest.tsResolver === 'precise',
      pyPrecise: this.resolver.pyPreciseFor(parsed),
    });
    if (!plan.only) prepareChecker();
    const completed = { referencesRead: 0, reparsed: 0 };
    if (partialLikely) {
      const lacking = files.filter((f) => reusedPaths.has(f.path) && (!plan.only || plan.only.has(f.path)));
      if (lacking.length) Object.assign(completed, await time('readReferences', () => parsing.completeReferences(parsed, lacking)));
    }
    threads.release();
    // SCIP documents are mapped onto this run's files as they are on disk now: a file changed since
    // the index was made is stale (its references, and those to its symbols, go by name).
    const scip = scipInput ? await time('scipMap', async () => new ScipResolution(scipInput.index, parsed, rootPath)) : undefined;
    if (scip && (scip.stats.stale || scip.stats.unknown)) this.logger.warn(`${repoId}: SCIP index: ${scip.stats.stale} stale and ${scip.stats.unknown} unknown documents ignored`);
    const spill = held.current ?? (held.current = await time('spillReferences', async () => ReferenceSpill.spill(parsed)));
    return this.resolveAndWrite(ctx, { parsed, files, reusedPaths, unread, gone, sync, parsing, plan, completed, scip, spill, symbolIndex }, held);
  }

  /**
   * Leaves the run's files' views for the next run (symbol-index.ts), recorded as the parse took them:
   * the index is appended to or written anew now. A failure only costs the next run its reads from Redis.
   */
  private recordSymbols(repoId: string, recorder: IndexRecorder, read: SymbolIndex | undefined, parsed: readonly ParsedFile[], reusedPaths: ReadonlySet<string>): SymbolIndexUse | undefined {
    try {
      const changed = parsed.filter((f) => !reusedPaths.has(f.path));
      const how = recorder.finish(parsed, changed);
      // Of the reused files, those whose views came from the index (the rest came from Redis).
      let served = 0;
      for (const p of reusedPaths) if (read?.served(p)) served++;
      return { read: served, missed: read ? reusedPaths.size - served : 0, [how]: how === 'appended' ? changed.length : parsed.length, ms: recorder.ms };
    } catch (error) {
      recorder.abort();
      this.logger.warn(`${repoId}: symbol index not written (${(error as Error).message}): the next run reads the parse cache`);
      return undefined;
    }
  }

  /**
   * Steps 3-4 of writeGraph: resolution and the edge write (the spill is closed by the caller unless
   * handed to pyright's phase, marked on `held`: a closure made in parseAndWrite to mark it would keep
   * that method's variables, every parse among them, until the write ends).
   */
  private async resolveAndWrite(ctx: GraphRun, p: ParsedRun, held: SpillHolder): Promise<GraphWritten> {
    const { repoId, rootPath, storedFiles, stored, fingerprints, progress, report, time } = ctx;
    const { parsed, files, reusedPaths, unread, gone, sync, parsing, plan, completed, scip, spill, symbolIndex } = p;
    const resolveRun = await time('resolve', async () =>
      this.resolver.resolve(repoId, rootPath, parsed, plan.only, { ...(scip ? { scip } : {}), spilled: spill }, { deferPython: this.resolver.defersPython }));
    const resolved = resolveRun.result;
    // Pyright's phase resolves again after the write: it keeps the heritage references (its own
    // shallow copies) and the spill.
    const pyLater = resolveRun.pyDeferred?.questions ? parsed.map((f) => ({ ...f })) : undefined;
    // References are resolved into edges by now, and the symbol index took the views during the
    // parse: the rest of the run reads only scope ids, parents and kinds of the parses, and the rest
    // is released before the edge write, the graph phase's largest heap.
    keepForEdges(parsed);

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
    const edgeCounts = { added: 0, updated: 0, removed: 0 };
    const desired = await time('edgeDiff', async () => desiredEdgeGroups(parsed, resolved, (p) => changedSet.has(p)));
    const { stats: scopeStats, last: lastScopes } = await time('writeScopes', () => sync.finish());
    // Files that had scopes before this run: their edges are read. Beside those, the containment this
    // run creates (written already, or with the last files' scopes just before the edges) counts as
    // stored.
    const before = edgeChanged.filter((p) => stored.has(p));
    const storedEdgeMap = new Map<string, StoredEdge>();
    await time('readEdges', async () => {
      for (const e of before.length ? await this.repo.storedEdgesOf(repoId, before) : []) storedEdgeMap.set(edgeKey(e), e);
    });
    const diff = new EdgeDiff(repoId, storedEdgeMap, (e) => sync.wroteContainment(e));

    // The last files' scopes first, then the edges, and last the hashes that mark these files as
    // fully written (every file's, when the records did not add up). Reused files about to get new
    // edges are marked first when this takes several transactions (re-parsed ones were marked with
    // their scopes).
    // Fingerprints go to Redis meanwhile: they count only for the hashes the graph commits.
    const fingerprinted = time('fingerprints', () => parsing.recordFingerprints(files, fingerprints, gone));
    const changes = {
      scopes: lastScopes,
      // ExternalModule / Unresolved nodes lose edges only with deleted edges and scopes.
      cleanOrphans: scopeStats.deleted > 0,
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
    };
    // At most this many rows change: written in one transaction when they fit one (all made at once),
    // else streamed (edges made a batch of files at a time and released once written).
    const rowsAtMost = edgeChanged.reduce((n, p) => n + desired.count(p), 0) + storedEdgeMap.size + changes.commits.length;
    if (rowsAtMost <= this.repo.singleTransactionRows) {
      const { creates, writes } = diff.add(edgeChanged.flatMap((p) => desired.of(p)));
      const deletes = diff.deletes();
      edgeCounts.removed = deletes.length;
      await time('write', () => this.repo.writeEdgeChanges(repoId, { ...changes, deletes, creates, merges: writes, cleanOrphans: deletes.length > 0 || changes.cleanOrphans }));
    } else {
      let deleted = 0;
      await time('write', () =>
        this.repo.writeEdgeStream(repoId, {
          ...changes,
          batches: streamedEdges(edgeChanged, desired, diff),
          deletes: () => {
            const deletes = diff.deletes();
            deleted = deletes.length;
            return deletes;
          },
        }),
      );
      edgeCounts.removed = deleted;
    }
    edgeCounts.added = diff.counts.creates;
    edgeCounts.updated = diff.counts.writes;
    await fingerprinted;
    const { result: _resolved, pyDeferred, ...resolverRun } = resolveRun;
    return {
      pyPhase: pyLater && pyDeferred ? ((held.handedOver = true), { repoId, rootPath, parsed: pyLater, spilled: spill, only: plan.only, scip, seed: pyDeferred.answers, written: edgeState }) : undefined,
      files, reusedPaths, unread, plan: { key: plan.key, only: plan.only, all: plan.all }, completed: { ...completed, ...(symbolIndex ? { symbolIndex } : {}) }, resolverRun,
      edgeCounts,
      refTotals, scopeStats, scip: scip ? { ...scip.stats, answered: scip.answered, unanswered: scip.unanswered } : undefined,
    };
  }
}

/** Edges made per batch of this many (at least; a file's group is not split) in a streamed write. */
const STREAM_BATCH_EDGES = 20_000;

/** The creates and updates of the files `paths`, a batch at a time (each made when the last was written). */
function* streamedEdges(paths: readonly string[], desired: DesiredEdges, diff: EdgeDiff): Generator<{ creates: GraphEdge[]; merges: GraphEdge[] }> {
  let batch = { creates: [] as GraphEdge[], writes: [] as GraphEdge[] };
  for (const path of paths) {
    diff.add(desired.of(path), batch.creates, batch.writes);
    if (batch.creates.length + batch.writes.length >= STREAM_BATCH_EDGES) {
      yield { creates: batch.creates, merges: batch.writes };
      batch = { creates: [], writes: [] };
    }
  }
  if (batch.creates.length + batch.writes.length) yield { creates: batch.creates, merges: batch.writes };
}

/** Why a folder gave nothing to index, from the walk's counts. */
export function nothingReadable(rootPath: string, skipped: Record<string, number>, unread: number): string {
  const reasons = Object.entries(skipped).filter(([, n]) => n > 0).map(([reason, n]) => `${n} ${reason}`);
  if (unread > 0) reasons.push(`${unread} unreadable`);
  return `nothing could be read in ${rootPath}: every file was skipped (${reasons.join(', ')}); index a folder with source files in a supported language`;
}

/** What steps 2-4 of a run read from the steps before them. */
interface GraphRun {
  request: IngestRequest;
  repoId: string;
  rootPath: string;
  scipInput?: { index: ScipIndex; key: string };
  walk: RepositoryListing;
  filters: Awaited<ReturnType<IngestRepository['upsertRepository']>>;
  storedFiles: { files: StoredFile[]; recordsAddUp: boolean };
  stored: Map<string, StoredFile>;
  fingerprints: Map<string, KnownFingerprint>;
  progress: IngestProgress;
  report: (force?: boolean) => Promise<void>;
  addError: (e: IngestErrorEntry) => void;
  time: <T>(label: string, work: () => Promise<T>) => Promise<T>;
  threads: ThreadLease;
}

/** The run's lease on the parse threads (ParsePool.lease), released once its parse is done. */
interface ThreadLease {
  release: () => void;
}

/** The run's reference spill, and whether pyright's phase took it over (and closes it). */
interface SpillHolder {
  current?: ReferenceSpill;
  handedOver: boolean;
}

/** What the parse phase leaves for resolution and the edge write (writeGraph to resolveAndWrite). */
interface ParsedRun {
  parsed: ParsedFile[];
  files: FileMeta[];
  reusedPaths: Set<string>;
  unread: number;
  gone: string[];
  sync: ScopeSync;
  parsing: ParsePhase;
  plan: ResolutionPlan;
  completed: { referencesRead: number; reparsed: number };
  scip?: ScipResolution;
  spill: ReferenceSpill;
  /** How the symbol index was read and left for the next run, when one is kept. */
  symbolIndex?: SymbolIndexUse;
}

/** What is left of steps 2-4 for the rest of a run: counts and paths, none of the parses or edges. */
interface GraphWritten {
  files: FileMeta[];
  reusedPaths: Set<string>;
  unread: number;
  plan: Pick<ResolutionPlan, 'key' | 'only' | 'all'>;
  completed: { referencesRead: number; reparsed: number; symbolIndex?: SymbolIndexUse };
  resolverRun: Omit<ResolveRun, 'result' | 'pyDeferred'>;
  /** Set when pyright's questions wait for its own phase (INGEST_PY_PRECISE_PHASE=deferred). */
  pyPhase?: PyPhaseInput;
  edgeCounts: { added: number; updated: number; removed: number };
  refTotals: { unresolved: number; builtin: number };
  scopeStats: ScopeStats;
  scip?: IngestResult['scip'];
}
