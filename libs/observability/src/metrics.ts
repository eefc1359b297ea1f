import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every scopegraph series, in one registry per process. Workers publish theirs to Redis and the API
 * serves the sum of all processes at /metrics (metrics-share.ts), so one scrape sees the deployment.
 */
export const metricsRegistry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800];

export const graphqlDuration = new Histogram({
  name: 'scopegraph_graphql_request_duration_seconds',
  help: 'GraphQL operations from parse to response, by operation name and type',
  labelNames: ['operation', 'type', 'outcome'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const rateLimited = new Counter({
  name: 'scopegraph_rate_limited_total',
  help: 'Requests refused with 429 at the rate limit, by where (graphql | http: the guard; gate: refused before the body was read)',
  labelNames: ['transport'] as const,
  registers: [metricsRegistry],
});

export const searchStageDuration = new Histogram({
  name: 'scopegraph_search_stage_duration_seconds',
  help: 'Time per search stage (filters, embed, semantic, bm25, fuse, graph, fetch, expand, total), by mode',
  labelNames: ['mode', 'stage'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const modelCalls = new Counter({
  name: 'scopegraph_llm_calls_total',
  help: 'Calls to model providers (chat, embeddings, rerank APIs), by provider, kind and outcome (ok | error)',
  labelNames: ['provider', 'kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const modelTokens = new Counter({
  name: 'scopegraph_llm_tokens_total',
  help: 'Tokens reported by model providers, by provider and direction (input | output)',
  labelNames: ['provider', 'direction'] as const,
  registers: [metricsRegistry],
});

export const modelDuration = new Histogram({
  name: 'scopegraph_llm_call_duration_seconds',
  help: 'Latency of model provider calls, by provider and kind',
  labelNames: ['provider', 'kind'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'scopegraph_queue_job_duration_seconds',
  help: 'BullMQ job run time in the worker, by queue, job name and outcome',
  labelNames: ['queue', 'job', 'outcome'] as const,
  buckets: JOB_SECONDS,
  registers: [metricsRegistry],
});

export const embedVectors = new Counter({
  name: 'scopegraph_embed_vectors_total',
  help: 'Scope vectors written by index runs, by source: model (computed), graph (copied from a scope with the same model, dimensions and text), cache (Redis), duplicate (an identical text of the same round)',
  labelNames: ['source'] as const,
  registers: [metricsRegistry],
});

// Read at scrape time from Redis / Neo4j by the API (never summed from several processes: only the
// API sets them).
export const queueJobs = new Gauge({
  name: 'scopegraph_queue_jobs',
  help: 'Jobs per queue and state (waiting, active, delayed, failed, completed)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
});

export const indexSize = new Gauge({
  name: 'scopegraph_index_size',
  help: 'Indexed items per repository (files, scopes, edges, embedded)',
  labelNames: ['repository', 'item'] as const,
  registers: [metricsRegistry],
});

export const rerankCacheLookups = new Gauge({
  name: 'scopegraph_rerank_cache_lookups',
  help: 'Rerank cache lookups by result (hit | miss) since the counters began (shared by all replicas)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

export const rerankCacheHitRatio = new Gauge({
  name: 'scopegraph_rerank_cache_hit_ratio',
  help: 'Rerank cache hits / lookups (0 before any lookup)',
  registers: [metricsRegistry],
});

export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** Times one model call and counts it (and its tokens, when the provider reports them). */
export async function observeModelCall<T>(provider: string, kind: 'chat' | 'embed' | 'rerank', call: () => Promise<T>, usageOf?: (result: T) => ModelUsage | undefined): Promise<T> {
  const end = modelDuration.startTimer({ provider, kind });
  try {
    const result = await call();
    modelCalls.inc({ provider, kind, outcome: 'ok' });
    const usage = usageOf?.(result);
    if (usage?.inputTokens) modelTokens.inc({ provider, direction: 'input' }, usage.inputTokens);
    if (usage?.outputTokens) modelTokens.inc({ provider, direction: 'output' }, usage.outputTokens);
    return result;
  } catch (error) {
    modelCalls.inc({ provider, kind, outcome: 'error' });
    throw error;
  } finally {
    end();
  }
}
