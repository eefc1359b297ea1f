import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from '@scopegraph/llm';
import { EMBED_PROGRESS, EmbedChunkJobData, JobName, QueueName, QueueService } from '@scopegraph/queue';
import { IngestRepository } from '../graph/ingest.repository';
import { EmbedPhase, EmbedPhaseHooks, EmbedPhaseStats, emptyEmbedStats } from './embed-phase';
import { EmbeddingCache } from './embedding-cache';

/** How often the index job reads its slices' progress (and forwards it as its own). */
const POLL_MS = 250;
/** Every this many polls, slices that have not reported their end are looked up in BullMQ (failed for good, or gone). */
const STATE_CHECK_POLLS = 20;
/** Slices added to the queue per round trip while the plan is still being read. */
const DISPATCH_BATCH = 32;
/** Progress hashes outlive a run that never cleans up (its worker died for good). */
const PROGRESS_TTL_S = 24 * 3600;
/**
 * A run is cut into at least this many slices (down to MIN_SLICE scopes each): however many workers
 * take them, the last wave is short, so N workers come close to N times one.
 */
const MIN_SLICES = 64;
const MIN_SLICE = 64;

/** Scopes per slice: INGEST_EMBED_SLICE at most, smaller for a small repository (see MIN_SLICES). */
export function sliceSize(totalScopes: number, configured: number): number {
  return Math.max(Math.min(MIN_SLICE, configured), Math.min(configured, Math.ceil(totalScopes / MIN_SLICES)));
}

/** Finished slices kept in BullMQ: enough for a million-scope plan, so a retried index job finds them done. */
const KEEP_FINISHED = { removeOnComplete: { age: 24 * 3600, count: 20_000 }, removeOnFail: { age: 7 * 24 * 3600, count: 20_000 } };

/** What a slice records when it ends (JSON in the run's progress hash). */
interface SliceEnd {
  embedded: number;
  computed?: number;
  graphReused?: number;
  cacheHits: number;
  duplicates: number;
  error?: string;
}

export interface EmbedSliceResult extends SliceEnd {
  /** Scopes of the slice that already had their vector when it started (an earlier attempt wrote them). */
  alreadyEmbedded: number;
}

/** A slice was sent to a worker whose model is not the one the run plans for: its vectors would not compare. */
export class EmbedModelMismatchError extends Error {
  constructor(planned: string, here: string) {
    super(`this worker embeds with ${here}, the index run planned ${planned}: every worker of a deployment needs the same EMBEDDING_PROVIDER and EMBEDDING_MODEL`);
    this.name = 'EmbedModelMismatchError';
  }
}

/**
 * An index run's embedding, fanned out: the repository's scopes are cut by id into slices of
 * INGEST_EMBED_SLICE scopes, each slice with scopes still lacking a vector becomes a BullMQ job that
 * any worker takes (each with its own model or endpoint), and the index job follows them through one
 * Redis hash, reporting their sum as its own progress. Slices are cut from all of the repository's
 * scopes, embedded or not, and named after the index job and their range: a retried index job
 * dispatches the same jobs again, which BullMQ adds once. A slice embeds only what still lacks a
 * vector when it runs, so a retried slice (its worker died) skips what was written before.
 * The index job keeps its repository lock meanwhile: the graph does not change under the slices.
 */
@Injectable()
export class EmbedFanOut {
  private readonly logger = new Logger(EmbedFanOut.name);

