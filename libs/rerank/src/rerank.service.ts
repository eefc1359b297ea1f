import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { EventInbox, JobLostError, LIVENESS_CHECK, Liveness, LivenessCheck } from '@scopegraph/queue';
import { batchCacheKey, contentFingerprint } from './cache/cache-key';
import { RerankCache, RerankCacheStats } from './cache/rerank-cache';
import { validateCandidates, normalizeOptions, validateQuestion } from './options';
import { PromptScope } from './prompt/prompt';
import { LocalKeywordProvider } from './providers/local-keyword.provider';
import { RERANK_PROVIDER, RerankProvider } from './providers/rerank-provider';
import { RerankEventsService } from './rerank-events.service';
import { finalEvent, progressEvent, RerankLifecycle } from './rerank-lifecycle';
import { RerankNotFoundError } from './rerank.errors';
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

/** A rerank id: `rr` and 16 hex digits. Anything else cannot be ours, so it is not looked up. */
const RERANK_ID_RE = /^rr[0-9a-f]{24}$/;
/** Without a worker to notice, a subscriber completes an expired rerank this long after its deadline. */
const DEADLINE_GRACE_MS = 1_000;

/**
 * LLM reranking, the API side, asynchronous: `start` validates, answers from the cache what it can,
 * writes the rerank's state to Redis and enqueues the first `parallel` batches; it returns a job id at
 * once (never waiting on a model). The worker side is RerankBatchRunner (one job per batch). `watch`
 * and `result` serve any API replica from Redis.
 */
@Injectable()
export class RerankService {
  private readonly logger = new Logger(RerankService.name);

  constructor(
    private readonly store: RerankStore,
    private readonly cache: RerankCache,
    private readonly events: RerankEventsService,
    private readonly lifecycle: RerankLifecycle,
    @Inject(RERANK_PROVIDER) private readonly provider: RerankProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get clock() {
    return this.lifecycle.clock;
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
    const id = await this.lifecycle.newId();
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
      owner: request.owner ?? null,
      ...(request.fileRollup ? { fileRollup: true } : {}),
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
      await this.lifecycle.recordRun(result);
      this.logger.debug(`rerank ${id} completed at once: ${skipReason ?? `${meta.cache.hits} cached batches, ${meta.reranker}`}`);
      return { jobId: id, status: 'completed', total: batches.length, ...(skipReason ? { skipped: true as const } : {}), result };
    }
    const state = initialState({ total: batches.length, preDone: prefilled.size, order, parallel: options.parallel, mode: options.scheduling, deadlineAt: meta.deadlineAt });
    await this.lifecycle.enqueue(id, initialDispatch(state), true);
    return { jobId: id, status: 'running', total: batches.length };
  }

