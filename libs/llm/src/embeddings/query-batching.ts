import type { EmbeddingProvider } from './embedding-provider';

export interface QueryBatchingOptions {
  /** Queries embedded by one model call at most. */
  maxBatch: number;
  /** Query vectors remembered (least recently used dropped first); 0 turns the cache off. */
  cacheSize: number;
  /** Whether waiting queries share one embedDocuments call (only where a query and a document embed alike). */
  batch: boolean;
}

interface Waiting {
  text: string;
  resolve: (vector: number[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Query embeddings for many concurrent searches: a cache of recent query vectors, one in-flight call
 * per distinct text, and, while a model call runs, every query that arrives waits for the next call,
 * which embeds all of them at once (a CPU model embeds 32 texts in far less than 32 times one). Own
 * code rather than DataLoader: that batches per tick only and would still need this scheduler and
 * cache around it. The instance keeps its class (its method is replaced in place).
 */
export function withQueryBatching<P extends EmbeddingProvider>(provider: P, options: QueryBatchingOptions): P {
  const embedQuery = provider.embedQuery.bind(provider);
  const embedDocuments = provider.embedDocuments.bind(provider);
  const cache = new Map<string, number[]>();
  const inFlight = new Map<string, Promise<number[]>>();
  let waiting: Waiting[] = [];
  let running = false;

  const remember = (text: string, vector: number[]) => {
    if (options.cacheSize <= 0) return;
    cache.delete(text);
    cache.set(text, vector);
    if (cache.size > options.cacheSize) cache.delete(cache.keys().next().value as string);
  };

  const drain = async () => {
    running = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, options.maxBatch);
        waiting = waiting.slice(batch.length);
        try {
          const vectors = batch.length === 1 ? [await embedQuery(batch[0].text)] : await embedDocuments(batch.map((w) => w.text));
          batch.forEach((w, i) => w.resolve(vectors[i]));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      running = false;
    }
  };

  const compute = (text: string): Promise<number[]> => {
    if (!options.batch) return embedQuery(text);
    const promise = new Promise<number[]>((resolve, reject) => waiting.push({ text, resolve, reject }));
    if (!running) void drain();
    return promise;
  };

  provider.embedQuery = (text: string): Promise<number[]> => {
    const cached = cache.get(text);
    if (cached) {
      remember(text, cached);
      return Promise.resolve([...cached]);
    }
    let pending = inFlight.get(text);
    if (!pending) {
      pending = compute(text).then((vector) => {
        remember(text, vector);
        return vector;
      });
      const settled = pending.finally(() => inFlight.delete(text));
      settled.catch(() => undefined);
      inFlight.set(text, pending);
    }
    // Copies, so a caller that changes its vector cannot change another's.
    return pending.then((vector) => [...vector]);
  };
  return provider;
}
