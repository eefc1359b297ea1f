import { withRequestId } from '@scopegraph/observability';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { EventInbox, JobName, QueueName, QueueService, RerankBatchJobData } from '@scopegraph/queue';
import { BatchScorer } from './batch-scorer';
import { Clock, RERANK_CLOCK, SYSTEM_CLOCK } from './clock';
import { batchCacheKey, contentFingerprint } from './cache/cache-key';
import { RerankCache, RerankCacheStats } from './cache/rerank-cache';
import { validateCandidates, normalizeOptions, validateQuestion } from './options';
import { PromptScope } from './prompt/prompt';
import { LocalKeywordProvider } from './providers/local-keyword.provider';
import { RERANK_PROVIDER, RerankProvider } from './providers/rerank-provider';
import { RerankEventsService } from './rerank-events.service';
import { RerankNotFoundError } from './rerank.errors';
import { RerankRepository } from './rerank.repository';
import {
  BatchOutcome,
  RerankCandidate,
  RerankOptions,
  RerankProgressEvent,
  RerankResult,
  RerankStrategy,
  StartRerankRequest,
  StartRerankResponse,
} from './rerank.types';
import { initialDispatch, initialState } from './scheduler/completion-model';
import { RerankStore } from './scheduler/rerank-store';
import { assembleResult, RerankMeta, StoredCandidate } from './scoring/assemble';
import { normalizeRetrievalScores } from './scoring/merge';

export interface RerankBatchJobResult {
  /** accepted: counted now; duplicate: already counted (a retried job); late/expired: the rerank had completed. */
  outcome: 'accepted' | 'duplicate' | 'late' | 'expired' | 'unknown';
  done?: number;
  total?: number;
}

/** A rerank id: `rr` and 16 hex digits. Anything else cannot be ours, so it is not looked up. */
const RERANK_ID_RE = /^rr[0-9a-f]{16}$/;
const RERANK_ID_BYTES = 8;
/** Without a worker to notice, a subscriber completes an expired rerank this long after its deadline. */
const DEADLINE_GRACE_MS = 1_000;
const MAX_RETRY_DELAY_MS = 10_000;
/** Reranks whose last published progress this process remembers (oldest forgotten first). */
const PUBLISHED_MEMORY = 1_000;

/**
 * LLM reranking, asynchronous: `start` validates, answers from the cache what it can, writes the
 * rerank's state to Redis and enqueues the first `parallel` batches; it returns a job id at once
 * (never waiting on a model). Workers run `runBatch` per BullMQ job: score the batch (BatchScorer:
 * retries, timeouts, fallbacks), record it atomically (RerankStore), enqueue the batch it freed a
 * slot for, publish the merged ranking so far, and the final result after the last batch or at the
 * deadline. `watch` and `result` serve any API replica from Redis.
 */
@Injectable()
export class RerankService {
  private readonly logger = new Logger(RerankService.name);
  private readonly scorer: BatchScorer;
  /** Batches done in the last snapshot this process published, per rerank (see publishProgress). */
  private readonly published = new Map<string, number>();

