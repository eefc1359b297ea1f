import { GoogleGenerativeAIEmbeddings, GoogleGenerativeAIEmbeddingsParams } from '@langchain/google-genai';
import { Logger } from '@nestjs/common';
import { EmbeddingConfigError, EmbeddingError, EmbeddingProvider } from './embedding-provider';
import { DEFAULT_RETRY_POLICY, isRetryableStatus, retryWithBackoff, RetryPolicy, validateRetryPolicy } from '../retry';
import { embedInBatches } from './batches';
import { l2Normalize } from './vector-math';
import { geminiRetryDelayMs } from '../gemini-retry-info';

export const DEFAULT_GEMINI_EMBEDDING_MODEL = 'gemini-embedding-001';
export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
/** batchEmbedContents refuses more than this many requests in one call. */
export const GEMINI_MAX_BATCH_SIZE = 100;
/** gemini-embedding-001's full size; smaller outputDimensionality values are truncations of it. */
export const GEMINI_MAX_DIMENSIONS = 3072;

const DEFAULT_CONCURRENCY = 1;
const REDACTED = '[redacted]';

type TaskType = NonNullable<GoogleGenerativeAIEmbeddingsParams['taskType']>;

export interface GeminiEmbeddingProviderOptions {
  apiKey: string;
  /** Root URL without the API version, e.g. the fake server's `http://127.0.0.1:PORT` in tests. */
  baseUrl?: string;
  model?: string;
  /** Sent as outputDimensionality; every returned vector must have exactly this length. */
  dimensions: number;
  /** Texts per batchEmbedContents request (at most 100). */
  batchSize?: number;
  /** Batch requests in flight at once; 1 keeps well inside free-tier rate limits. */
  concurrency?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Gemini embeds documents and queries differently for retrieval; both are configurable. */
  documentTaskType?: TaskType | string;
  queryTaskType?: TaskType | string;
}

interface Failure {
  retryable: boolean;
  reason: string;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * Gemini embeddings through LangChain's GoogleGenerativeAIEmbeddings, made strict:
 *  - `apiKey` and `baseUrl` are always passed explicitly (the LangChain class would otherwise read
 *    GOOGLE_API_KEY from the environment, a different variable from the one we document);
 *  - LangChain's own retries are off and replaced by ours: 429/5xx/network errors back off
 *    exponentially with full jitter, honouring Gemini's RetryInfo hint;
 *  - LangChain's `embedDocuments` does not throw when a batch request fails: it returns `[]` for each
 *    text of that batch. Every vector is therefore checked to have exactly `dimensions` finite
 *    numbers, and a failed batch is retried or reported as an error naming provider and model.
 * Vectors are L2-normalised: Gemini only normalises its full 3072-dimension output.
 */
export class GeminiEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'gemini' as const;
  readonly model: string;
  readonly dimensions: number;
  readonly batchSize: number;

  private readonly logger = new Logger(GeminiEmbeddingProvider.name);
  private readonly apiKey: string;
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  private readonly documents: GoogleGenerativeAIEmbeddings;
  private readonly queries: GoogleGenerativeAIEmbeddings;

