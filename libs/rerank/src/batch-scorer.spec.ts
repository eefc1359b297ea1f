import { ModelCallError } from '@scopegraph/llm';
import { BatchScorer } from './batch-scorer';
import { PromptRequest } from './prompt/prompt';
import { RerankProvider } from './providers/rerank-provider';
import { MalformedOutputError } from './rerank.errors';
import { ParsedBatch } from './scoring/score-parser';

type Step = ParsedBatch | Error | 'hang';

/** A provider that plays a script, one step per call. */
function scripted(steps: Step[], strategies: RerankProvider['strategies'] = ['pointwise', 'listwise']): RerankProvider & { calls: number; seen: PromptRequest[] } {
  const provider = {
    name: 'gemini' as const,
    model: 'test-model',
    kind: 'llm' as const,
    strategies,
    feedback: true,
    calls: 0,
    seen: [] as PromptRequest[],
    async scoreBatch(request: PromptRequest, signal: AbortSignal): Promise<ParsedBatch> {
      provider.seen.push(request);
      const step = steps[Math.min(provider.calls++, steps.length - 1)];
      if (step === 'hang') return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      if (step instanceof Error) throw step;
      return step;
    },
  };
  return provider;
}

const OK: ParsedBatch = {
  scores: { a: { llm: 0.9, relevant: true, reasoning: 'yes', note: null } },
  feedback: { quality: 'good', suggestions: [] },
  ignored: { duplicates: 0, invented: 1 },
};
const REQUEST: PromptRequest = {
  question: 'q',
  queryDescription: null,
  strategy: 'pointwise',
  withSuggestions: true,
  scopes: [{ id: 'a', name: 'a', kind: 'function', path: 'a.ts', signature: null, source: null }],
  sourceChars: 100,
  shuffleSeed: null,
  batch: 4,
};
const RETRY = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
const http = (status: number, retryAfterMs?: number) => new ModelCallError(`HTTP ${status}`, 'http', status, retryAfterMs);
const FAR = () => Date.now() + 60_000;

describe('BatchScorer', () => {
  it('returns the scores, the feedback and what was ignored', async () => {
    const outcome = await new BatchScorer(scripted([OK]), RETRY).score({ request: REQUEST, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(outcome).toMatchObject({ batch: 4, ok: true, reranker: 'gemini', model: 'test-model', strategy: 'pointwise', calls: 1, cached: false, fallbackReason: null });
    expect(outcome.scores).toEqual(OK.scores);
    expect(outcome.feedback).toEqual(OK.feedback);
    expect(outcome.ignored).toEqual({ duplicates: 0, invented: 1 });
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    const provider = scripted([http(429), http(503), OK]);
    const outcome = await new BatchScorer(provider, RETRY).score({ request: REQUEST, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(outcome).toMatchObject({ ok: true, calls: 3 });
  });

  it('gives up after maxAttempts and falls back, saying why', async () => {
    const outcome = await new BatchScorer(scripted([http(500)]), RETRY).score({ request: REQUEST, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(outcome).toMatchObject({ ok: false, fallbackReason: 'server-error', calls: 3, scores: {} });
    expect(outcome.detail).toMatch(/after 3 attempts/);
    const limited = await new BatchScorer(scripted([http(429)]), RETRY).score({ request: REQUEST, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(limited.fallbackReason).toBe('rate-limited');
  });

  it('does not retry what retrying cannot fix (400, 401, 404)', async () => {
    const provider = scripted([http(401), OK]);
    const outcome = await new BatchScorer(provider, RETRY).score({ request: REQUEST, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(outcome).toMatchObject({ ok: false, fallbackReason: 'http-401', calls: 1 });
  });

  it('retries network errors; a 200 without a usable body is malformed output, not retried', async () => {
    const network = await new BatchScorer(scripted([new ModelCallError('ECONNRESET', 'network'), OK]), RETRY).score({
      request: REQUEST,
      batchTimeoutMs: 1_000,
      deadlineAt: FAR(),
    });
    expect(network).toMatchObject({ ok: true, calls: 2 });
    const weird = await new BatchScorer(scripted([http(200), OK]), RETRY).score({ request: REQUEST, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(weird).toMatchObject({ ok: false, fallbackReason: 'malformed-output', calls: 1 });
  });

  it('falls back on malformed output with the parser\'s reason', async () => {
    const outcome = await new BatchScorer(scripted([new MalformedOutputError('the answer is not JSON: "x"')]), RETRY).score({
      request: REQUEST,
      batchTimeoutMs: 1_000,
      deadlineAt: FAR(),
    });
    expect(outcome).toMatchObject({ ok: false, fallbackReason: 'malformed-output', detail: 'the answer is not JSON: "x"' });
  });

  describe('on a fake clock', () => {
    // The scorer's clock (now, sleep) and its abort timer both run on jest's fake timers, so the test
    // moves time itself: the call must still be pending 1 ms before its limit and settle exactly at it.
    beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
    afterEach(() => jest.useRealTimers());
    const now = () => Date.now();
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const hanging = () => new BatchScorer(scripted(['hang']), RETRY, now, sleep);

    async function settlesAt<T>(outcome: Promise<T>, ms: number): Promise<T> {
      let settled = false;
      void outcome.then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(ms - 1);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      return outcome;
    }

    it('times out a hanging call at the batch limit', async () => {
      const outcome = await settlesAt(hanging().score({ request: REQUEST, batchTimeoutMs: 80, deadlineAt: now() + 60_000 }), 80);
      expect(outcome).toMatchObject({ ok: false, fallbackReason: 'timeout', calls: 1, durationMs: 80 });
    });

    it('times out at the rerank deadline when that comes first', async () => {
      const outcome = await settlesAt(hanging().score({ request: REQUEST, batchTimeoutMs: 10_000, deadlineAt: now() + 80 }), 80);
      expect(outcome).toMatchObject({ ok: false, fallbackReason: 'deadline', calls: 1, durationMs: 80 });
    });

    it('does not call the provider once the deadline has passed', async () => {
      const provider = scripted([OK]);
      const outcome = await new BatchScorer(provider, RETRY, now, sleep).score({ request: REQUEST, batchTimeoutMs: 10_000, deadlineAt: now() - 1 });
      expect(outcome).toMatchObject({ ok: false, fallbackReason: 'deadline', calls: 0 });
      expect(provider.calls).toBe(0);
    });
  });

  it('stops retrying when the wait the server asks for would not fit in the budget', async () => {
    const provider = scripted([http(429, 5_000), OK]);
    const outcome = await new BatchScorer(provider, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 10_000 }).score({ request: REQUEST, batchTimeoutMs: 200, deadlineAt: FAR() });
    expect(outcome).toMatchObject({ ok: false, fallbackReason: 'rate-limited', calls: 1 });
    expect(outcome.detail).toMatch(/no time left to retry/);
  });

  it('applies a strategy the provider lacks as its first, and asks feedback only of providers that give it', async () => {
    const crossEncoder = { ...scripted([OK], ['pointwise']), feedback: false };
    const outcome = await new BatchScorer(crossEncoder, RETRY).score({ request: { ...REQUEST, strategy: 'listwise' }, batchTimeoutMs: 1_000, deadlineAt: FAR() });
    expect(outcome.strategy).toBe('pointwise');
    expect(crossEncoder.seen[0]).toMatchObject({ strategy: 'pointwise', withSuggestions: false });
    expect(outcome.feedback).toBeNull();
  });
});
