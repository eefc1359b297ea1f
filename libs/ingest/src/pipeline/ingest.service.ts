import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from '@scopegraph/llm';
import { edgeKey, GraphEdgeType, GraphEdge, graphId } from '@scopegraph/code-model';
import { IngestRepository, StoredScope } from '../graph/ingest.repository';
import { ParserService } from '../parse/parser.service';
import type { ParsedFile } from '../parse/types';
import { ReferenceResolver, ResolveResult } from '../resolve';
import { resolveAllowedPath } from '../walk/allowed-roots';
import { countSkip, listRepository, RepositoryListing, WalkFilters } from '../walk/file-walker';
import { ParsePool } from '../parse/parse-pool';
import { languageForPath } from '../parse/parser.service';
import type { ParseOutcome } from '../parse/parse-task';
import { EmbedPhase } from './embed-phase';
import { EmbeddingCache } from './embedding-cache';
import { IngestErrorEntry, IngestProgress, IngestRequest, IngestResult } from './ingest.types';
import { ParseCache } from './parse-cache';
import { ScopeSync } from './scope-sync';

export const REPOSITORY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_REPORTED_ERRORS = 200;
const RECENT_ERRORS = 10;
const PROGRESS_INTERVAL_MS = 250;
/** Fresh parses written to the parse cache per Redis pipeline (bounds what is held for it). */
const PARSE_CACHE_FLUSH = 256;

