export interface RetryPolicy {
  /** Total tries including the first one. */
  maxAttempts: number;
  /** Upper bound of the first backoff; it doubles per attempt. */
  baseDelayMs: number;
  /** Cap for any single wait, including server-suggested ones. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000 };

const HTTP_TOO_MANY_REQUESTS = 429;
const HTTP_SERVER_ERROR_MIN = 500;
const HTTP_SERVER_ERROR_MAX = 599;

/**
 * "Full jitter" exponential backoff: a uniform wait in [0, min(cap, base·2^(attempt-1))]. Spreading
 * waits out keeps several workers that hit the same 429 from retrying in lock-step. A server hint
 * (Gemini's RetryInfo) raises the floor, still capped.
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, hintMs?: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(random() * ceiling);
  return Math.min(policy.maxDelayMs, Math.max(jittered, hintMs ?? 0));
}

/** 429 and 5xx are worth retrying; other 4xx (bad key, bad request, unknown model) never succeed. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true; // no HTTP answer at all: connection reset, DNS, timeout
  return status === HTTP_TOO_MANY_REQUESTS || (status >= HTTP_SERVER_ERROR_MIN && status <= HTTP_SERVER_ERROR_MAX);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function validateRetryPolicy(policy: RetryPolicy): RetryPolicy {
  const { maxAttempts, baseDelayMs, maxDelayMs } = policy;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be an integer >= 1, got ${maxAttempts}`);
  if (!(baseDelayMs >= 0) || !(maxDelayMs >= 0)) throw new RangeError('retry delays must be >= 0');
  return policy;
}

/** What a failed attempt tells the loop: whether another try can help, and any wait the server asked for. */
export interface RetryFailure {
  retryable: boolean;
  retryAfterMs?: number;
}

export type AttemptResult<T, F extends RetryFailure> = { value: T } | { failure: F };

/** Why the loop stopped: the failure cannot be fixed by retrying, attempts ran out, or the time budget would. */
export type GiveUpReason = 'not-retryable' | 'attempts' | 'budget';

export interface RetryOptions<T, F extends RetryFailure> {
  /** The caller's answer when retrying stops: throw, or return a fallback. */
  giveUp(failure: F, attempt: number, reason: GiveUpReason): T | Promise<T>;
  onRetry?(failure: F, attempt: number, delayMs: number): void;
  /** Epoch ms after which no retry is started (a wait that would reach it gives up instead). */
  budgetEnd?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/**
 * The one retry loop for model calls (chat, rerank, embeddings): full-jitter backoff honouring the
 * server's hint, within maxAttempts and an optional time budget. `attemptOnce` gets the 1-based attempt.
 */
export async function retryWithBackoff<T, F extends RetryFailure>(
  policy: RetryPolicy,
  attemptOnce: (attempt: number) => Promise<AttemptResult<T, F>>,
  options: RetryOptions<T, F>,
): Promise<T> {
  const now = options.now ?? Date.now;
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(attempt);
    if ('value' in outcome) return outcome.value;
    const { failure } = outcome;
    if (!failure.retryable) return options.giveUp(failure, attempt, 'not-retryable');
    if (attempt >= policy.maxAttempts) return options.giveUp(failure, attempt, 'attempts');
    const delay = backoffDelayMs(attempt, policy, failure.retryAfterMs, options.random);
    if (options.budgetEnd !== undefined && now() + delay >= options.budgetEnd) return options.giveUp(failure, attempt, 'budget');
    options.onRetry?.(failure, attempt, delay);
    await wait(delay);
  }
}
