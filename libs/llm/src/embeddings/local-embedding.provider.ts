import { Logger } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { BertWordPieceTokenizer } from './bert-wordpiece-tokenizer';
import { EmbeddingConfigError, EmbeddingError, EmbeddingProvider } from './embedding-provider';
import { OnnxThread } from './onnx-thread';
import {
  assertLocalModelInstalled,
  DEFAULT_LOCAL_EMBEDDING_MODEL,
  getLocalModelSpec,
  LOCAL_EMBEDDING_MODELS,
  LocalModelFiles,
  LocalModelSpec,
} from './local-models';

export const DEFAULT_LOCAL_BATCH_SIZE = 32;
/** Padded tokens per ONNX run by default (see LocalEmbeddingProviderOptions.maxBatchTokens). */
export const DEFAULT_LOCAL_MAX_BATCH_TOKENS = 2_048;

export interface LocalEmbeddingProviderOptions {
  /** Model id, i.e. a folder under the models dir (see LOCAL_EMBEDDING_MODELS). */
  model?: string;
  /** Directory holding `<model-id>/`; default SCOPEGRAPH_MODELS_DIR, else `<repo>/.cache/models`. */
  modelsDir?: string;
  /** Texts per ONNX run. */
  batchSize?: number;
  /** Threads ONNX Runtime uses inside one operator; default: the CPUs this process may use. */
  intraOpNumThreads?: number;
  /** Truncate inputs to this many tokens ([CLS]/[SEP] included); at most the model's own limit. */
  maxTokens?: number;
  /**
   * Padded tokens (texts × longest text) per ONNX run, beside `batchSize`: long texts go in smaller
   * batches, so the memory a run needs (activations grow with texts × length, attention with
   * texts × length²) stays bounded, while short texts still go `batchSize` at a time.
   */
  maxBatchTokens?: number;
}

interface Loaded {
  thread: OnnxThread;
  tokenizer: BertWordPieceTokenizer;
}