/** A file that was read: what the graph records about it (its content is not kept). */
interface FileMeta {
  path: string;
  contentHash: string;
  nonUtf8: boolean;
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

/**
 * Indexes one repository into the graph, incrementally: only files whose bytes changed are parsed,
 * only scopes whose properties changed are rewritten and re-embedded, code that disappeared is
 * deleted with its edges, and the result equals a fresh index of the same tree.
 */
@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);
  private pool?: ParsePool;

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

  async index(request: IngestRequest, onProgress: ProgressSink = () => undefined): Promise<IngestResult> {
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
    const filters = await this.repo.upsertRepository(repoId, request.name, rootPath, { include: request.include, exclude: request.exclude });

    // 1. Walk: list candidate files (contents are read a few at a time while parsing).
    const walk = await time('walk', () =>
      listRepository(rootPath, (p) => this.parser.supports(p), { maxFileBytes: this.config.ingest.maxFileBytes, maxFiles: this.config.ingest.maxFiles }, filters),
    );
    progress.filesTotal = walk.candidates.length;
    progress.phase = 'parsing';
    await report(true);

    // 2. Read and parse what changed (reusing cached parses of files whose bytes did not) and write
    //    changed scopes while parsing goes on.
    const stored = await time('readGraph', () => this.repo.storedScopes(repoId));
    const sync = new ScopeSync(repoId, stored, this.repo, { excludeDocComments: request.excludeDocComments === true });
    const { parsed, files, reusedPaths } = await time('parse', () => this.parseChanged(repoId, rootPath, walk, filters, stored, sync, progress, addError, report));
    walk.errors.forEach(addError);
    progress.filesTotal = files.length;
    // 3. Resolve references across all files (in memory, while the last scope batches are written).
    progress.phase = 'resolving';
    progress.etaSeconds = null;
    await report(true);
    const resolveRun = await time('resolve', async () => this.resolver.resolve(repoId, rootPath, parsed));
    const resolved = resolveRun.result;
    const deletions = await time('writeScopes', () => sync.finish());
    const scopeStats = sync.stats;

    // 4. Diff edges against the graph and write.
    progress.phase = 'writing';
    await report(true);
    const edges = this.desiredEdges(repoId, parsed, resolved);
    const storedEdges = await time('readEdges', () => this.repo.storedEdges(repoId));
    const storedEdgeMap = new Map(storedEdges.map((e) => [edgeKey(e), e]));
    const desiredKeys = new Set<string>();
    const edgeCreates: GraphEdge[] = [];
    const edgeWrites: GraphEdge[] = [];
    let edgesAdded = 0;
    let edgesUpdated = 0;
    for (const e of edges.list) {
      const key = edgeKey(e);
      desiredKeys.add(key);
      const old = storedEdgeMap.get(key);
      if (!old) {
        edgesAdded++;
        edgeCreates.push(e);
      } else if ((old.line ?? null) !== e.line || (old.reason ?? null) !== (e.reason ?? null) || (old.resolver ?? null) !== (e.resolver ?? null)) {
        edgesUpdated++;
        edgeWrites.push(e);
      }
    }
    const deletedScopeIds = new Set(deletions);
    const edgeDeletes = storedEdges
      .filter((e) => !desiredKeys.has(edgeKey(e)) && !deletedScopeIds.has(e.from))
      .map((e) => ({ from: e.from, type: e.type as GraphEdgeType, to: e.to }));

    await time('write', async () => {
      await time('deleteEdges', () => this.repo.deleteEdges(edgeDeletes));
      await time('deleteScopes', () => this.repo.deleteScopes(deletions));
      await time('writeEdges', async () => {
        await this.repo.createEdges(repoId, edgeCreates);
        await this.repo.mergeEdges(repoId, edgeWrites);
      });
      await this.repo.deleteOrphans(repoId);
      // Last: the hashes that mark these files as fully written.
      await this.repo.setFileHashes(
        files.filter((f) => !reusedPaths.has(f.path)).map((f) => ({ id: graphId(repoId, fileScopeId(f.path)), fileHash: f.contentHash })),
      );
    });
    progress.scopes = scopeStats.total;
    progress.edges = edges.list.length;
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
        new EmbedPhase(this.repo, this.embedder, this.embeddingCache).run(repoId, {
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
    const totals = await this.repo.finishRepository(repoId, request.jobId ?? null);
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
        ignored: walk.ignored,
        skipped: walk.skipped,
        nonUtf8: files.filter((f) => f.nonUtf8).length,
      },
      filters: {
        include: filters.include,
        exclude: filters.exclude,
      },
      scopes: { ...scopeStats, total: totals.scopes },
      edges: { total: totals.edges, added: edgesAdded, updated: edgesUpdated, removed: edgeDeletes.length, unresolved: edges.unresolved, builtinSkipped: edges.builtinSkipped },
      resolver: { ts: resolveRun.tsResolver, ...(resolveRun.precise ? { precise: resolveRun.precise } : {}) },
      embedded: totals.embedded,
      embeddedThisRun,
      embeddingError,
      embedding,
      errors,
      timingsMs: timings,
    };
  }

  /**
   * Streams the repository through the parse threads: a bounded window of files is read and parsed
   * at a time, results are taken in path order (so the graph does not depend on timing), written as
   * they come and kept only slimmed (no scope text) for resolution. Unchanged files reuse their
   * cached parse when the graph holds exactly its scopes.
   */
  private async parseChanged(
    repoId: string,
    rootPath: string,
    walk: RepositoryListing,
    filters: WalkFilters,
    stored: StoredScope[],
    sync: ScopeSync,
    progress: IngestProgress,
    addError: (e: IngestErrorEntry) => void,
    report: () => Promise<void>,
  ): Promise<{ parsed: ParsedFile[]; files: FileMeta[]; reusedPaths: Set<string> }> {
    const storedFileHash = new Map<string, string | null>();
    const storedIdsByPath = new Map<string, Set<string>>();
    for (const s of stored) {
      if (s.kind === 'file') storedFileHash.set(s.path, s.fileHash);
      let set = storedIdsByPath.get(s.path);
      if (!set) storedIdsByPath.set(s.path, (set = new Set()));
      set.add(s.id);
    }
    const pool = this.parsePool();
    const limits = { maxFileBytes: this.config.ingest.maxFileBytes, maxFiles: this.config.ingest.maxFiles };
    const keepFileText = this.config.ingest.tsResolver === 'precise';
    const task = (path: string, knownHash: string | null) =>
      pool.run({ root: rootPath, path, limits, filters, knownHash, wantText: keepFileText && isJsFamily(path) });
    // An unchanged file's cached parse is looked up while other files are still being parsed.
    type Done = { outcome: ParseOutcome; cached?: ParsedFile };
    const start = (path: string): Promise<Done> =>
      handled(
        task(path, storedFileHash.get(path) ?? null).then(async (outcome) =>
          'unchanged' in outcome && outcome.unchanged ? { outcome, cached: (await this.cache.getMany(repoId, [{ path, fileHash: outcome.contentHash }]))[0] } : { outcome },
        ),
      );

    const started = performance.now();
    const parsed: ParsedFile[] = [];
    const files: FileMeta[] = [];
    const reusedPaths = new Set<string>();
    let fresh: { fileHash: string; parsed: ParsedFile }[] = [];
    const inFlight: Promise<Done>[] = [];
    let next = 0;
    const fill = () => {
      while (inFlight.length < pool.window && next < walk.candidates.length) inFlight.push(start(walk.candidates[next++]));
    };
    fill();
    while (inFlight.length > 0) {
      const { outcome, cached } = await inFlight.shift()!;
      fill();
      if ('skip' in outcome) {
        countSkip(walk, outcome.path, outcome);
        continue;
      }
      files.push({ path: outcome.path, contentHash: outcome.contentHash, nonUtf8: outcome.nonUtf8 });
      if (outcome.unchanged) {
        // Trust a cached parse only if the graph holds exactly its scopes (guards against partial writes).
        const ids = storedIdsByPath.get(outcome.path);
        if (cached && ids && cached.scopes.length === ids.size && cached.scopes.every((s) => ids.has(graphId(repoId, s.id)))) {
          // Cached parses carry no text; the checker needs an unchanged TS/JS file whole all the same
          // (in a new process it has no compiler state to reuse).
          const withText = outcome.text === undefined ? cached : { ...cached, scopes: cached.scopes.map((s) => (s.kind === 'file' ? { ...s, source: outcome.text! } : s)) };
          parsed.push(withText);
          sync.keepUnchanged(cached);
          reusedPaths.add(outcome.path);
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
        result = again.parsed;
      } else {
        result = outcome.parsed;
      }
      for (const message of result.errors) addError({ path: outcome.path, message });
      if (outcome.nonUtf8) addError({ path: outcome.path, message: 'not valid UTF-8; read as Latin-1' });
      sync.add(result, outcome.nonUtf8);
      fresh.push({ fileHash: outcome.contentHash, parsed: result });
      if (fresh.length >= PARSE_CACHE_FLUSH) {
        await this.cache.setMany(repoId, fresh);
        fresh = [];
      }
      parsed.push(slim(result, keepFileText));
      progress.filesParsed++;
      progress.etaSeconds = etaSeconds(progress.filesParsed + progress.filesReused, walk.candidates.length, performance.now() - started);
      await report();
      // In-process parsing is synchronous: yield now and then so queued writes reach Neo4j meanwhile.
      if (!pool.threaded && progress.filesParsed % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    await this.cache.setMany(repoId, fresh);
    return { parsed, files, reusedPaths };
  }

  private desiredEdges(repoId: string, parsed: ParsedFile[], resolved: ResolveResult) {
    const list: GraphEdge[] = [];
    const seen = new Set<string>();
    const push = (e: GraphEdge) => {
      const key = edgeKey(e);
      if (seen.has(key)) return;
      seen.add(key);
      list.push(e);
    };
    const g = (id: string) => graphId(repoId, id);
    const fileIds = new Map(parsed.map((f) => [f.path, f.scopes.find((s) => s.kind === 'file')?.id ?? fileScopeId(f.path)]));
    const kindById = new Map<string, string>();
    for (const f of parsed) for (const s of f.scopes) kindById.set(s.id, s.kind);

    for (const f of parsed) {
      for (const s of f.scopes) {
        if (!s.parentId) continue;
        push({ from: g(s.parentId), type: kindById.get(s.parentId) === 'file' ? 'DECLARES' : 'HAS_MEMBER', to: g(s.id), target: 'scope', line: null });
      }
    }
    for (const e of resolved.edges) {
      push({ from: g(e.fromId), type: e.type, to: g(e.toId), target: 'scope', line: e.line ?? null, ...(e.resolver ? { resolver: e.resolver } : {}) });
    }
    for (const imp of resolved.fileImports) {
      const from = fileIds.get(imp.fromPath);
      if (!from) continue;
      if (imp.toPath && fileIds.has(imp.toPath)) {
        push({ from: g(from), type: 'IMPORTS', to: g(fileIds.get(imp.toPath)!), target: 'scope', line: imp.line });
      } else if (imp.external) {
        push({ from: g(from), type: 'IMPORTS', to: `${repoId}:module:${imp.external}`, target: 'external', name: imp.external, line: imp.line });
      } else {
        push({ from: g(from), type: 'IMPORTS', to: `${repoId}:unresolved:${imp.specifier}`, target: 'unresolved', name: imp.specifier, line: imp.line, reason: 'missing-file' });
      }
    }
    let unresolved = 0;
    let builtinSkipped = 0;
    for (const u of resolved.unresolved) {
      // Built-ins (console.log, print, Task...) are language noise, not code of this repository.
      if (u.reason === 'builtin') {
        builtinSkipped++;
        continue;
      }
      unresolved++;
      push({
        from: g(u.fromId), type: u.type, to: `${repoId}:unresolved:${u.targetName}`, target: 'unresolved', name: u.targetName, line: u.line,
        reason: u.reason, resolver: u.resolver,
      });
    }
    return { list, unresolved, builtinSkipped };
  }

}

/**
 * What resolution needs of a parsed file once its scopes are queued for writing: no scope text
 * (the bulk of a parse), except a TS/JS file's own text when TypeScript's checker will read it.
 */
function slim(file: ParsedFile, keepFileText: boolean): ParsedFile {
  const js = isJsFamily(file.path);
  return { ...file, scopes: file.scopes.map((s) => (keepFileText && js && s.kind === 'file' ? s : { ...s, source: '' })) };
}

function isJsFamily(path: string): boolean {
  const language = languageForPath(path);
  return language === 'typescript' || language === 'tsx' || language === 'javascript';
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

export function fileScopeId(path: string): string {
  return `${path}#${path}|file`;
}

