import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { RerankBatchJobData } from '@scopegraph/queue';
import { BatchScorer } from './batch-scorer';
import { RerankCache } from './cache/rerank-cache';
import { RERANK_PROVIDER, RerankProvider } from './providers/rerank-provider';
import { RerankLifecycle } from './rerank-lifecycle';
import { BatchOutcome } from './rerank.types';
import { RerankStore } from './scheduler/rerank-store';
import { RerankMeta } from './scoring/assemble';

const MAX_RETRY_DELAY_MS = 10_000;

export interface RerankBatchJobResult {
  /** accepted: counted now; duplicate: already counted (a retried job); late/expired: the rerank had completed. */
  outcome: 'accepted' | 'duplicate' | 'late' | 'expired' | 'unknown';
  done?: number;
  total?: number;
}

/**
 * The worker side of a rerank, one BullMQ job per batch: score the batch (BatchScorer: retries,
 * timeouts, fallbacks), record it atomically (RerankStore), enqueue the batch it freed a slot for,
 * cache the outcome and publish the merged ranking so far (and the final result after the last batch).
 */
@Injectable()
export class RerankBatchRunner {
  private readonly scorer: BatchScorer;

  constructor(
    private readonly store: RerankStore,
    private readonly cache: RerankCache,
    private readonly lifecycle: RerankLifecycle,
    @Inject(RERANK_PROVIDER) provider: RerankProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.scorer = new BatchScorer(
      provider,
      {
        maxAttempts: config.rerank.maxAttempts,
        baseDelayMs: config.rerank.retryBaseMs,
        maxDelayMs: Math.max(config.rerank.retryBaseMs, MAX_RETRY_DELAY_MS),
      },
      () => this.lifecycle.clock.now(),
    );
  }

  /** Runs one batch job. Safe to run twice: a batch is scored and counted once. */
  async runBatch(data: RerankBatchJobData): Promise<RerankBatchJobResult> {
    const { rerankId: id, batch, position } = data;
    const fixed = await this.store.loadMeta(id);
    const context = fixed ? await this.store.batchContext(id, batch) : null;
    if (!fixed || !context?.status) return { outcome: 'unknown' };
    if (context.status !== 'running') {
      await this.lifecycle.ensureFinal(id);
      return { outcome: 'late' };
    }
    const { meta } = fixed;
    let outcome: BatchOutcome | undefined;
    if (!context.recorded) {
      if (this.lifecycle.clock.now() >= meta.deadlineAt) {
        await this.lifecycle.expireIfDue(id);
        return { outcome: 'expired' };
      }
      if (!context.scopes) return { outcome: 'late' };
      outcome = await this.scorer.score({
        request: {
          question: meta.question,
          queryDescription: meta.queryDescription,
          strategy: meta.strategy,
          withSuggestions: meta.options.withSuggestions && batch === 0,
          scopes: context.scopes,
          sourceChars: this.config.rerank.sourceChars,
          shuffleSeed: meta.options.shuffleSeed,
          batch,
        },
        batchTimeoutMs: meta.options.batchTimeoutMs,
        deadlineAt: meta.deadlineAt,
      });
    }
    // A retried job whose batch is already recorded still goes through complete(): it hands back the
    // successors claimed the first time, so a crash between recording and enqueueing loses nothing.
    const verdict = await this.store.complete(id, batch, position, outcome ?? placeholderOutcome(batch, meta), this.lifecycle.clock.now());
    if (verdict.outcome === 'unknown') return { outcome: 'unknown' };
    // The next batch first (its slot is free now), then the cache and the events.
    await this.lifecycle.enqueue(id, verdict.successors);
    const cached = outcome?.ok && meta.batchKeys[batch] ? this.cache.put(meta.batchKeys[batch], outcome) : undefined;
    await this.lifecycle.publishProgress(id);
    await cached;
    return { outcome: verdict.outcome, done: verdict.done, total: verdict.total };
  }
}

/** Passed to complete() for a batch already recorded: the script ignores it (it keeps the first). */
function placeholderOutcome(batch: number, meta: RerankMeta): BatchOutcome {
  return {
    batch,
    ok: false,
    reranker: meta.reranker === 'skipped' ? 'local-keyword' : meta.reranker,
    model: meta.model ?? '',
    strategy: meta.strategy,
    fallbackReason: 'already-recorded',
    detail: null,
    scores: {},
    feedback: null,
    ignored: { duplicates: 0, invented: 0 },
    calls: 0,
    durationMs: 0,
    cached: false,
  };
}
