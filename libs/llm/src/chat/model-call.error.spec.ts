import { ModelCallError, retryAfterMs } from './model-call.error';

describe('ModelCallError', () => {
  it.each<[ModelCallError, boolean]>([
    [new ModelCallError('x', 'http', 429), true],
    [new ModelCallError('x', 'http', 500), true],
    [new ModelCallError('x', 'http', 503), true],
    [new ModelCallError('x', 'network'), true],
    [new ModelCallError('x', 'http', 400), false],
    [new ModelCallError('x', 'http', 401), false],
    [new ModelCallError('x', 'http', 404), false],
    [new ModelCallError('x', 'http', 200), false],
    [new ModelCallError('x', 'timeout'), false],
  ])('%s retryable: %p', (error, retryable) => {
    expect(error.retryable).toBe(retryable);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('0.5')).toBe(500);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