  constructor(options: GeminiEmbeddingProviderOptions) {
    if (!options.apiKey) throw new EmbeddingConfigError('GeminiEmbeddingProvider needs an API key (GEMINI_API_KEY)');
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0 || options.dimensions > GEMINI_MAX_DIMENSIONS) {
      throw new EmbeddingConfigError(`Gemini dimensions must be an integer in 1..${GEMINI_MAX_DIMENSIONS}, got ${options.dimensions}`);
    }
    this.apiKey = options.apiKey;
    this.model = (options.model ?? DEFAULT_GEMINI_EMBEDDING_MODEL).replace(/^models\//, '');
    this.dimensions = options.dimensions;
    this.batchSize = options.batchSize ?? GEMINI_MAX_BATCH_SIZE;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > GEMINI_MAX_BATCH_SIZE) {
      throw new EmbeddingConfigError(`Gemini batchSize must be an integer in 1..${GEMINI_MAX_BATCH_SIZE}, got ${this.batchSize}`);
    }
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new EmbeddingConfigError(`Gemini concurrency must be a positive integer, got ${this.concurrency}`);
    }
    this.retry = validateRetryPolicy({
      maxAttempts: options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    });
    const common: GoogleGenerativeAIEmbeddingsParams = {
      apiKey: options.apiKey,
      baseUrl: (options.baseUrl ?? DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, ''),
      model: this.model,
      outputDimensionality: this.dimensions,
      // Line breaks carry structure in code; the LangChain default replaces them with spaces.
      stripNewLines: false,
      maxRetries: 0,
    };
    this.documents = new GoogleGenerativeAIEmbeddings({
      ...common,
      taskType: (options.documentTaskType ?? 'RETRIEVAL_DOCUMENT') as TaskType,
    });
    this.queries = new GoogleGenerativeAIEmbeddings({
      ...common,
      taskType: (options.queryTaskType ?? 'RETRIEVAL_QUERY') as TaskType,
    });
    // @langchain/google-genai 2.3 ignores the stripNewLines constructor field; set it directly.
    this.documents.stripNewLines = false;
    this.queries.stripNewLines = false;
    // The key sits in plain fields here and inside the LangChain/Google client objects; keep all of
    // them out of util.inspect, JSON.stringify and loggers that dump objects.
    for (const field of ['apiKey', 'documents', 'queries']) Object.defineProperty(this, field, { enumerable: false });
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return embedInBatches(texts, this.batchSize, this.concurrency, (batch, offset) => this.embedChunk(batch, offset));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.withRetry('embedContent for 1 query', async () => {
      let vector: number[];
      try {
        vector = await this.queries.embedQuery(text);
      } catch (err) {
        return { failure: this.classify(err) };
      }
      const problem = this.checkVectors([vector], 1);
      return problem ? { failure: problem } : { value: l2Normalize(vector) };
    });
  }

  private async embedChunk(chunk: string[], offset: number): Promise<number[][]> {
    let probe: Failure | undefined;
    let probed = false;
    const what = `batchEmbedContents for texts ${offset}..${offset + chunk.length - 1}`;
    return this.withRetry(what, async () => {
      let vectors: number[][];
      try {
        vectors = await this.documents.embedDocuments(chunk);
      } catch (err) {
        return { failure: this.classify(err) };
      }
      const problem = this.checkVectors(vectors, chunk.length);
      if (!problem) return { value: vectors.map((v) => l2Normalize(v)) };
      if (!problem.retryable || !vectors.every((v) => v.length === 0)) return { failure: problem };
      // All-empty is LangChain's signature for "the HTTP request failed" with the error thrown away.
      // One single-text request recovers the status, so a bad key or model fails at once instead
      // of after every retry, and the final error can say what the server answered.
      const fresh = !probed;
      if (fresh) {
        probed = true;
        probe = await this.probe(chunk[0]);
        if (probe && !probe.retryable) return { failure: probe };
      }
      if (!probe) return { failure: problem };
      return {
        failure: {
          retryable: true,
          reason: `${problem.reason}; a single-text request showed: ${probe.reason}`,
          retryAfterMs: fresh ? probe.retryAfterMs : undefined,
          cause: probe.cause,
        },
      };
    });
  }

  /** Returns why a single embedContent call fails, or undefined if it succeeds. */
  private async probe(text: string): Promise<Failure | undefined> {
    try {
      await this.documents.embedQuery(text);
      return undefined;
    } catch (err) {
      return this.classify(err);
    }
  }

  private async withRetry<T>(what: string, attemptOnce: () => Promise<{ value?: T; failure?: Failure }>): Promise<T> {
    return retryWithBackoff<T, Failure>(
      this.retry,
      async () => {
        const { value, failure } = await attemptOnce();
        return failure ? { failure } : { value: value as T };
      },
      {
        giveUp: (failure, attempt) => {
          const tries = attempt === 1 ? '' : ` after ${attempt} attempts`;
          throw new EmbeddingError(this.redact(`Gemini embeddings (model ${this.model}): ${what} failed${tries}: ${failure.reason}`), {
            cause: failure.cause,
          });
        },
        onRetry: (failure, attempt, delay) =>
          this.logger.warn(this.redact(`${what} failed (${failure.reason}); attempt ${attempt + 1}/${this.retry.maxAttempts} in ${delay} ms`)),
      },
    );
  }

  /** Every vector must exist and have exactly `dimensions` finite numbers. */
  private checkVectors(vectors: number[][], expected: number): Failure | undefined {
    if (!Array.isArray(vectors) || vectors.length !== expected) {
      return { retryable: true, reason: `expected ${expected} vectors, got ${Array.isArray(vectors) ? vectors.length : typeof vectors}` };
    }
    const empty = vectors.filter((v) => !Array.isArray(v) || v.length === 0).length;
    if (empty > 0) {
      return {
        retryable: true,
        reason: `${empty} of ${expected} vectors came back empty (LangChain returns [] instead of throwing when a batch request fails)`,
      };
    }
    const wrong = vectors.find((v) => v.length !== this.dimensions);
    if (wrong) {
      // The server answered with a different size: a configuration mismatch that retrying cannot fix.
      return {
        retryable: false,
        reason: `returned ${wrong.length}-dimensional vectors but ${this.dimensions} were requested (EMBEDDING_DIMENSIONS); does the model support outputDimensionality=${this.dimensions}?`,
      };
    }
    if (vectors.some((v) => v.some((x) => typeof x !== 'number' || !Number.isFinite(x)))) {
      return { retryable: true, reason: 'response contained non-numeric or non-finite values' };
    }
    return undefined;
  }

  private classify(err: unknown): Failure {
    const e = err as { status?: unknown; message?: unknown; errorDetails?: unknown };
    const status = typeof e?.status === 'number' ? e.status : undefined;
    const message = typeof e?.message === 'string' ? e.message : String(err);
    return {
      retryable: isRetryableStatus(status),
      reason: status ? `HTTP ${status}: ${message}` : message,
      retryAfterMs: geminiRetryDelayMs(e?.errorDetails),
      cause: err,
    };
  }

  private redact(text: string): string {
    return this.apiKey ? text.split(this.apiKey).join(REDACTED) : text;
  }
}