  constructor(
    private readonly store: RerankStore,
    private readonly cache: RerankCache,
    private readonly events: RerankEventsService,
    private readonly queues: QueueService,
    @Inject(RERANK_PROVIDER) private readonly provider: RerankProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(RERANK_CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
    @Optional() private readonly runs?: RerankRepository,
  ) {
    this.scorer = new BatchScorer(
      provider,
      {
        maxAttempts: config.rerank.maxAttempts,
        baseDelayMs: config.rerank.retryBaseMs,
        maxDelayMs: Math.max(config.rerank.retryBaseMs, MAX_RETRY_DELAY_MS),
      },
      () => this.clock.now(),
    );
  }

  get reranker(): { name: string; model: string; kind: RerankProvider['kind'] } {
    return { name: this.provider.name, model: this.provider.model, kind: this.provider.kind };
  }

  /** Options with defaults filled, as `start` would apply them (throws DomainError naming the field). */
  options(input: StartRerankRequest['options'], prefix = 'options'): RerankOptions {
    return normalizeOptions(input, { timeoutMs: this.config.rerank.timeoutMs, batchTimeoutMs: this.config.rerank.batchTimeoutMs }, prefix);
  }

  async start(request: StartRerankRequest): Promise<StartRerankResponse> {
    validateQuestion(request.question, request.queryDescription);
    validateCandidates(request.candidates);
    const options = this.options(request.options);
    const id = `rr${randomBytes(RERANK_ID_BYTES).toString('hex')}`;
    const now = this.clock.now();
    const candidates = storedCandidates(request.candidates);
    const n = candidates.length;
    const skipReason =
      n === 0
        ? 'no candidates'
        : options.limit !== null && n <= options.limit
          ? `${n} candidates <= limit ${options.limit}: reranking cannot change which results are returned`
          : null;
    const strategy: RerankStrategy = this.provider.strategies.includes(options.strategy) ? options.strategy : this.provider.strategies[0];
    const notes: string[] = [];
    if (!skipReason && strategy !== options.strategy) notes.push(`${this.provider.name} only scores candidates one by one: strategy ${options.strategy} applied as ${strategy}`);
    if (!skipReason && options.withSuggestions && !this.provider.feedback) notes.push(`${this.provider.name} gives no query feedback`);
    const reranked = skipReason ? 0 : Math.min(options.candidateCount ?? n, n);
    const batches: PromptScope[][] = [];
    for (let i = 0; i < reranked; i += options.batchSize) batches.push(request.candidates.slice(i, i + options.batchSize).map((c) => this.promptScope(c)));
    const meta: RerankMeta = {
      id,
      question: request.question,
      queryDescription: request.queryDescription ?? null,
      options,
      reranker: skipReason ? 'skipped' : this.provider.name,
      model: skipReason ? null : this.provider.model,
      strategy,
      total: batches.length,
      reranked,
      skipReason,
      cache: { hits: 0, misses: 0 },
      notes,
      createdAt: now,
      deadlineAt: now + options.timeoutMs,
      batchKeys: [],
    };

    const prefilled = new Map<number, BatchOutcome>();
    if (!skipReason && this.provider instanceof LocalKeywordProvider) {
      // No model, no queue: the keyword scores of all candidates at once (IDF over the whole list).
      const scores = this.provider.score(request.question, batches.flat(), this.config.rerank.sourceChars);
      batches.forEach((scopes, batch) => prefilled.set(batch, localOutcome(batch, scopes, scores, this.provider)));
    } else if (!skipReason) {
      meta.batchKeys = batches.map((scopes, batch) =>
        batchCacheKey({
          reranker: this.provider.name,
          model: this.provider.model,
          strategy,
          question: request.question,
          queryDescription: meta.queryDescription,
          withSuggestions: options.withSuggestions && this.provider.feedback && batch === 0,
          shuffleSeed: options.shuffleSeed,
          sourceChars: this.config.rerank.sourceChars,
          scopes: scopes.map((s, i) => ({ id: s.id, contentHash: request.candidates[batch * options.batchSize + i].contentHash, fallbackHash: contentFingerprint(s) })),
        }),
      );
      const cached = await this.cache.getMany(meta.batchKeys);
      cached.forEach((outcome, batch) => outcome && prefilled.set(batch, { ...outcome, batch, cached: true, calls: 0, durationMs: 0 }));
      meta.cache = { hits: prefilled.size, misses: batches.length - prefilled.size };
    }

    const order = batches.map((_, b) => b).filter((b) => !prefilled.has(b));
    const inputs = new Map(order.map((b) => [b, batches[b]]));
    // Complete from the start (skipped, local, fully cached): the result is known here and stored with
    // the state. Nobody can be subscribed to an id not yet returned, so there is no event to publish.
    const result = order.length === 0 ? assembleResult(meta, candidates, prefilled, { status: 'completed', completedAt: now, finalReason: 'done' }) : undefined;
    await this.store.create({ meta, candidates, inputs, prefilled, order, parallel: options.parallel, mode: options.scheduling, result });
    if (result) {
      await this.recordRun(result);
      this.logger.debug(`rerank ${id} completed at once: ${skipReason ?? `${meta.cache.hits} cached batches, ${meta.reranker}`}`);
      return { jobId: id, status: 'completed', total: batches.length, ...(skipReason ? { skipped: true as const } : {}), result };
    }
    const state = initialState({ total: batches.length, preDone: prefilled.size, order, parallel: options.parallel, mode: options.scheduling, deadlineAt: meta.deadlineAt });
    await this.enqueue(id, initialDispatch(state));
    return { jobId: id, status: 'running', total: batches.length };
  }

  /** Runs one batch job (worker side). Safe to run twice: a batch is scored and counted once. */
  async runBatch(data: RerankBatchJobData): Promise<RerankBatchJobResult> {
    const { rerankId: id, batch, position } = data;
    const fixed = await this.store.loadMeta(id);
    const context = fixed ? await this.store.batchContext(id, batch) : null;
    if (!fixed || !context?.status) return { outcome: 'unknown' };
    if (context.status !== 'running') {
      await this.ensureFinal(id);
      return { outcome: 'late' };
    }
    const { meta } = fixed;
    let outcome: BatchOutcome | undefined;
    if (!context.recorded) {
      if (this.clock.now() >= meta.deadlineAt) {
        await this.expireIfDue(id);
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
    const verdict = await this.store.complete(id, batch, position, outcome ?? placeholderOutcome(batch, meta), this.clock.now());
    if (verdict.outcome === 'unknown') return { outcome: 'unknown' };
    // The next batch first (its slot is free now), then the cache and the events.
    await this.enqueue(id, verdict.successors);
    const cached = outcome?.ok && meta.batchKeys[batch] ? this.cache.put(meta.batchKeys[batch], outcome) : undefined;
    await this.publishProgress(id);
    await cached;
    return { outcome: verdict.outcome, done: verdict.done, total: verdict.total };
  }

  /** The final result when the rerank completed, else the ranking so far (status running). */
  async result(jobId: string): Promise<RerankResult> {
    if (!RERANK_ID_RE.test(jobId)) throw new RerankNotFoundError(jobId);
    const stored = await this.store.getResult(jobId);
    if (stored) return stored;
    await this.expireIfDue(jobId);
    const snapshot = await this.store.snapshot(jobId);
    if (!snapshot) throw new RerankNotFoundError(jobId);
    if (snapshot.state.status === 'completed') return (await this.ensureFinal(jobId)) ?? assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
    return assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
  }

  async exists(jobId: string): Promise<boolean> {
    return RERANK_ID_RE.test(jobId) && (await this.store.status(jobId)) !== null;
  }

  /**
   * Progress of one rerank from any replica: listens on its channel first, then reads its state, so no
   * event can fall between the two. A late subscriber gets the ranking so far at once; events are then
   * relayed in order (older snapshots dropped), ending with the final one. When the deadline passes
   * with no worker left to notice, the subscriber completes the rerank itself (atomically, once).
   */
  async *watch(jobId: string): AsyncGenerator<RerankProgressEvent> {
    if (!RERANK_ID_RE.test(jobId)) throw new RerankNotFoundError(jobId);
    const inbox = new EventInbox<RerankProgressEvent>();
    const unlisten = await this.events.listen(this.store.channel(jobId), inbox.push);
    let timer: NodeJS.Timeout | undefined;
    try {
      const final = await this.store.getResult(jobId);
      if (final) {
        yield finalEvent(final);
        return;
      }
      const snapshot = await this.store.snapshot(jobId);
      if (!snapshot) throw new RerankNotFoundError(jobId);
      let lastDone = 0;
      if (snapshot.state.status === 'completed') {
        const result = await this.ensureFinal(jobId);
        if (result) {
          yield finalEvent(result);
          return;
        }
      } else if (snapshot.outcomes.size > 0) {
        const so = assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
        lastDone = so.done;
        yield progressEvent(so);
      }
      const wait = Math.max(0, snapshot.state.deadlineAt - this.clock.now()) + DEADLINE_GRACE_MS;
      // At the deadline the rerank is completed by whoever gets there first; if its state is gone
      // (Redis lost it) or unreachable, the subscriber gets an error and completion, not silence.
      timer = setTimeout(
        () =>
          void this.expireIfDue(jobId).then(
            (found) => found || inbox.fail(new RerankNotFoundError(jobId, true)),
            (e: Error) => {
              this.logger.warn(`expiring ${jobId}: ${e.message}`);
              inbox.fail(e);
            },
          ),
        wait,
      );
      for await (const event of inbox) {
        if (event.kind === 'completed') {
          yield event;
          return;
        }
        if (event.done <= lastDone) continue;
        lastDone = event.done;
        yield event;
      }
    } finally {
      if (timer) clearTimeout(timer);
      await unlisten();
    }
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

  cacheStats(): Promise<RerankCacheStats> {
    return this.cache.stats();
  }

  /**
   * Keeps the decisions of a finished rerank in the graph. Best effort: the result is already stored
   * and published, so a Neo4j failure here is logged and never fails the rerank itself.
   */
  private async recordRun(result: RerankResult): Promise<void> {
    if (!this.runs || this.config.rerank.keepRuns === 0 || result.skipped) return;
    try {
      await this.runs.recordRun(result, this.config.rerank.keepRuns);
    } catch (error) {
      this.logger.warn(`rerank ${result.jobId}: its decisions were not recorded in the graph (${(error as Error).message})`);
    }
  }

  /**
   * The final result, built and stored once (SET NX) and published by whoever stored it. `computed`:
   * the caller already assembled it from a snapshot taken after completion (the same thing).
   */
  private async ensureFinal(jobId: string, computed?: RerankResult): Promise<RerankResult | null> {
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
  private async publishProgress(jobId: string): Promise<void> {
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

  /** Stable job ids: enqueueing a batch twice (a retried completion) adds nothing. */
  private async enqueue(rerankId: string, dispatch: Array<[number, number]>): Promise<void> {
    if (dispatch.length === 0) return;
    await this.queues.queue(QueueName.RERANK).addBulk(
      dispatch.map(([position, batch]) => ({
        name: JobName.RERANK_BATCH,
        data: withRequestId({ rerankId, batch, position } satisfies RerankBatchJobData),
        opts: { jobId: `${rerankId}-${batch}` },
      })),
    );
  }

  private promptScope(c: RerankCandidate): PromptScope {
    return {
      id: c.id,
      name: c.name,
      qualifiedName: c.qualifiedName,
      kind: c.kind,
      path: c.path,
      signature: c.signature,
      docComment: c.docComment ?? null,
      // One character more than shown, so the prompt can tell the model the source was cut.
      source: c.source === null ? null : c.source.slice(0, this.config.rerank.sourceChars + 1),
    };
  }
}

function storedCandidates(candidates: RerankCandidate[]): StoredCandidate[] {
  const normalized = normalizeRetrievalScores(candidates.map((c) => c.retrievalScore));
  return candidates.map((c, i) => ({
    id: c.id,
    name: c.name,
    qualifiedName: c.qualifiedName,
    kind: c.kind,
    language: c.language,
    path: c.path,
    signature: c.signature,
    retrievalScore: c.retrievalScore,
    retrievalNormalized: normalized[i],
    retrievalRank: Number.isInteger(c.retrievalRank) && c.retrievalRank > 0 ? c.retrievalRank : i + 1,
  }));
}

function localOutcome(batch: number, scopes: PromptScope[], scores: BatchOutcome['scores'], provider: RerankProvider): BatchOutcome {
  return {
    batch,
    ok: true,
    reranker: provider.name,
    model: provider.model,
    strategy: 'pointwise',
    fallbackReason: null,
    detail: null,
    scores: Object.fromEntries(scopes.map((s) => [s.id, scores[s.id]])),
    feedback: null,
    ignored: { duplicates: 0, invented: 0 },
    calls: 0,
    durationMs: 0,
    cached: false,
  };
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

function progressEvent(result: RerankResult): RerankProgressEvent {
  return { jobId: result.jobId, kind: 'progress', status: result.status, done: result.done, total: result.total, hits: result.hits, feedback: result.feedback, result: null };
}

function finalEvent(result: RerankResult): RerankProgressEvent {
  return { jobId: result.jobId, kind: 'completed', status: 'completed', done: result.done, total: result.total, hits: result.hits, feedback: result.feedback, result };
}
