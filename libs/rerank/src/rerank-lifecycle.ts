import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { withRequestId } from '@scopegraph/observability';
import { JOB_ID_KIND, JobName, QueueName, QueueService, RerankBatchJobData } from '@scopegraph/queue';
import { type Clock, SYSTEM_CLOCK } from '@scopegraph/config';
import { RERANK_CLOCK } from './clock';
import { RerankEventsService } from './rerank-events.service';
import { RerankRepository } from './rerank.repository';
import { RerankProgressEvent, RerankResult } from './rerank.types';
import { RerankStore } from './scheduler/rerank-store';
import { assembleResult } from './scoring/assemble';

/** Reranks whose last published progress this process remembers (oldest forgotten first). */
const PUBLISHED_MEMORY = 1_000;

/**
 * What both sides of a rerank do to its shared state in Redis: queue batches, publish the ranking so
 * far, build the final result once, and complete a rerank whose deadline passed. The API side
 * (RerankService) queues the first batches and may complete an abandoned rerank for its subscriber;
 * the worker side (RerankBatchRunner) queues successors and publishes after every batch.
 */
@Injectable()
export class RerankLifecycle {
  private readonly logger = new Logger(RerankLifecycle.name);
  /** Batches done in the last snapshot this process published, per rerank (see publishProgress). */
  private readonly published = new Map<string, number>();

  constructor(
    private readonly store: RerankStore,
    private readonly events: RerankEventsService,
    private readonly queues: QueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(RERANK_CLOCK) readonly clock: Clock = SYSTEM_CLOCK,
    @Optional() private readonly runs?: RerankRepository,
  ) {}

  /** A new rerank id (`rr`, the Redis epoch, random hex: see QueueService.newJobId). */
  newId(): Promise<string> {
    return this.queues.newJobId(JOB_ID_KIND[JobName.RERANK_BATCH]);
  }

  /** Whether the rerank's id was issued before Redis lost its data (its state was lost, not never there). */
  lost(rerankId: string): Promise<boolean> {
    return this.queues.issuedBeforeDataLoss(rerankId);
  }

  /**
   * Stable job ids: enqueueing a batch twice (a retried completion) adds nothing. `forCaller`: the
   * first batches, queued while an API request waits; refused (and then never run) unless Redis takes
   * them in time. The worker's successors are not: a retried batch must be able to queue them again.
   */
  async enqueue(rerankId: string, dispatch: Array<[number, number]>, forCaller = false): Promise<void> {
    if (dispatch.length === 0) return;
    if (forCaller) {
      await this.queues.addForCaller(
        QueueName.RERANK,
        dispatch.map(([position, batch]) => ({ name: JobName.RERANK_BATCH, data: { rerankId, batch, position } satisfies RerankBatchJobData, jobId: `${rerankId}-${batch}` })),
      );
      return;
    }
    await this.queues.queue(QueueName.RERANK).addBulk(
      dispatch.map(([position, batch]) => ({
        name: JobName.RERANK_BATCH,
        data: withRequestId({ rerankId, batch, position } satisfies RerankBatchJobData),
        opts: { jobId: `${rerankId}-${batch}` },
      })),
    );
  }

  /**
   * Completes a rerank whose deadline passed (once, whoever gets there first) and publishes its
   * result. False when the rerank's state no longer exists.
   */
  async expireIfDue(jobId: string): Promise<boolean> {
    const status = await this.store.status(jobId);
    if (!status) return false;
    if (status.status === 'running' && !(await this.store.expire(jobId, this.clock.now()))) return true;
    await this.ensureFinal(jobId);
    return true;
  }

  /**
   * The final result, built and stored once (SET NX) and published by whoever stored it. `computed`:
   * the caller already assembled it from a snapshot taken after completion (the same thing).
   */
  async ensureFinal(jobId: string, computed?: RerankResult): Promise<RerankResult | null> {
    let result = computed;
    if (!result) {
      const existing = await this.store.getResult(jobId);
      if (existing) return existing;
      const snapshot = await this.store.snapshot(jobId);
      if (!snapshot || snapshot.state.status !== 'completed') return null;
      result = assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
    }
    if (await this.store.putResult(result)) {
      await this.events.publish(this.store.channel(jobId), finalEvent(result));
      await this.recordRun(result);
      this.logger.log(
        `rerank ${jobId} ${result.reason}: ${result.done}/${result.total} batches, ${result.fallbacks} fallbacks, ${result.llmCalls} model calls, cache ${result.cache.hits}/${result.cache.hits + result.cache.misses}`,
      );
      return result;
    }
    return (await this.store.getResult(jobId)) ?? result;
  }

  /**
   * The ranking so far to every subscriber; when that snapshot shows the rerank completed, the final
   * result too. Batches often finish in bursts (P of them at once): a snapshot taken after this
   * batch's completion that another batch of this process already published (same or more batches
   * done) is not published again — it holds nothing new, and subscribers would drop it anyway.
   */
  async publishProgress(jobId: string): Promise<void> {
    const snapshot = await this.store.snapshot(jobId);
    if (!snapshot) return;
    const done = snapshot.outcomes.size;
    const completed = snapshot.state.status === 'completed';
    const fresh = done > (this.published.get(jobId) ?? 0);
    if (!fresh && !completed) return;
    const so = assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
    if (fresh) {
      if (this.published.size >= PUBLISHED_MEMORY) this.published.delete(this.published.keys().next().value!);
      this.published.set(jobId, done);
      await this.events.publish(this.store.channel(jobId), progressEvent(so));
    }
    if (completed) {
      this.published.delete(jobId);
      await this.ensureFinal(jobId, so);
    }
  }

  /**
   * Keeps the decisions of a finished rerank in the graph. Best effort: the result is already stored
   * and published, so a Neo4j failure here is logged and never fails the rerank itself.
   */
  async recordRun(result: RerankResult): Promise<void> {
    if (!this.runs || this.config.rerank.keepRuns === 0 || result.skipped) return;
    try {
      await this.runs.recordRun(result, this.config.rerank.keepRuns);
    } catch (error) {
      this.logger.warn(`rerank ${result.jobId}: its decisions were not recorded in the graph (${(error as Error).message})`);
    }
  }
}

export function progressEvent(result: RerankResult): RerankProgressEvent {
  return { jobId: result.jobId, kind: 'progress', status: result.status, done: result.done, total: result.total, hits: result.hits, feedback: result.feedback, result: null };
}

export function finalEvent(result: RerankResult): RerankProgressEvent {
  return { jobId: result.jobId, kind: 'completed', status: 'completed', done: result.done, total: result.total, hits: result.hits, feedback: result.feedback, result };
}
