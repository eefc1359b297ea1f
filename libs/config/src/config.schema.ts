import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { projectRoot } from './project-root';

/**
 * Without INGEST_ALLOWED_ROOTS, repositories may be indexed from the folder that holds this checkout
 * (a developer's projects folder) and below, nothing else.
 */
function defaultAllowedRoot(root: string): string {
  return path.dirname(root);
}

/** Default models folder relative to the project root; `.cache/` is git-ignored. */
const DEFAULT_MODELS_SUBDIR = path.join('.cache', 'models');

/** Names of the environment variables that hold secrets (REDIS_URL may carry a password): never logged, never echoed in errors. */
export const SECRET_VARIABLES = ['NEO4J_PASSWORD', 'REDIS_URL', 'GEMINI_API_KEY', 'EMBEDDING_OPENAI_API_KEY', 'API_KEY', 'API_ADMIN_KEY', 'RERANK_OPENAI_API_KEY', 'COHERE_API_KEY', 'VOYAGE_API_KEY', 'CHAT_OPENAI_API_KEY'] as const;

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
/**
 * An API key: unset or empty means none; a value of only spaces is refused rather than read as "no
 * key", since whoever wrote it meant to protect the API.
 */
const apiKey = z
  .string()
  .optional()
  .refine((v) => v === undefined || v === '' || v.trim() !== '', 'is blank (only spaces): set a real key or leave it empty')
  .transform((v) => (v ? v : undefined));
const optionalSecret = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/**
 * Every environment variable scopegraph reads, with its default. process.env is read only in
 * config.loader.ts; everything else receives the typed AppConfig.
 */
