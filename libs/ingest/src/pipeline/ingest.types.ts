import type { ScipImportStats } from '../scip/scip-resolution';

/** `checking`: all that is left of the run is pyright's phase (INGEST_PY_PRECISE_PHASE=deferred). */
export type IngestPhase = 'walking' | 'parsing' | 'resolving' | 'writing' | 'embedding' | 'checking' | 'done' | 'failed';

export interface IngestErrorEntry {
  path: string;
  message: string;
}

/** Sent as job progress after each step and batch; the last one has phase 'done'. */
export interface IngestProgress {
  phase: IngestPhase;
  filesTotal: number;
  filesParsed: number;
  filesReused: number;
  /** Scopes in the graph so far: while parsing, those already written (search finds them); the total once written. */
  scopes: number;
  edges: number;
  /** Scopes this run has embedded so far (of `toEmbed`); the repository's total once done. */
  embedded: number;
  /** Of `embedded`, vectors copied rather than computed (EMBED_REUSE: same model, dimensions and text already embedded on this server). */
  embedReused: number;
  toEmbed: number;
  /** Seconds the current phase still needs at its rate so far (parsing, embedding); null when unknown. */
  etaSeconds: number | null;
  errors: number;
  /** The latest errors (bounded), for display. */
  recentErrors: IngestErrorEntry[];
  /**
   * Pyright's own phase, when it runs after the graph write (beside the embedding): `answering`, then
   * `writing` its edges, then `done`, or `failed` (it gave up or was skipped: the fast edges stand).
   */
  checker?: 'answering' | 'writing' | 'done' | 'failed';
}

export interface IngestResult {
  repoId: string;
  name: string;
  rootPath: string;
  /** `unread`: reused files whose fingerprint (size, times, inode) was unchanged, so they were not even read. */
  /**
   * `referencesRead`: reused files whose parses were read without references and completed later from
   * the cache's references; `reparsed`: reused files parsed again because those references were gone.
   */
  /** `symbolIndex`: the unchanged files' views read from the symbol index (symbol-index.ts), and how it was left for the next run. */
  files: { indexed: number; parsed: number; reused: number; unread: number; ignored: number; skipped: Record<string, number>; nonUtf8: number; referencesRead: number; reparsed: number; symbolIndex?: SymbolIndexUse };
  /** The include/exclude globs this run walked with (given, or stored with the repository). */
  filters: { include: string[]; exclude: string[] };
  scopes: { total: number; added: number; changed: number; moved: number; deleted: number; unchanged: number };
  edges: { total: number; added: number; updated: number; removed: number; unresolved: number; builtinSkipped: number };
  /**
   * Which resolver the TS/JS references went through; `precise` adds where the compiler options came
   * from, how many files were (re)checked (changed files and their importers), and in how many passes
   * the fast resolver collected the questions for the checker. `files`: files whose references this
   * run resolved; `all` says why that was every file rather than only the changed ones.
   */
  resolver: {
    ts: 'precise' | 'fast';
    files: number;
    all?: ResolveAllReason;
    precise?: { options: string; files: number; rechecked: number; passes: number; skipped?: string };
    /** Which resolver the Python references went through (`fast` also when pyright is not installed). */
    py?: 'precise' | 'fast';
    /**
     * Pyright's run: Python files it covers, files it was told changed (it parses and binds again
     * those and their importers), questions asked and answered, time waiting for it, its process's
     * peak memory, and why it was skipped (not installed, too many files).
     */
    pyPrecise?: {
      files: number; rechecked: number; asked: number; answered: number; ms: number; peakMb?: number; cpuMs?: number; skipped?: string; failed?: string;
      /** The checker that answered (INGEST_PY_CHECKER), and why not the one asked for (it is not installed). */
      checker?: 'pyright' | 'ty';
      /** The dependencies it read: INGEST_PY_ENV or the repository's `.venv`/`venv` (site-packages, never run). */
      environment?: string;
      fallback?: string;
      /**
       * `deferred`: pyright answered after the graph was written with the fast resolver's edges, beside
       * the embedding; `edges` is its second write (files whose edges changed), `phaseMs` its wall time.
       */
      phase?: 'deferred';
      edges?: { files: number; added: number; updated: number; removed: number };
      phaseMs?: number;
    };
  };
  /** Scopes with an embedding after the run, and how many of them this run embedded. */
  embedded: number;
  embeddedThisRun: number;
  embeddingError?: string;
  /**
   * The embedding phase (computed + reused + duplicates = scopes embedded this run): `computed`
   * vectors came from the model, `reused` were copied from earlier runs (EMBED_REUSE) — `graphReused`
   * from a scope of any repository with the same (model, dimensions, text) hash, `cacheHits` from the
   * Redis cache —, `duplicates` from an identical text of the same round (embedded once);
   * `modelSwitched`: scopes re-embedded because they held another model's vector.
   */
  embedding?: { model: string; dimensions: number; reuse: 'on' | 'off'; computed: number; reused: number; graphReused: number; cacheHits: number; duplicates: number; modelSwitched: number };
  errors: IngestErrorEntry[];
  timingsMs: Record<string, number>;
  /**
   * The SCIP import of this run: documents used, and those ignored (stale: their text differs from
   * the file; unknown: no such file in this run) and occurrences outside their file, all counted;
   * references the index answered, and those it said nothing about (left to the name-based resolver).
   */
  scip?: ScipImportStats & { answered: number; unanswered: number };
  /**
   * Neo4j bookmarks of the run's writes: an API that relays the finished run adds them, so searches
   * through it read a graph with this run's writes applied (read-your-writes on a cluster).
   */
  bookmarks?: string[];
}

/**
 * Why a run resolved every file's references instead of only the changed files':
 * - `no-previous-run`: no finished run recorded what it resolved against (first index, or the last
 *   run was interrupted);
 * - `context`: the set of files, the resolver settings, the tsconfig or the resolver's code changed;
 * - `records`: the graph's per-file records are incomplete (a file not fully written, no interface hash);
 * - `interface`: a changed file's interface (what other files' resolution reads of it) changed;
 * - `ts-checker`: a TS/JS file changed under the precise resolver, whose types come from bodies too;
 * - `py-checker`: likewise a Python file under pyright.
 */
export type ResolveAllReason = 'no-previous-run' | 'context' | 'records' | 'interface' | 'ts-checker' | 'py-checker';

export interface IngestRequest {
  path: string;
  name: string;
  /** Skip the embedding phase (benchmarks of parse+write; scopes stay pending for a later run). */
  embed?: boolean;
  /**
   * Leave doc comments out of what is stored, searched and embedded (evaluation datasets use doc
   * comments as queries, so the answer must not be found verbatim).
   */
  excludeDocComments?: boolean;
  /**
   * Globs (gitignore syntax) that bring back what the defaults skip (`dist/**`) and that skip more.
   * Kept with the repository: a later run without them uses the stored ones.
   */
  include?: string[];
  exclude?: string[];
  /**
   * A SCIP index on the server (under INGEST_ALLOWED_ROOTS) whose occurrences' definitions replace
   * name-based edges in this run (see ../scip). Not kept: a run without it resolves by name again.
   */
  scip?: string;
  jobId?: string;
}

/** A run's use of the symbol index: reused files whose views it served and did not (read from Redis); files appended to it, or written anew; its write's time. */
export interface SymbolIndexUse {
  read: number;
  missed: number;
  appended?: number;
  written?: number;
  ms: number;
}
