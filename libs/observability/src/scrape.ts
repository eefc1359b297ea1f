import { Gauge } from 'prom-client';
import { indexSize, metricsRegistry, queueJobs, rerankCacheHitRatio, rerankCacheLookups } from './metrics';

export const metricsSourceUp = new Gauge({
  name: 'scopegraph_metrics_source_up',
  help: 'Whether the last scrape could read a source (queues, index, rerank_cache): 1 yes, 0 no (see the API log)',
  labelNames: ['source'] as const,
  registers: [metricsRegistry],
});

/** What a scrape reads from the live system; each part may fail on its own. */
export interface ScrapeSources {
  queues: () => Promise<Array<{ name: string } & Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed', number>>>;
  repositories: () => Promise<Array<{ name: string; files?: number | null; scopes?: number | null; edges?: number | null; embedded?: number | null }>>;
  rerankCache: () => Promise<{ hits: number; misses: number }>;
}

const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;
const INDEX_ITEMS = ['files', 'scopes', 'edges', 'embedded'] as const;

/**
 * Sets the gauges that describe state rather than events. A source that fails is reported as down
 * (and its gauges left out) instead of failing the whole scrape.
 */
export async function refreshStateGauges(sources: ScrapeSources, onError: (source: string, error: Error) => void): Promise<void> {
  const read = async (source: string, fn: () => Promise<void>) => {
    try {
      await fn();
      metricsSourceUp.set({ source }, 1);
    } catch (error) {
      metricsSourceUp.set({ source }, 0);
      onError(source, error as Error);
    }
  };
  await Promise.all([
    read('queues', async () => {
      const counts = await sources.queues();
      queueJobs.reset();
      for (const q of counts) for (const state of JOB_STATES) queueJobs.set({ queue: q.name, state }, q[state]);
    }),
    read('index', async () => {
      const repos = await sources.repositories();
      indexSize.reset();
      for (const r of repos) for (const item of INDEX_ITEMS) indexSize.set({ repository: r.name, item }, r[item] ?? 0);
    }),
    read('rerank_cache', async () => {
      const { hits, misses } = await sources.rerankCache();
      rerankCacheLookups.set({ result: 'hit' }, hits);
      rerankCacheLookups.set({ result: 'miss' }, misses);
      rerankCacheHitRatio.set(hits + misses > 0 ? hits / (hits + misses) : 0);
    }),
  ]);
}
