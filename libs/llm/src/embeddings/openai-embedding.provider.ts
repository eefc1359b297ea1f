import { Logger } from '@nestjs/common';
import { ModelCallError, postJson } from '../chat/model-call.error';
import { EmbeddingConfigError, EmbeddingError, EmbeddingProvider } from './embedding-provider';
import { DEFAULT_RETRY_POLICY, RetryFailure, retryWithBackoff, RetryPolicy, validateRetryPolicy } from '../retry';
import { embedInBatches } from './batches';
import { l2Normalize } from './vector-math';

export const DEFAULT_OPENAI_EMBEDDING_BATCH_SIZE = 64;
/** Requests in flight at once: enough to keep a GPU server's batcher busy without flooding it. */
export const DEFAULT_OPENAI_EMBEDDING_CONCURRENCY = 4;
const DEFAULT_TIMEOUT_MS = 60_000;
const REDACTED = '[redacted]';

export interface OpenAiEmbeddingProviderOptions {
  /** Up to and including the version segment: `http://gpu-box:8080/v1` (text-embeddings-inference), `http://127.0.0.1:11434/v1` (Ollama). */
  baseUrl: string;
  model: string;
  /** What the server returns; every vector is checked against it (the vector index is built for it). */
  dimensions: number;
  /** Local servers usually need none. */
  apiKey?: string;
  /** Texts per request. */
  batchSize?: number;
  concurrency?: number;
  /** Send `dimensions` in the request (only for models that can shorten their output, e.g. text-embedding-3-*). */
  sendDimensions?: boolean;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

/** A failed request: only a retryable ModelCallError (429, 5xx, no answer) is tried again. */
interface ChunkFailure extends RetryFailure {
  error: Error;
}

interface EmbeddingsAnswer {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

/**
 * Any OpenAI-compatible `POST /embeddings` endpoint: Ollama, llama.cpp's server, vLLM,
 * text-embeddings-inference, OpenAI itself. Texts go in batches, a bounded number of requests at
 * once; 429/5xx/network failures back off with full jitter (honouring Retry-After), other errors
 * fail at once. Answers are put back in input order by their `index`, checked for size and
 * finiteness, and L2-normalised (servers differ on whether they normalise).
 */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'openai' as const;
  readonly model: string;
  readonly dimensions: number;
  readonly batchSize: number;
  readonly concurrency: number;

  private readonly logger = new Logger(OpenAiEmbeddingProvider.name);
  private readonly url: string;
  private readonly apiKey?: string;
  private readonly sendDimensions: boolean;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;

  constructor(options: OpenAiEmbeddingProviderOptions) {
    if (!options.baseUrl) throw new EmbeddingConfigError('the OpenAI-compatible embedding provider needs a base URL (EMBEDDING_OPENAI_BASE_URL)');
    if (!options.model) throw new EmbeddingConfigError('the OpenAI-compatible embedding provider needs a model name (EMBEDDING_MODEL)');
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.model = options.model;
    this.dimensions = positive('dimensions', options.dimensions);
    this.batchSize = positive('batchSize', options.batchSize ?? DEFAULT_OPENAI_EMBEDDING_BATCH_SIZE);
    this.concurrency = positive('concurrency', options.concurrency ?? DEFAULT_OPENAI_EMBEDDING_CONCURRENCY);
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.sendDimensions = options.sendDimensions === true;
    this.apiKey = options.apiKey;
    this.retry = validateRetryPolicy({ ...DEFAULT_RETRY_POLICY, ...options.retry });
    Object.defineProperty(this, 'apiKey', { enumerable: false });
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return embedInBatches(texts, this.batchSize, this.concurrency, (batch, offset) => this.embedChunk(batch, `texts ${offset}..${offset + batch.length - 1}`));
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedChunk([text], '1 query');
    return vector;
  }

  private embedChunk(input: string[], what: string): Promise<number[][]> {
    const body = { model: this.model, input, encoding_format: 'float', ...(this.sendDimensions ? { dimensions: this.dimensions } : {}) };
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const label = `embeddings (model ${this.model}) for ${what}`;
    return retryWithBackoff<number[][], ChunkFailure>(
      this.retry,
      async () => {
        try {
          const answer = (await postJson(this.url, body, headers, AbortSignal.timeout(this.timeoutMs), label)) as EmbeddingsAnswer;
          return { value: this.vectors(answer, input.length, label) };
        } catch (error) {
          const call = error instanceof ModelCallError ? error : undefined;
          return { failure: { error: error as Error, retryable: call?.retryable ?? false, retryAfterMs: call?.retryAfterMs } };
        }
      },
      {
        giveUp: ({ error }, attempt) => {
          const tries = attempt === 1 ? '' : ` after ${attempt} attempts`;
          throw new EmbeddingError(this.redact(`OpenAI-compatible ${error.message}${tries}`), { cause: error });
        },
        onRetry: ({ error }, attempt, delay) => this.logger.warn(this.redact(`${error.message}; attempt ${attempt + 1}/${this.retry.maxAttempts} in ${delay} ms`)),
      },
    );
  }

  /** Vectors in input order; a malformed answer is an error naming what was wrong. */
  private vectors(answer: EmbeddingsAnswer, expected: number, label: string): number[][] {
    const data = answer?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new ModelCallError(`${label}: expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : 'no data array'}`, 'http', 200);
    }
    const out = new Array<number[]>(expected);
    data.forEach((item, position) => {
      const index = typeof item?.index === 'number' ? item.index : position;
      const v = item?.embedding;
      if (!Array.isArray(v) || v.length !== this.dimensions) {
        // A size mismatch is configuration (EMBEDDING_DIMENSIONS vs the model): retrying cannot fix it.
        throw new EmbeddingConfigError(
          `${label}: the server returned ${Array.isArray(v) ? v.length : 0}-dimensional vectors, but EMBEDDING_DIMENSIONS=${this.dimensions}`,
        );
      }
      if (!v.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new ModelCallError(`${label}: non-numeric values in embedding ${index}`, 'http', 200);
      if (index < 0 || index >= expected || out[index]) throw new ModelCallError(`${label}: bad or repeated index ${index}`, 'http', 200);
      out[index] = l2Normalize(v as number[]);
    });
    return out;
  }

  private redact(text: string): string {
    return this.apiKey ? text.split(this.apiKey).join(REDACTED) : text;
  }
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new EmbeddingConfigError(`${name} must be a positive integer, got ${value}`);
  return value;
}