export const envSchema = z.object({
  NEO4J_URI: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\/.+/, 'must be a bolt:// or neo4j:// URI')
    .optional(),
  /** Port of the Neo4j that scripts/services.sh runs; used when NEO4J_URI is unset. */
  NEO4J_BOLT_PORT: port.default(7687),
  NEO4J_USER: z.string().min(1).default('neo4j'),
  NEO4J_PASSWORD: z.string({ required_error: 'is required (npm run services:up writes one to .env)' }).min(1, 'must not be empty'),
  NEO4J_DATABASE: z.string().regex(/^[A-Za-z][A-Za-z0-9.-]*$/, 'must be a Neo4j database name').default('neo4j'),
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL').optional(),
  /** Port of the Redis that scripts/services.sh runs; used when REDIS_URL is unset. */
  REDIS_PORT: port.default(6379),
  /** A Redis command answered on behalf of a waiting caller fails after this long. */
  REDIS_COMMAND_TIMEOUT_MS: positiveInt.max(600_000).default(2_000),
  // The driver retries a transient failure (Neo4j unreachable included) once its backoff allows within
  // this budget: 500 ms means one retry about a second later, so a request during an outage answers
  // SERVICE_UNAVAILABLE in ~1 s instead of holding the caller for the 7-8 s a 5 s budget takes.
  NEO4J_MAX_RETRY_MS: z.coerce.number().int().min(0).max(600_000).default(500),
  // Bytes the driver gathers before a socket write (1,400 is the driver's own, fixed buffer; see
  // libs/graph/src/bolt-writes.ts). At most a Bolt chunk's 65,535 with its 2-byte header.
  NEO4J_BOLT_WRITE_BUFFER: z.coerce.number().int().min(1_400).max(65_534).default(65_534),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'may hold letters, digits, _ and - only').default('scopegraph'),
  GEMINI_API_KEY: optionalSecret,
  GEMINI_BASE_URL: z.string().url().optional(),
  GEMINI_CHAT_MODEL: z.string().min(1).default('gemini-2.5-flash'),
  EMBEDDING_PROVIDER: z.enum(['local', 'gemini', 'openai', 'hash']).default('local'),
  /** OpenAI-compatible /v1/embeddings server (Ollama, llama.cpp, vLLM, text-embeddings-inference), up to /v1. */
  EMBEDDING_OPENAI_BASE_URL: z.string().url().optional(),
  EMBEDDING_OPENAI_API_KEY: optionalSecret,
  /** Embedding requests in flight at once against that server. */
  EMBEDDING_OPENAI_CONCURRENCY: positiveInt.max(64).default(4),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  /** Unset: the size the chosen local model produces (defaultEmbeddingDimensions), 384 otherwise. */
  EMBEDDING_DIMENSIONS: positiveInt.max(4096).optional(),
  SCOPEGRAPH_MODELS_DIR: z.string().optional(),
  /** The folder holding cypher/, when the walk-up from the code cannot find it. */
  SCOPEGRAPH_ROOT: z.string().optional(),
  INGEST_ALLOWED_ROOTS: z.string().optional(),
  INGEST_MAX_FILE_BYTES: positiveInt.default(1_000_000),
  INGEST_MAX_FILES: positiveInt.default(200_000),
  // precise: TypeScript's checker resolves TS/JS references (tree-sitter resolver as fallback);
  // fast: the tree-sitter resolver alone.
  INGEST_TS_RESOLVER: z.enum(['precise', 'fast']).default('precise'),
  // Above this many TS/JS files a repository is resolved fast-only (bounds the checker's memory).
  INGEST_TS_PRECISE_MAX_FILES: positiveInt.default(20_000),
  // precise: a type checker (INGEST_PY_CHECKER) answers the Python references the tree-sitter resolver
  // cannot pin (typed receivers, re-exports, self.x.m()); fast: the tree-sitter resolver alone. Without
  // a checker installed (or when it fails), precise falls back to fast with a warning. On by default,
  // as for TypeScript: graph-only, ty's index measured 0.68-1.84x the fast resolver (pyright's 5-16x;
  // deferred behind the embedding, 0.95-1.24x), bench/graph/README.md.
  INGEST_PY_RESOLVER: z.enum(['precise', 'fast']).default('precise'),
  // Which type checker answers under `precise`: ty (Astral's, a native binary that set-up installs under
  // .cache/pycheckers; missing, pyright answers and the run says so) or pyright (npm package). ty by
  // default: its graph-only index measured 1.4-1.7x the fast resolver on six packages and 2.2x on salt
  // (3,899 files), pyright's 5-16x, and every held-out package passes 0.85 of in-repo calls with it
  // (sphinx 0.921, pyright 0.970); teams that want pyright's few points more and can wait set pyright.
  INGEST_PY_CHECKER: z.enum(['pyright', 'ty']).default('ty'),
  // The dependencies the checker reads: a site-packages folder or a virtual environment's folder. Unset:
  // the repository's own `.venv` or `venv` at its root, if any. Read as files, never run (a repository's
  // .venv/bin/python is not to be trusted); without one, calls on dependencies' values stay unknown.
  INGEST_PY_ENV: z.string().min(1).optional(),
  // ty's executable (default: .cache/pycheckers/ty/ty under the project root).
  INGEST_PY_TY_PATH: z.string().optional(),
  // ty's resident memory cap (MB): ty takes no heap limit, so its memory is read every 250 ms and past
  // this the process is stopped, the fast resolver answering the rest (resolver.pyPrecise.fallback says
  // so). Default above salt's 1.9 GB peak (3,899 files), about what pyright reaches under its 2048 MB heap.
  INGEST_PY_TY_MAX_RSS_MB: positiveInt.min(8).default(2560),
  // Above this many Python files a repository is resolved fast-only (bounds the checker's memory).
  INGEST_PY_PRECISE_MAX_FILES: positiveInt.default(10_000),
  // Heap limit (MB) of each pyright process (one per repository, kept between runs).
  INGEST_PY_PRECISE_MAX_HEAP_MB: positiveInt.min(256).default(2048),
  // pyright processes a worker keeps at once (each 250-400 MB): past it the least recently used
  // repository's is stopped (its next run starts it again, re-reading its files).
  INGEST_PY_PRECISE_MAX_PROCESSES: positiveInt.default(2),
  // A repository's pyright process idle this long (ms) is stopped, its memory freed.
  INGEST_PY_PRECISE_IDLE_MS: positiveInt.min(1000).default(600_000),
  // Longest wait (ms) for one pyright answer, and for its start-up: past it the process is stopped and
  // the fast resolver answers the rest of the run (said in the index result's resolver.pyPrecise).
  INGEST_PY_PRECISE_TIMEOUT_MS: positiveInt.min(100).default(30_000),
  INGEST_PY_PRECISE_START_TIMEOUT_MS: positiveInt.min(100).default(60_000),
  // deferred: the graph is written with the fast resolver's Python edges first (searchable at once),
  // then the checker answers beside the embedding phase and its edges replace them in a second write;
  // inline: the checker answers during resolution, before anything is written. Unset: inline for ty
  // (its answers cost less than the second write), deferred for pyright (bench/graph/README.md).
  INGEST_PY_PRECISE_PHASE: z.enum(['deferred', 'inline']).optional(),
  // Threads that read and parse files beside the main thread (0: in-process). Default: one per core
  // beyond the main thread's, at least 1, at most 4 (on 2 shared cores one thread indexed a 53k-scope
  // repository at 1,056 scopes/s median against 919 in-process: docs/ingest-scale.md).
  INGEST_PARSE_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** A crashed worker's hold on a repository lapses this long after its last heartbeat. */
  INGEST_LOCK_TTL_MS: positiveInt.min(100).max(600_000).default(30_000),
  /** A job for a repository that another worker is indexing waits this long before trying again. */
  INGEST_LOCK_RETRY_MS: positiveInt.max(600_000).default(5_000),
  /**
   * Scopes per embedding slice: an index job run by a worker cuts its embedding into BullMQ jobs of
   * this many scopes that every worker takes in parallel (0: the index job embeds by itself).
   */
  INGEST_EMBED_SLICE: z.coerce.number().int().min(0).max(100_000).default(2_048),
  /**
   * Embedding slices one worker runs at once: with two, one slice's graph reads and writes overlap the
   * other's model calls, so the model (or endpoint) never waits on Neo4j between slices.
   */
  INGEST_EMBED_CONCURRENCY: positiveInt.max(16).default(2),
  /** Where each repository's symbol index (its files' resolution views, one file) is kept; `off`: not kept. */
  INGEST_SYMBOL_INDEX_DIR: z.string().min(1).optional(),
  // Git history read into the graph (libs/history): the newest N commits, none older than HISTORY_SINCE
  // (a date git understands, e.g. 2024-01-01); commits touching more files than HISTORY_MASS_COMMIT_FILES
  // (reformats, vendoring) count as changes but not as co-change evidence.
  HISTORY_MAX_COMMITS: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  HISTORY_SINCE: z.string().regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.Z+-]+)?$/, 'must be a date such as 2024-01-31').optional(),
  HISTORY_MASS_COMMIT_FILES: positiveInt.max(100_000).default(30),
  HISTORY_MIN_SUPPORT: positiveInt.max(1_000).default(2),
  EMBEDDING_BATCH_SIZE: positiveInt.max(512).default(32),
  /** Threads of the local model's runs (ONNX Runtime intra-op threads); default: 1 in the API, the CPUs this process may use elsewhere. */
  EMBEDDING_THREADS: positiveInt.max(64).optional(),
  /**
   * Local model: padded tokens (texts × longest) per ONNX run. Long texts then go fewer at a time, so
   * ONNX Runtime's buffers stay bounded: 2,048 (8 texts of 256 tokens) peaked at 555 MiB on salt's
   * longest texts where 32 × 256 peaked at 1,514 MiB, at the same embeddings/s (docs/ingest-scale.md).
   */
  EMBEDDING_MAX_BATCH_TOKENS: positiveInt.min(256).default(2048),
  /** Concurrent query embeddings share one model call (local models only); recent query vectors are cached either way. */
  EMBEDDING_QUERY_BATCHING: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /**
   * A worker loads the local model when it starts instead of on its first embedding job (~4 s of CPU
   * and the model's memory at once): for long-running workers, so an index's embedding starts at speed.
   */
  EMBEDDING_PRELOAD: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /**
   * Content-addressed embedding reuse (docs/configuration.md): `on` copies the vector of a text this
   * server already embedded with the same model and dimensions (any repository) instead of computing it.
   */
  EMBED_REUSE: z.enum(['on', 'off']).default('on'),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port.default(4000),
  /** The read key; also the admin key while API_ADMIN_KEY is unset. */
  API_KEY: apiKey,
  /** The admin key (index, delete, diagnostics jobs, /queues); with it set, API_KEY only reads. */
  API_ADMIN_KEY: apiKey,
  /** A key that may read /metrics only (admin keys may too). */
  API_METRICS_KEY: apiKey,
  /** Days the audit trail of mutations is kept. */
  AUDIT_RETENTION_DAYS: positiveInt.max(36_500).default(90),
  /** Extra browser origins allowed to call the API (comma-separated, e.g. http://localhost:5173); same-origin pages always are. */
  API_ALLOWED_ORIGINS: z.string().optional(),
  /** Operations per minute per key (per client address without a key), per API process. */
  API_RATE_LIMIT_PER_MIN: positiveInt.max(1_000_000).default(600),
  /**
   * The window the limit is counted over, in seconds (default 60: API_RATE_LIMIT_PER_MIN per minute);
   * a shorter one scales the limit with it (30 per minute over 10 s is 5 per 10 s).
   */
  API_RATE_LIMIT_WINDOW_S: positiveInt.max(3_600).default(60),
  /** Largest query cost (see apps/api/src/graphql/cost.ts) one operation may have. */
  GRAPHQL_MAX_COST: positiveInt.max(1_000_000).default(2_000),
  GRAPHQL_MAX_DEPTH: positiveInt.max(100).default(12),
  GRAPHQL_MAX_ALIASES: positiveInt.max(1_000).default(20),
  /**
   * Characters of source one operation may return (each search: sourceChars × (topK + expanded
   * nodes), summed over aliases; a whole source counts as 1,000,000): refused before it runs.
   */
  GRAPHQL_MAX_SOURCE_CHARS: positiveInt.max(100_000_000).default(2_000_000),
  /** Tokens in one GraphQL document: bounds parsing and validation work before anything runs. */
  GRAPHQL_MAX_TOKENS: positiveInt.max(1_000_000).default(3_000),
  /** Longest a Neo4j transaction of an API request may run before the server ends it. */
  NEO4J_TX_TIMEOUT_MS: positiveInt.max(3_600_000).default(15_000),
  /**
   * Longest one read of an index job's own bookkeeping may run (what is stored, what still lacks a
   * vector): it walks the whole repository, so at a million scopes under load it outlasts the
   * request limit above, which exists to keep one user's costly query from holding the pool.
   */
  NEO4J_JOB_TX_TIMEOUT_MS: positiveInt.max(86_400_000).default(600_000),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  /** auto: readable lines when stdout is a terminal, JSON lines otherwise; json or pretty force one. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  // Reranking (libs/rerank). auto: gemini with GEMINI_API_KEY, else openai with RERANK_OPENAI_BASE_URL,
  // else cohere / voyage with their key, else the local keyword reranker.
  RERANK_PROVIDER: z.enum(['auto', 'gemini', 'openai', 'cohere', 'voyage', 'local']).default('auto'),
  RERANK_MODEL: z.string().min(1).optional(),
  RERANK_OPENAI_BASE_URL: z.string().url().optional(),
  RERANK_OPENAI_API_KEY: optionalSecret,
  COHERE_API_KEY: optionalSecret,
  COHERE_BASE_URL: z.string().url().optional(),
  VOYAGE_API_KEY: optionalSecret,
  VOYAGE_BASE_URL: z.string().url().optional(),
  RERANK_CACHE_TTL_S: z.coerce.number().int().min(0).default(86_400),
  RERANK_TIMEOUT_MS: positiveInt.max(600_000).default(60_000),
  RERANK_BATCH_TIMEOUT_MS: positiveInt.max(600_000).default(20_000),
  RERANK_MAX_ATTEMPTS: positiveInt.max(10).default(3),
  RERANK_RETRY_BASE_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  RERANK_SOURCE_CHARS: positiveInt.max(100_000).default(1_500),
  /** Finished reranks whose decisions are kept in the graph (RerankRun nodes); 0 records none. */
  RERANK_KEEP_RUNS: z.coerce.number().int().min(0).max(100_000).default(200),
  // Answering (libs/pipeline). auto: gemini with GEMINI_API_KEY, else openai with CHAT_OPENAI_BASE_URL,
  // else none (ask still answers: with the evidence and a message saying no model is configured).
  CHAT_PROVIDER: z.enum(['auto', 'gemini', 'openai', 'none']).default('auto'),
  CHAT_MODEL: z.string().min(1).optional(),
  CHAT_OPENAI_BASE_URL: z.string().url().optional(),
  CHAT_OPENAI_API_KEY: optionalSecret,
  ASK_MODEL_TIMEOUT_MS: positiveInt.max(600_000).default(60_000),
  ASK_DEFAULT_PIPELINE: z.string().min(1).default('base'),
  // An ask no worker has taken after this long is removed and its watchers told so (no worker running).
  ASK_PICKUP_TIMEOUT_MS: positiveInt.max(3_600_000).default(120_000),
  // The written change review (reviewChange with writtenReview: true) waits on the model inside the
  // request, so its limit is shorter than ask's; past it the structured review comes back without it.
  REVIEW_MODEL_TIMEOUT_MS: positiveInt.max(600_000).default(30_000),
  REVIEW_MAX_PROMPT_TOKENS: positiveInt.min(500).max(200_000).default(8_000),
  REVIEW_MAX_OUTPUT_TOKENS: positiveInt.min(50).max(8_000).default(600),
});

