import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { QueueService } from '@scopegraph/queue';
import { BatchOutcome } from '../rerank.types';

export interface RerankCacheStats {
  /** Batches answered from the cache / that needed the reranker, since the counters began. */
  hits: number;
  misses: number;
  /** Reranks answered entirely from the cache (zero model calls). */
  fullHits: number;
  ttlSeconds: number;
}

/**
 * Batch outcomes in Redis, under the rerank's queue prefix, for RERANK_CACHE_TTL_S (0: off). Only
 * successful batches are stored: a timeout or a 429 must not be remembered as the answer. Hit and
 * miss counters live in Redis too, so every replica reports the same numbers.
 */
@Injectable()
export class RerankCache {
  private readonly logger = new Logger(RerankCache.name);
  private readonly ttl: number;

  constructor(
    private readonly queues: QueueService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttl = config.rerank.cacheTtlS;
  }

  get enabled(): boolean {
    return this.ttl > 0;
  }

  private key(hash: string): string {
    return `${this.queues.prefix}:rerank-cache:${hash}`;
  }

  private get statsKey(): string {
    return `${this.queues.prefix}:rerank-cache:stats`;
  }

  /** Outcomes by position of `hashes` (null: miss), and the counters updated in the same round trip. */
  async getMany(hashes: string[]): Promise<Array<BatchOutcome | null>> {
    if (!this.enabled || hashes.length === 0) return hashes.map(() => null);
    const values = await this.queues.redis.mget(hashes.map((h) => this.key(h)));
    const outcomes = values.map((v) => {
      if (!v) return null;
      try {
        return JSON.parse(v) as BatchOutcome;
      } catch {
        return null;
      }
    });
    const hits = outcomes.filter(Boolean).length;
    // Counters are not on the request's path: a failed increment is logged, never waited for.
    const multi = this.queues.redis.multi().hincrby(this.statsKey, 'hits', hits).hincrby(this.statsKey, 'misses', hashes.length - hits);
    if (hits === hashes.length) multi.hincrby(this.statsKey, 'fullHits', 1);
    multi.exec().catch((e: Error) => this.logger.warn(`cache counters: ${e.message}`));
    return outcomes;
  }

  async put(hash: string, outcome: BatchOutcome): Promise<void> {
    if (!this.enabled || !outcome.ok) return;
    const stored: BatchOutcome = { ...outcome, cached: true, calls: 0 };
    await this.queues.redis.set(this.key(hash), JSON.stringify(stored), 'EX', this.ttl).catch((e: Error) => this.logger.warn(`cache write failed: ${e.message}`));
  }

  async stats(): Promise<RerankCacheStats> {
    const s = await this.queues.redis.hgetall(this.statsKey);
    return { hits: Number(s.hits ?? 0), misses: Number(s.misses ?? 0), fullHits: Number(s.fullHits ?? 0), ttlSeconds: this.ttl };
  }
}
