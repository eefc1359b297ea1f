import { backoffDelayMs, isRetryableStatus, RetryPolicy } from './retry';

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