  /** The final result when the rerank completed, else the ranking so far (status running). */
  async result(jobId: string): Promise<RerankResult> {
    if (!RERANK_ID_RE.test(jobId)) throw new RerankNotFoundError(jobId);
    const stored = await this.store.getResult(jobId);
    if (stored) return stored;
    await this.lifecycle.expireIfDue(jobId);
    const snapshot = await this.store.snapshot(jobId);
    if (!snapshot) throw await this.missing(jobId);
    if (snapshot.state.status === 'completed') return (await this.lifecycle.ensureFinal(jobId)) ?? assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
    return assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state);
  }

  /** Who started a rerank (see StartRerankRequest.owner); undefined when its state is gone or it predates owners. */
  async owner(jobId: string): Promise<string | null | undefined> {
    if (!RERANK_ID_RE.test(jobId)) return undefined;
    return (await this.store.loadMeta(jobId))?.meta.owner;
  }

  async exists(jobId: string): Promise<boolean> {
    return RERANK_ID_RE.test(jobId) && (await this.store.status(jobId)) !== null;
  }

  /**
   * Why a rerank's state is not in Redis: lost with Redis's data (its id is of an epoch that ended),
   * else unknown or expired. `gone`: it was there when this process looked before.
   */
  async missing(jobId: string, gone = false): Promise<Error> {
    if (RERANK_ID_RE.test(jobId) && (await this.lifecycle.lost(jobId))) return new JobLostError(`rerank "${jobId}"`);
    return new RerankNotFoundError(jobId, gone);
  }

  /**
   * Progress of one rerank from any replica: listens on its channel first, then reads its state, so no
   * event can fall between the two. A late subscriber gets the ranking so far at once; events are then
   * relayed in order (older snapshots dropped), ending with the final one. When the deadline passes
   * with no worker left to notice, the subscriber completes the rerank itself (atomically, once).
   * Between events it checks the state itself (Liveness): a snapshot or final result whose event
   * pub/sub dropped (Redis restarted) is caught up on, and a rerank whose state Redis lost ends the
   * stream with JOB_LOST at once rather than at its deadline.
   */
  async *watch(jobId: string): AsyncGenerator<RerankProgressEvent> {
    if (!RERANK_ID_RE.test(jobId)) throw new RerankNotFoundError(jobId);
    const inbox = new EventInbox<RerankProgressEvent | LivenessCheck>();
    const unlisten = await this.events.listen(this.store.channel(jobId), inbox.push);
    let timer: NodeJS.Timeout | undefined;
    const liveness = new Liveness(inbox.push);
    try {
      const final = await this.store.getResult(jobId);
      if (final) {
        yield finalEvent(final);
        return;
      }
      const snapshot = await this.store.snapshot(jobId);
      if (!snapshot) throw await this.missing(jobId);
      let lastDone = 0;
      if (snapshot.state.status === 'completed') {
        const result = await this.lifecycle.ensureFinal(jobId);
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
          void this.lifecycle
            .expireIfDue(jobId)
            .then(async (found) => found || inbox.fail(await this.missing(jobId, true)))
            .catch((e: Error) => {
              this.logger.warn(`expiring ${jobId}: ${e.message}`);
              inbox.fail(e);
            }),
        wait,
      );
      for await (const event of inbox) {
        if (event === LIVENESS_CHECK) {
          // Only when nothing is queued: a stream that is still moving needs no check.
          if (inbox.some(() => true)) continue;
          const caughtUp = await liveness.check(() => this.caughtUp(jobId, lastDone));
          if (!caughtUp) continue;
          yield caughtUp;
          if (caughtUp.kind === 'completed') return;
          lastDone = caughtUp.done;
          continue;
        }
        if (event.kind === 'completed') {
          yield event;
          return;
        }
        if (event.done <= lastDone) continue;
        lastDone = event.done;
        yield event;
      }
    } finally {
      liveness.stop();
      if (timer) clearTimeout(timer);
      await unlisten();
    }
  }

  /**
   * A rerank as Redis holds it now, for a subscriber that has seen `lastDone` batches: the final
   * event once completed, a snapshot when more batches are done, else undefined. Throws JOB_LOST (or
   * NOT_FOUND) when its state is gone.
   */
  private async caughtUp(jobId: string, lastDone: number): Promise<RerankProgressEvent | undefined> {
    const final = await this.store.getResult(jobId);
    if (final) return finalEvent(final);
    // The state's counters first: the whole snapshot is read only when there is something new.
    const status = await this.store.status(jobId);
    if (!status) throw await this.missing(jobId, true);
    if (status.status === 'running' && status.done <= lastDone) return undefined;
    const snapshot = await this.store.snapshot(jobId);
    if (!snapshot) throw await this.missing(jobId, true);
    if (snapshot.state.status === 'completed') {
      const result = await this.lifecycle.ensureFinal(jobId);
      return result ? finalEvent(result) : undefined;
    }
    if (snapshot.outcomes.size <= lastDone) return undefined;
    return progressEvent(assembleResult(snapshot.meta, snapshot.candidates, snapshot.outcomes, snapshot.state));
  }

  cacheStats(): Promise<RerankCacheStats> {
    return this.cache.stats();
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
    ...(c.repoId !== undefined ? { repoId: c.repoId } : {}),
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