/** Names that only this machine can reach; binding anywhere else exposes the API to the network. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Rules between variables, each naming the variable to fix. */
export const envRules = envSchema.superRefine((env, ctx) => {
  if (!isLoopbackHost(env.API_HOST) && !env.API_KEY && !env.API_ADMIN_KEY) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['API_KEY'],
      message: `is required when API_HOST (${env.API_HOST}) is not a loopback address: the API would be open to the network`,
    });
  }
  if (env.API_KEY && env.API_ADMIN_KEY && env.API_KEY === env.API_ADMIN_KEY) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['API_ADMIN_KEY'], message: 'must differ from API_KEY (the read key)' });
  }
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  neo4j: { uri: string; user: string; password: string; database: string; txTimeoutMs: number; jobTxTimeoutMs: number; maxRetryMs: number; boltWriteBuffer: number };
  redis: { url: string; commandTimeoutMs: number };
  queue: { prefix: string };
  gemini: { apiKey?: string; baseUrl?: string; chatModel: string };
  embedding: {
    provider: 'local' | 'gemini' | 'openai' | 'hash';
    model?: string;
    dimensions: number;
    modelsDir: string;
    batchSize: number;
    /** Local model threads; undefined: one per CPU. */
    threads?: number;
    /** Local model: padded tokens per ONNX run (EMBEDDING_MAX_BATCH_TOKENS). */
    maxBatchTokens: number;
    queryBatching: boolean;
    /** EMBEDDING_PRELOAD: a worker loads the local model at start. */
    preload: boolean;
    /** EMBED_REUSE=on: vectors of identical embedding texts are copied (graph, then Redis cache), not computed. */
    reuse: boolean;
    openai: { baseUrl?: string; apiKey?: string; concurrency: number };
  };
  /** The project root (cypher/, scripts/) and the local models folder. */
  paths: { root: string };
  api: {
    host: string;
    port: number;
    /** Read key (also admin while adminKey is unset). */
    apiKey?: string;
    adminKey?: string;
    /** May read /metrics only. */
    metricsKey?: string;
    auditRetentionDays: number;
    allowedOrigins: string[];
    rateLimitPerMin: number;
    /** The rate limit's window in ms, and the operations it allows (rateLimitPerMin scaled to it, at least 1). */
    rateWindowMs: number;
    rateLimitPerWindow: number;
    graphql: { maxCost: number; maxDepth: number; maxAliases: number; maxTokens: number; maxSourceChars: number };
  };
  ingest: {
    allowedRoots: string[];
    maxFileBytes: number;
    maxFiles: number;
    tsResolver: 'precise' | 'fast';
    tsPreciseMaxFiles: number;
    pyResolver: 'precise' | 'fast';
    pyPreciseMaxFiles: number;
    /** INGEST_PY_CHECKER: the language server pyright's phase asks (pyright or ty). */
    pyChecker: 'pyright' | 'ty';
    /** INGEST_PY_TY_PATH: ty's executable. */
    pyTyPath: string;
    /** INGEST_PY_TY_MAX_RSS_MB: ty's resident memory cap. */
    pyTyMaxRssMb: number;
    /** INGEST_PY_ENV: the site-packages folder or virtual environment the checker reads dependencies from. */
    pyEnv?: string;
    pyPreciseMaxHeapMb: number;
    pyPreciseMaxProcesses: number;
    pyPreciseIdleMs: number;
    pyPreciseTimeoutMs: number;
    pyPreciseStartTimeoutMs: number;
    /**
     * INGEST_PY_PRECISE_PHASE: the checker after the graph write, beside the embedding (`deferred`), or
     * during resolution (`inline`); unset, the answering checker's default (defaultPyPhase in libs/ingest).
     */
    pyPrecisePhase?: 'deferred' | 'inline';
    parseThreads: number;
    lockTtlMs: number;
    lockRetryMs: number;
    /** Scopes per embedding slice job (INGEST_EMBED_SLICE); 0: no fan-out. */
    embedSlice: number;
    /** Embedding slices one worker runs at once (INGEST_EMBED_CONCURRENCY). */
    embedConcurrency: number;
    /** The symbol index's folder (INGEST_SYMBOL_INDEX_DIR, default <root>/.cache/symbols), null: not kept. */
    symbolIndexDir: string | null;
  };
  history: { maxCommits: number; since?: string; massCommitFiles: number; minSupport: number };
  logLevel: Env['LOG_LEVEL'];
  logFormat: Env['LOG_FORMAT'];
  rerank: {
    provider: Env['RERANK_PROVIDER'];
    model?: string;
    openai: { baseUrl?: string; apiKey?: string };
    cohere: { apiKey?: string; baseUrl?: string };
    voyage: { apiKey?: string; baseUrl?: string };
    /** 0 turns the cache off. */
    cacheTtlS: number;
    timeoutMs: number;
    batchTimeoutMs: number;
    maxAttempts: number;
    retryBaseMs: number;
    sourceChars: number;
    /** Finished runs kept as RerankRun nodes; 0 records none. */
    keepRuns: number;
  };
  chat: { provider: Env['CHAT_PROVIDER']; model?: string; openai: { baseUrl?: string; apiKey?: string } };
  ask: { modelTimeoutMs: number; defaultPipeline: string; pickupTimeoutMs: number };
  review: { modelTimeoutMs: number; maxPromptTokens: number; maxOutputTokens: number };
}