  constructor(
    private readonly repo: IngestRepository,
    private readonly queues: QueueService,
    private readonly cache: EmbeddingCache,
    @Inject(EMBEDDING_PROVIDER) private readonly embedder: EmbeddingProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether index runs fan their embedding out (INGEST_EMBED_SLICE > 0). */
  get enabled(): boolean {
    return this.config.ingest.embedSlice > 0;
  }

  /** The index job's side: plan, dispatch, follow to the end. */
  async run(repoId: string, indexJobId: string, hooks: EmbedPhaseHooks): Promise<EmbedPhaseStats> {
    const model = this.embedder.model;
    const stats = emptyEmbedStats();
    const { pending, otherModel, total } = await this.repo.countScopesToEmbed(repoId, model);
    stats.modelSwitched = otherModel;
    if (otherModel > 0) this.logger.warn(`${repoId}: ${otherModel} scopes hold vectors of another model; re-embedding them with ${model}`);
    await hooks.onTotal(pending);
    if (pending === 0) return stats;

    const key = EMBED_PROGRESS.key(this.queues.prefix, indexJobId);
    const dispatched = new Map<string, number>();
    // Sized by all of the repository's scopes, not the pending ones: a retried run cuts the same slices.
    const planned = this.plan(repoId, indexJobId, model, sliceSize(total, this.config.ingest.embedSlice), dispatched);
    planned.catch(() => undefined);
    let planDone = false;
    void planned.then(() => (planDone = true), () => (planDone = true));
    const failed = new Map<string, string>();
    const started = performance.now();
    for (let poll = 1; ; poll++) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (planDone) await planned; // a plan that failed fails the run
      const fields = await this.queues.redis.hgetall(key);
      let done = 0;
      let reused = 0;
      const ends: SliceEnd[] = [];
      for (const id of dispatched.keys()) {
        done += Number(fields[`d:${id}`] ?? 0);
        reused += Number(fields[`r:${id}`] ?? 0);
        const end = fields[`end:${id}`];
        if (end) ends.push(JSON.parse(end) as SliceEnd);
      }
      stats.embedded = done;
      await hooks.onEmbedded(done, reused);
      if (planDone && ends.length + failed.size >= dispatched.size) {
        for (const e of ends) {
          stats.computed += e.computed ?? 0;
          stats.graphReused += e.graphReused ?? 0;
          stats.cacheHits += e.cacheHits;
          stats.duplicates += e.duplicates;
          stats.error ??= e.error;
        }
        const [firstFailure] = failed.values();
        stats.error ??= firstFailure;
        break;
      }
      if (poll % STATE_CHECK_POLLS === 0) {
        // A slice that failed for good (retries spent, or stalled too often) never writes its end.
        const open = [...dispatched.keys()].filter((id) => !fields[`end:${id}`] && !failed.has(id));
        const queue = this.queues.queue(QueueName.EMBED);
        await Promise.all(
          open.map(async (id) => {
            const job = await queue.getJob(id);
            if (!job) failed.set(id, `embedding slice ${id} is gone from the queue`);
            else if ((await job.getState()) === 'failed') failed.set(id, `embedding slice ${id} failed: ${job.failedReason}`);
          }),
        );
      }
    }
    stats.profileMs.model = performance.now() - started;
    await this.queues.redis.del(key).catch((e: Error) => this.logger.warn(`progress of ${indexJobId} not removed: ${e.message}`));
    return stats;
  }

  /** Reads the slices in id order and adds those with scopes to embed, a batch at a time, while workers already take the first. */
  private async plan(repoId: string, indexJobId: string, model: string, size: number, dispatched: Map<string, number>): Promise<void> {
    let after = '';
    let batch: { name: JobName; data: EmbedChunkJobData; opts: { jobId: string } & typeof KEEP_FINISHED }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await this.queues.queue(QueueName.EMBED).addBulk(batch);
      for (const j of batch) dispatched.set(j.opts.jobId, j.data.pending);
      batch = [];
    };
    for (;;) {
      const slice = await this.repo.embedSlice(repoId, model, after, size);
      if (!slice) break;
      if (slice.pending > 0) {
        const jobId = sliceJobId(indexJobId, model, after, slice.until);
        batch.push({ name: JobName.EMBED_CHUNK, data: { repoId, indexJobId, model, after, until: slice.until, pending: slice.pending }, opts: { jobId, ...KEEP_FINISHED } });
        if (batch.length >= DISPATCH_BATCH) await flush();
      }
      after = slice.until;
    }
    await flush();
  }

  /** A worker's side: one slice through the embedding phase, its progress in the run's hash. */
  async runSlice(jobId: string, data: EmbedChunkJobData): Promise<EmbedSliceResult> {
    if (data.model !== this.embedder.model) throw new EmbedModelMismatchError(data.model, this.embedder.model);
    const key = EMBED_PROGRESS.key(this.queues.prefix, data.indexJobId);
    const range = { after: data.after, until: data.until };
    let already = 0;
    const record = async (done: number, reused = 0) => {
      await this.queues.redis.multi().hset(key, `d:${jobId}`, String(already + done), `r:${jobId}`, String(reused)).expire(key, PROGRESS_TTL_S).exec();
    };
    const stats = await new EmbedPhase(this.repo, this.embedder, this.cache, undefined, { reuse: this.config.embedding.reuse }).run(
      data.repoId,
      {
        onTotal: async (pendingNow) => {
          already = Math.max(0, data.pending - pendingNow);
          await record(0);
        },
        onEmbedded: (done, reused) => record(done, reused),
      },
      range,
    );
    const end: SliceEnd = { embedded: stats.embedded, computed: stats.computed, graphReused: stats.graphReused, cacheHits: stats.cacheHits, duplicates: stats.duplicates, ...(stats.error ? { error: stats.error } : {}) };
    await this.queues.redis.multi().hset(key, `end:${jobId}`, JSON.stringify(end)).expire(key, PROGRESS_TTL_S).exec();
    return { ...end, alreadyEmbedded: already };
  }
}

/** A slice's job id: its index job and range (BullMQ refuses ':' in ids, so the range goes hashed). */
export function sliceJobId(indexJobId: string, model: string, after: string, until: string): string {
  return `${indexJobId}-${createHash('sha256').update(model).update('\u0000').update(after).update('\u0000').update(until).digest('hex').slice(0, 16)}`;
}
