import * as path from 'node:path';
import { z } from 'zod';
import { projectRoot } from './project-root';

/**
 * Without INGEST_ALLOWED_ROOTS, repositories may be indexed from the folder that holds this checkout
 * (a developer's projects folder) and below, nothing else.
 */
function defaultAllowedRoot(): string {
  return path.dirname(projectRoot());
}

/** Names of the environment variables that hold secrets: never logged, never echoed in errors. */
export const SECRET_VARIABLES = ['NEO4J_PASSWORD', 'GEMINI_API_KEY', 'EMBEDDING_OPENAI_API_KEY', 'API_KEY', 'RERANK_OPENAI_API_KEY', 'COHERE_API_KEY', 'VOYAGE_API_KEY'] as const;

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();
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
  EMBEDDING_DIMENSIONS: positiveInt.max(4096).default(384),
  SCOPEGRAPH_MODELS_DIR: z.string().optional(),
  INGEST_ALLOWED_ROOTS: z.string().optional(),
  INGEST_MAX_FILE_BYTES: positiveInt.default(1_000_000),
  INGEST_MAX_FILES: positiveInt.default(200_000),
  /** A crashed worker's hold on a repository lapses this long after its last heartbeat. */
  INGEST_LOCK_TTL_MS: positiveInt.min(100).max(600_000).default(30_000),
  /** A job for a repository that another worker is indexing waits this long before trying again. */
  INGEST_LOCK_RETRY_MS: positiveInt.max(600_000).default(5_000),
  EMBEDDING_BATCH_SIZE: positiveInt.max(512).default(32),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port.default(4000),
  API_KEY: optionalSecret,
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
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
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  neo4j: { uri: string; user: string; password: string; database: string };
  redis: { url: string };
  queue: { prefix: string };
  gemini: { apiKey?: string; baseUrl?: string; chatModel: string };
  embedding: {
    provider: 'local' | 'gemini' | 'openai' | 'hash';
    model?: string;
    dimensions: number;
    modelsDir?: string;
    batchSize: number;
    openai: { baseUrl?: string; apiKey?: string; concurrency: number };
  };
  api: { host: string; port: number; apiKey?: string };
  ingest: { allowedRoots: string[]; maxFileBytes: number; maxFiles: number; lockTtlMs: number; lockRetryMs: number };
  logLevel: Env['LOG_LEVEL'];
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
  };
}

export function toAppConfig(env: Env): AppConfig {
  return {
    neo4j: { uri: env.NEO4J_URI ?? `bolt://127.0.0.1:${env.NEO4J_BOLT_PORT}`, user: env.NEO4J_USER, password: env.NEO4J_PASSWORD, database: env.NEO4J_DATABASE },
    redis: { url: env.REDIS_URL ?? `redis://127.0.0.1:${env.REDIS_PORT}` },
    queue: { prefix: env.QUEUE_PREFIX },
    gemini: { apiKey: env.GEMINI_API_KEY, baseUrl: env.GEMINI_BASE_URL, chatModel: env.GEMINI_CHAT_MODEL },
    embedding: {
      provider: env.EMBEDDING_PROVIDER,
      model: env.EMBEDDING_MODEL,
      dimensions: env.EMBEDDING_DIMENSIONS,
      modelsDir: env.SCOPEGRAPH_MODELS_DIR,
      batchSize: env.EMBEDDING_BATCH_SIZE,
      openai: { baseUrl: env.EMBEDDING_OPENAI_BASE_URL, apiKey: env.EMBEDDING_OPENAI_API_KEY, concurrency: env.EMBEDDING_OPENAI_CONCURRENCY },
    },
    api: { host: env.API_HOST, port: env.API_PORT, apiKey: env.API_KEY },
    ingest: {
      allowedRoots: (env.INGEST_ALLOWED_ROOTS ?? defaultAllowedRoot()).split(path.delimiter).filter(Boolean),
      maxFileBytes: env.INGEST_MAX_FILE_BYTES,
      maxFiles: env.INGEST_MAX_FILES,
      lockTtlMs: env.INGEST_LOCK_TTL_MS,
      lockRetryMs: env.INGEST_LOCK_RETRY_MS,
    },
    logLevel: env.LOG_LEVEL,
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
    },
  };
}