/**
 * Vector sizes of the local models (ids and aliases), so that choosing a model with EMBEDDING_MODEL
 * is enough: the vector index follows. libs/llm holds the models themselves and a unit test there
 * keeps this table in step (config cannot import llm, which depends on it).
 */
export const LOCAL_MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  'all-MiniLM-L6-v2-onnx-int8': 384,
  'all-MiniLM-L6-v2': 384,
  'sentence-transformers/all-MiniLM-L6-v2': 384,
  'all-mpnet-base-v2-onnx-int8': 768,
  'all-mpnet-base-v2': 768,
  'sentence-transformers/all-mpnet-base-v2': 768,
};
const DEFAULT_EMBEDDING_DIMENSIONS = 384;

export function defaultEmbeddingDimensions(provider: string, model: string | undefined): number {
  return (provider === 'local' && model && LOCAL_MODEL_DIMENSIONS[model]) || DEFAULT_EMBEDDING_DIMENSIONS;
}

export function toAppConfig(env: Env): AppConfig {
  const root = projectRoot(env.SCOPEGRAPH_ROOT);
  return {
    paths: { root },
    neo4j: { uri: env.NEO4J_URI ?? `bolt://127.0.0.1:${env.NEO4J_BOLT_PORT}`, user: env.NEO4J_USER, password: env.NEO4J_PASSWORD, database: env.NEO4J_DATABASE, txTimeoutMs: env.NEO4J_TX_TIMEOUT_MS, jobTxTimeoutMs: env.NEO4J_JOB_TX_TIMEOUT_MS, maxRetryMs: env.NEO4J_MAX_RETRY_MS, boltWriteBuffer: env.NEO4J_BOLT_WRITE_BUFFER },
    redis: { url: env.REDIS_URL ?? `redis://127.0.0.1:${env.REDIS_PORT}`, commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS },
    queue: { prefix: env.QUEUE_PREFIX },
    gemini: { apiKey: env.GEMINI_API_KEY, baseUrl: env.GEMINI_BASE_URL, chatModel: env.GEMINI_CHAT_MODEL },
    embedding: {
      provider: env.EMBEDDING_PROVIDER,
      model: env.EMBEDDING_MODEL,
      dimensions: env.EMBEDDING_DIMENSIONS ?? defaultEmbeddingDimensions(env.EMBEDDING_PROVIDER, env.EMBEDDING_MODEL),
      modelsDir: path.resolve(env.SCOPEGRAPH_MODELS_DIR ?? path.join(root, DEFAULT_MODELS_SUBDIR)),
      batchSize: env.EMBEDDING_BATCH_SIZE,
      threads: env.EMBEDDING_THREADS,
      maxBatchTokens: env.EMBEDDING_MAX_BATCH_TOKENS,
      queryBatching: env.EMBEDDING_QUERY_BATCHING,
      preload: env.EMBEDDING_PRELOAD,
      reuse: env.EMBED_REUSE === 'on',
      openai: { baseUrl: env.EMBEDDING_OPENAI_BASE_URL, apiKey: env.EMBEDDING_OPENAI_API_KEY, concurrency: env.EMBEDDING_OPENAI_CONCURRENCY },
    },
    api: {
      host: env.API_HOST,
      port: env.API_PORT,
      apiKey: env.API_KEY,
      adminKey: env.API_ADMIN_KEY,
      metricsKey: env.API_METRICS_KEY,
      auditRetentionDays: env.AUDIT_RETENTION_DAYS,
      allowedOrigins: (env.API_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean),
      rateLimitPerMin: env.API_RATE_LIMIT_PER_MIN,
      rateWindowMs: env.API_RATE_LIMIT_WINDOW_S * 1000,
      rateLimitPerWindow: Math.max(1, Math.round((env.API_RATE_LIMIT_PER_MIN * env.API_RATE_LIMIT_WINDOW_S) / 60)),
      graphql: { maxCost: env.GRAPHQL_MAX_COST, maxDepth: env.GRAPHQL_MAX_DEPTH, maxAliases: env.GRAPHQL_MAX_ALIASES, maxTokens: env.GRAPHQL_MAX_TOKENS, maxSourceChars: env.GRAPHQL_MAX_SOURCE_CHARS },
    },
    ingest: {
      allowedRoots: (env.INGEST_ALLOWED_ROOTS ?? defaultAllowedRoot(root)).split(path.delimiter).filter(Boolean),
      maxFileBytes: env.INGEST_MAX_FILE_BYTES,
      maxFiles: env.INGEST_MAX_FILES,
      tsResolver: env.INGEST_TS_RESOLVER,
      tsPreciseMaxFiles: env.INGEST_TS_PRECISE_MAX_FILES,
      pyResolver: env.INGEST_PY_RESOLVER,
      pyPreciseMaxFiles: env.INGEST_PY_PRECISE_MAX_FILES,
      pyChecker: env.INGEST_PY_CHECKER,
      pyTyPath: path.resolve(env.INGEST_PY_TY_PATH ?? path.join(root, '.cache', 'pycheckers', 'ty', 'ty')),
      pyTyMaxRssMb: env.INGEST_PY_TY_MAX_RSS_MB,
      pyEnv: env.INGEST_PY_ENV ? path.resolve(env.INGEST_PY_ENV) : undefined,
      pyPreciseMaxHeapMb: env.INGEST_PY_PRECISE_MAX_HEAP_MB,
      pyPreciseMaxProcesses: env.INGEST_PY_PRECISE_MAX_PROCESSES,
      pyPreciseIdleMs: env.INGEST_PY_PRECISE_IDLE_MS,
      pyPreciseTimeoutMs: env.INGEST_PY_PRECISE_TIMEOUT_MS,
      pyPreciseStartTimeoutMs: env.INGEST_PY_PRECISE_START_TIMEOUT_MS,
      pyPrecisePhase: env.INGEST_PY_PRECISE_PHASE,
      parseThreads: env.INGEST_PARSE_THREADS ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
      lockTtlMs: env.INGEST_LOCK_TTL_MS,
      lockRetryMs: env.INGEST_LOCK_RETRY_MS,
      embedSlice: env.INGEST_EMBED_SLICE,
      embedConcurrency: env.INGEST_EMBED_CONCURRENCY,
      symbolIndexDir: env.INGEST_SYMBOL_INDEX_DIR === 'off' ? null : path.resolve(env.INGEST_SYMBOL_INDEX_DIR ?? path.join(root, '.cache', 'symbols')),
    },
    history: { maxCommits: env.HISTORY_MAX_COMMITS, since: env.HISTORY_SINCE, massCommitFiles: env.HISTORY_MASS_COMMIT_FILES, minSupport: env.HISTORY_MIN_SUPPORT },
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    rerank: {
      provider: env.RERANK_PROVIDER,
      model: env.RERANK_MODEL,
      openai: { baseUrl: env.RERANK_OPENAI_BASE_URL, apiKey: env.RERANK_OPENAI_API_KEY },
      cohere: { apiKey: env.COHERE_API_KEY, baseUrl: env.COHERE_BASE_URL },
      voyage: { apiKey: env.VOYAGE_API_KEY, baseUrl: env.VOYAGE_BASE_URL },
      cacheTtlS: env.RERANK_CACHE_TTL_S,
      timeoutMs: env.RERANK_TIMEOUT_MS,
      batchTimeoutMs: env.RERANK_BATCH_TIMEOUT_MS,
      maxAttempts: env.RERANK_MAX_ATTEMPTS,
      retryBaseMs: env.RERANK_RETRY_BASE_MS,
      sourceChars: env.RERANK_SOURCE_CHARS,
      keepRuns: env.RERANK_KEEP_RUNS,
    },
    chat: { provider: env.CHAT_PROVIDER, model: env.CHAT_MODEL, openai: { baseUrl: env.CHAT_OPENAI_BASE_URL, apiKey: env.CHAT_OPENAI_API_KEY } },
    ask: { modelTimeoutMs: env.ASK_MODEL_TIMEOUT_MS, defaultPipeline: env.ASK_DEFAULT_PIPELINE, pickupTimeoutMs: env.ASK_PICKUP_TIMEOUT_MS },
    review: { modelTimeoutMs: env.REVIEW_MODEL_TIMEOUT_MS, maxPromptTokens: env.REVIEW_MAX_PROMPT_TOKENS, maxOutputTokens: env.REVIEW_MAX_OUTPUT_TOKENS },
  };
}
