import { Logger } from '@nestjs/common';
import { type AttemptResult, ModelCallError, retryWithBackoff, RetryPolicy } from '@scopegraph/llm';
import { PromptRequest } from './prompt/prompt';
import { RerankProvider } from './providers/rerank-provider';
import { MalformedOutputError } from './rerank.errors';
import { BatchOutcome, RerankStrategy } from './rerank.types';

export interface ScoreBatchParams {
  request: PromptRequest;
  /** Time limit of this batch, retries included. */
  batchTimeoutMs: number;
  /** The rerank's overall deadline (epoch ms): no batch runs past it. */
  deadlineAt: number;
}

const MAX_DETAIL_CHARS = 300;
const HTTP_TOO_MANY_REQUESTS = 429;
const HTTP_SERVER_ERROR = 500;
const HTTP_OK_MIN = 200;
const HTTP_OK_MAX = 299;

/**
 * Runs one batch through the provider and always returns an outcome: scores, or a fallback that says
 * why the batch keeps its retrieval order. 429, 5xx and network errors are retried with full-jitter
 * backoff (honouring the server's hint) while the batch's time budget lasts; the budget is the
 * smaller of the batch timeout and what is left before the rerank's deadline. Nothing the model does
 * makes this throw: the request never fails because the LLM did.
 */
export class BatchScorer {
  private readonly logger = new Logger(BatchScorer.name);

  constructor(
    private readonly provider: RerankProvider,
    private readonly retry: RetryPolicy,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async score({ request, batchTimeoutMs, deadlineAt }: ScoreBatchParams): Promise<BatchOutcome> {
    const started = this.now();
    const budgetEnd = Math.min(started + batchTimeoutMs, deadlineAt);
    const limitReason = deadlineAt <= started + batchTimeoutMs ? 'deadline' : 'timeout';
    const strategy: RerankStrategy = this.provider.strategies.includes(request.strategy) ? request.strategy : this.provider.strategies[0];
    const base = {
      batch: request.batch,
      reranker: this.provider.name,
      model: this.provider.model,
      strategy,
      cached: false,
    };
    const fallback = (reason: string, detail: string, calls: number): BatchOutcome => {
      this.logger.warn(`batch ${request.batch} (${this.provider.name}) falls back to retrieval order: ${reason}: ${detail}`);
      return {
        ...base,
        ok: false,
        fallbackReason: reason,
        detail: detail.slice(0, MAX_DETAIL_CHARS),
        scores: {},
        feedback: null,
        ignored: { duplicates: 0, invented: 0 },
        calls,
        durationMs: this.now() - started,
      };
    };
    const withFeedback = request.withSuggestions && this.provider.feedback;
    const attemptOnce = async (attempt: number): Promise<AttemptResult<BatchOutcome, CallFailure>> => {
      const remaining = budgetEnd - this.now();
      if (remaining <= 0) return { value: fallback(limitReason, `no time left before the ${limitReason === 'deadline' ? 'rerank deadline' : 'batch timeout'}`, attempt - 1) };
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`${limitReason} after ${remaining} ms`)), remaining);
      try {
        const parsed = await this.provider.scoreBatch({ ...request, strategy, withSuggestions: withFeedback }, controller.signal);
        return {
          value: {
            ...base,
            ok: true,
            fallbackReason: null,
            detail: null,
            scores: parsed.scores,
            feedback: withFeedback ? parsed.feedback : null,
            ignored: parsed.ignored,
            calls: attempt,
            durationMs: this.now() - started,
          },
        };
      } catch (error) {
        if (controller.signal.aborted) return { value: fallback(limitReason, `no answer within ${remaining} ms`, attempt) };
        if (error instanceof MalformedOutputError) return { value: fallback(error.reason, error.message, attempt) };
        if (!(error instanceof ModelCallError)) return { value: fallback('provider-error', (error as Error)?.message ?? String(error), attempt) };
        if (error.status !== undefined && error.status >= HTTP_OK_MIN && error.status <= HTTP_OK_MAX) return { value: fallback('malformed-output', error.message, attempt) };
        return { failure: { retryable: error.retryable, retryAfterMs: error.retryAfterMs, error, reason: failureReason(error) } };
      } finally {
        clearTimeout(timer);
      }
    };
    return retryWithBackoff(this.retry, attemptOnce, {
      budgetEnd,
      now: this.now,
      sleep: this.sleep,
      giveUp: ({ error, reason }, attempt, why) =>
        why === 'budget'
          ? fallback(reason, `${error.message}; no time left to retry`, attempt)
          : fallback(reason, `${error.message}${attempt > 1 ? ` (after ${attempt} attempts)` : ''}`, attempt),
      onRetry: ({ reason }, attempt, delay) =>
        this.logger.debug(`batch ${request.batch}: ${reason}, retrying in ${delay} ms (attempt ${attempt + 1}/${this.retry.maxAttempts})`),
    });
  }
}

/** A model call that failed in a way retrying may fix, with the label its fallback would carry. */
interface CallFailure {
  retryable: boolean;
  retryAfterMs?: number;
  error: ModelCallError;
  reason: string;
}

function failureReason(error: ModelCallError): string {
  if (error.failure === 'network') return 'network-error';
  if (error.failure === 'timeout') return 'timeout';
  if (error.status === HTTP_TOO_MANY_REQUESTS) return 'rate-limited';
  if (error.status !== undefined && error.status >= HTTP_SERVER_ERROR) return 'server-error';
  return `http-${error.status ?? 'error'}`;
}
