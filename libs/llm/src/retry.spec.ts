import { backoffDelayMs, isRetryableStatus, retryWithBackoff, RetryPolicy } from './retry';

const POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };
const ALWAYS_MAX = () => 1;
const ALWAYS_ZERO = () => 0;

describe('retry policy', () => {
  it('doubles the jitter ceiling per attempt and caps it', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, POLICY, undefined, ALWAYS_MAX))).toEqual([100, 200, 400, 800, 1_000]);
    expect(backoffDelayMs(3, POLICY, undefined, ALWAYS_ZERO)).toBe(0);
  });

  it('waits at least as long as the server asks, within the cap', () => {
    expect(backoffDelayMs(1, POLICY, 600, ALWAYS_ZERO)).toBe(600);
    expect(backoffDelayMs(1, POLICY, 60_000, ALWAYS_ZERO)).toBe(1_000);
  });

  it('retries 429, 5xx and network errors only', () => {
    expect([429, 500, 503, undefined].map(isRetryableStatus)).toEqual([true, true, true, true]);
    expect([400, 401, 403, 404].map(isRetryableStatus)).toEqual([false, false, false, false]);
  });
});

describe('retryWithBackoff', () => {
  const transient = { retryable: true };
  const noSleep = async () => undefined;

  it('retries a retryable failure until it succeeds, waiting the backoff each time', async () => {
    const waits: number[] = [];
    const attempts: number[] = [];
    const value = await retryWithBackoff(
      POLICY,
      async (attempt) => (attempts.push(attempt), attempt < 3 ? { failure: transient } : { value: 'ok' }),
      { giveUp: () => 'gave up', sleep: async (ms) => void waits.push(ms), random: ALWAYS_MAX },
    );
    expect(value).toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    expect(waits).toEqual([100, 200]);
  });

  it('gives up at once on a failure retrying cannot fix, and after maxAttempts otherwise', async () => {
    const giveUp = jest.fn((_f: unknown, attempt: number, reason: string) => `${reason}@${attempt}`);
    expect(await retryWithBackoff(POLICY, async () => ({ failure: { retryable: false } }), { giveUp, sleep: noSleep })).toBe('not-retryable@1');
    expect(await retryWithBackoff(POLICY, async () => ({ failure: transient }), { giveUp, sleep: noSleep })).toBe('attempts@5');
  });

  it('gives up instead of waiting past the time budget (a server hint counts)', async () => {
    const now = () => 1_000;
    const result = await retryWithBackoff(POLICY, async () => ({ failure: { retryable: true, retryAfterMs: 900 } }), {
      giveUp: (_f, attempt, reason) => `${reason}@${attempt}`,
      budgetEnd: 1_500,
      now,
      sleep: noSleep,
      random: ALWAYS_ZERO,
    });
    expect(result).toBe('budget@1');
  });
});