/**
 * Sentence embeddings computed in-process by ONNX Runtime from files that scripts/models.sh
 * installed: WordPiece tokens → transformer → mean over real tokens → L2 normalisation, the same
 * pipeline as sentence-transformers, so vectors match the reference implementation to ~1e-6.
 *
 * The ONNX session is created on first use (or by `init()`), on a worker thread of its own
 * (onnx-thread.ts) so that model runs never block the event loop; the constructor only checks that
 * the files exist so that misconfiguration fails at start-up, not on the first request.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'local' as const;
  readonly model: string;
  readonly dimensions: number;
  readonly maxTokens: number;
  readonly batchSize: number;
  readonly maxBatchTokens: number;
  readonly intraOpNumThreads: number;

  private readonly logger = new Logger(LocalEmbeddingProvider.name);
  private readonly spec: LocalModelSpec;
  private readonly files: LocalModelFiles;
  private loading?: Promise<Loaded>;
  /**
   * Calls whose runs are with the model thread, for close() to wait on. The thread runs what it is
   * sent one run at a time, in order (concurrent runs would only fight over the same CPU threads),
   * so a call need not wait for the previous one before it sends its batches: the model goes from
   * one caller's last batch to the next caller's first without waiting on this event loop.
   */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: LocalEmbeddingProviderOptions = {}) {
    const modelId = options.model ?? DEFAULT_LOCAL_EMBEDDING_MODEL;
    const spec = getLocalModelSpec(modelId);
    if (!spec) {
      throw new EmbeddingConfigError(
        `Unknown local embedding model "${modelId}"; known: ${Object.keys(LOCAL_EMBEDDING_MODELS).join(', ')}`,
      );
    }
    this.spec = spec;
    this.model = spec.id;
    this.dimensions = spec.dimensions;
    this.maxTokens = positiveInt('maxTokens', options.maxTokens ?? spec.maxTokens);
    if (this.maxTokens > spec.maxTokens) {
      throw new EmbeddingConfigError(`maxTokens ${this.maxTokens} exceeds ${spec.id}'s limit of ${spec.maxTokens}`);
    }
    this.batchSize = positiveInt('batchSize', options.batchSize ?? DEFAULT_LOCAL_BATCH_SIZE);
    this.maxBatchTokens = positiveInt('maxBatchTokens', options.maxBatchTokens ?? DEFAULT_LOCAL_MAX_BATCH_TOKENS);
    this.intraOpNumThreads = positiveInt('intraOpNumThreads', options.intraOpNumThreads ?? availableParallelism());
    this.files = assertLocalModelInstalled(spec, options.modelsDir);
  }

  /** Loads the tokenizer and the ONNX session now instead of on the first call. */
  async init(): Promise<void> {
    await this.load();
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const loaded = await this.load();
    // Tokenised while the thread runs other callers' batches.
    const encoded = texts.map((t) => loaded.tokenizer.encode(t, this.maxTokens));
    return this.track(this.embedAll(loaded, encoded));
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([text]);
    return vector;
  }

  async close(): Promise<void> {
    this.closed = true;
    const loading = this.loading;
    this.loading = undefined;
    if (!loading) return;
    const loaded = await loading.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await loaded?.thread.release();
  }

  private load(): Promise<Loaded> {
    if (this.closed) return Promise.reject(new EmbeddingError(`LocalEmbeddingProvider(${this.model}) is closed`));
    this.loading ??= this.createSession().catch((err: unknown) => {
      this.loading = undefined; // let a later call retry, e.g. after `npm run models`
      throw err;
    });
    return this.loading;
  }

  private async createSession(): Promise<Loaded> {
    const started = Date.now();
    const tokenizer = BertWordPieceTokenizer.fromFile(this.files.tokenizerPath);
    let thread: OnnxThread;
    try {
      // The thread loads the native ONNX Runtime addon, so importing this library (e.g. for the hash
      // or Gemini providers) never does.
      thread = await OnnxThread.start(this.files.modelPath, this.intraOpNumThreads);
    } catch (err) {
      throw new EmbeddingError(
        `Could not load ONNX model ${this.files.modelPath} for ${this.model}; reinstall it with \`npm run models\``,
        { cause: err },
      );
    }
    this.logger.log(
      `Loaded ${this.model} (${this.dimensions} dims, max ${this.maxTokens} tokens, ${this.intraOpNumThreads} threads) in ${Date.now() - started} ms`,
    );
    return { thread, tokenizer };
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.inFlight.add(run);
    const untrack = () => this.inFlight.delete(run);
    run.then(untrack, untrack);
    return run;
  }

  private async embedAll(loaded: Loaded, encoded: Int32Array[]): Promise<number[][]> {
    // Similar lengths share a batch so that little compute goes into padding; results are put back
    // in input order. Padding is masked, so grouping does not change any vector.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].length - encoded[b].length);
    const out = new Array<number[]>(encoded.length);
    // Every batch goes to the model thread at once and it runs them back to back: awaiting each
    // before sending the next left the model idle for a turn of this event loop between batches,
    // and under load (the worker's reads, writes and tokenising) that turn is long.
    const batches = tokenBatches(order, (i) => encoded[i].length, this.batchSize, this.maxBatchTokens);
    const results = await Promise.all(batches.map((idx) => this.runBatch(loaded, idx.map((i) => encoded[i]))));
    batches.forEach((idx, b) => idx.forEach((i, k) => (out[i] = results[b][k])));
    return out;
  }

  private async runBatch(loaded: Loaded, batch: Int32Array[]): Promise<number[][]> {
    const rows = batch.length;
    let seqLen = 0;
    for (const ids of batch) seqLen = Math.max(seqLen, ids.length);
    let result;
    try {
      result = await loaded.thread.run(batch);
    } catch (err) {
      throw new EmbeddingError(`ONNX inference failed for ${this.model} (batch of ${rows})`, { cause: err });
    }
    const { dims, vectors } = result;
    const width = dims[2];
    if (dims.length !== 3 || width !== this.dimensions || vectors === null) {
      throw new EmbeddingError(`${this.model} returned shape [${dims.join(', ')}], expected [${rows}, ${seqLen}, ${this.dimensions}]`);
    }
    return batch.map((_, r) => Array.from(vectors.subarray(r * width, (r + 1) * width)));
  }
}

/**
 * What one ONNX run costs beyond its padded tokens (thread hand-off, tensor set-up, operator launch),
 * in padded tokens: a batch cut earns its keep when it saves more padding than this.
 */
export const RUN_OVERHEAD_TOKENS = 64;

/**
 * Cuts length-sorted items into batches of at most `maxItems` whose padded size (items × the
 * longest, i.e. the last) stays within `maxTokens` (an item longer than `maxTokens` goes alone), at
 * the cuts that minimise padded tokens plus RUN_OVERHEAD_TOKENS a batch. Fixed-size batches pad every
 * text to the longest of its 32: on the 64-text embedding slices of a small repository that was 16 % more tokens than the same
 * texts sorted as one set (docs/ingest-scale.md); optimal cuts bring it within a few percent.
 * Dynamic programming over cut points (O(n × maxItems)), because a greedy cut cannot see that a
 * short batch now saves padding later.
 */
export function tokenBatches(sorted: number[], length: (i: number) => number, maxItems: number, maxTokens: number, runOverhead = RUN_OVERHEAD_TOKENS): number[][] {
  const n = sorted.length;
  const lengths = sorted.map(length);
  // best[j]: least cost of the first j items; from[j]: where the last batch of that best starts.
  const best = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let j = 1; j <= n; j++) {
    const longest = lengths[j - 1];
    for (let i = j - 1; i >= 0 && j - i <= maxItems; i--) {
      const rows = j - i;
      if (rows > 1 && rows * longest > maxTokens) break;
      const cost = best[i] + rows * longest + runOverhead;
      if (cost < best[j]) {
        best[j] = cost;
        from[j] = i;
      }
    }
  }
  const batches: number[][] = [];
  for (let j = n; j > 0; j = from[j]) batches.push(sorted.slice(from[j], j));
  return batches.reverse();
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new EmbeddingConfigError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}
