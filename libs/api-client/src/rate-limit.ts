/**
 * How every client scopegraph ships (the CLI, the stdio MCP server, the eval and bench tools) behaves
 * at the API's rate limit: it paces itself by the limit headers the API sends, and on a 429 it waits
 * for the `Retry-After` the API names (bounded, with jitter), says so once, and goes on; it gives up
 * with a clear message only when one request would have to wait longer than the caller allows.
 * Plain `fetch`, no Node-only API, so any runtime can use it.
 */

/** What the API answered about its limit on the last response. */
interface LimitState {
  /** Requests left in the current window, when the API said. */
  remaining?: number;
  /** When the window resets (ms since the epoch, by this client's clock). */
  resetAt?: number;
}

export interface RateLimitOptions {
  /**
   * The longest one request may wait in all (paced and after 429s) before the client gives up,
   * in ms (default 5 minutes; `SCOPEGRAPH_MAX_RATE_WAIT_S` sets it for the CLI and MCP server).
   */
  maxWaitMs?: number;
  /** Told once per wait: how long and why (`rate limited, resuming in 42 s`). */
  onWait?: (event: RateWaitEvent) => void;
  /** The clock, injectable for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** 0..1, spreads clients that were limited together (default Math.random). */
  random?: () => number;
}

export interface RateWaitEvent {
  /** `limited`: the API answered 429; `paced`: the window's budget is spent, waiting for its reset. */
  reason: 'limited' | 'paced';
  waitMs: number;
  message: string;
}

/** Waiting so far, apart from the requests' own latency. */
export interface RateLimitStats {
  /** 429 answers received. */
  limited: number;
  /** Waits before a request because the window's budget was spent. */
  paced: number;
  /** Time spent waiting, in ms. */
  waitedMs: number;
}

export class RateLimitGiveUpError extends Error {
  readonly code = 'RATE_LIMITED';
}

/** Jitter added to each wait: up to this share of it, so clients limited together do not return together. */
const JITTER_SHARE = 0.1;
/** When a 429 names no wait. */
const DEFAULT_RETRY_AFTER_MS = 5_000;
export const DEFAULT_MAX_RATE_WAIT_MS = 5 * 60_000;

export class RateLimitedFetch {
  readonly stats: RateLimitStats = { limited: 0, paced: 0, waitedMs: 0 };
  private readonly state: LimitState = {};
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: RateLimitOptions = {}) {
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_RATE_WAIT_MS;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** `fetch(url, init)`, waiting at the rate limit as described above. The body must be a string (it may be sent again). */
  async fetch(url: string, init: RequestInit & { body?: string }): Promise<Response> {
    let waited = 0;
    for (;;) {
      const pace = this.paceMs();
      if (pace > 0) {
        waited += await this.wait('paced', pace, waited);
        this.stats.paced++;
      }
      const res = await fetch(url, init);
      this.observe(res);
      if (res.status !== 429) return res;
      this.stats.limited++;
      const retryMs = await retryAfterMs(res);
      // The window is spent whatever the headers said.
      this.state.remaining = 0;
      this.state.resetAt = this.now() + retryMs;
      waited += await this.wait('limited', retryMs, waited);
    }
  }

  /** Ms until the API's window resets, when its budget is spent; else 0. */
  private paceMs(): number {
    const { remaining, resetAt } = this.state;
    if (remaining === undefined || remaining > 0 || resetAt === undefined) return 0;
    return Math.max(0, resetAt - this.now());
  }

  private async wait(reason: RateWaitEvent['reason'], baseMs: number, waitedSoFar: number): Promise<number> {
    const ms = Math.ceil(baseMs * (1 + JITTER_SHARE * this.random()));
    if (waitedSoFar + ms > this.maxWaitMs) {
      throw new RateLimitGiveUpError(
        `rate limited by the scopegraph API: the next request could go through in ${Math.ceil(ms / 1000)} s, ` +
          `past the ${Math.round(this.maxWaitMs / 1000)} s this client may wait (SCOPEGRAPH_MAX_RATE_WAIT_S raises it; API_RATE_LIMIT_PER_MIN raises the server's limit)`,
      );
    }
    const seconds = Math.ceil(ms / 1000);
    this.options.onWait?.({
      reason,
      waitMs: ms,
      message: reason === 'limited' ? `rate limited, resuming in ${seconds} s` : `pacing to the API's rate limit, resuming in ${seconds} s`,
    });
    await this.sleep(ms);
    this.stats.waitedMs += ms;
    this.state.remaining = undefined;
    return ms;
  }

  /** Remaining budget and reset from the standard (`RateLimit-*`) or the widespread `X-RateLimit-*` headers. */
  private observe(res: Response): void {
    const h = res.headers;
    const remaining = num(h.get('ratelimit-remaining') ?? h.get('x-ratelimit-remaining'));
    const reset = num(h.get('ratelimit-reset') ?? h.get('x-ratelimit-reset'));
    if (remaining === undefined) return;
    this.state.remaining = remaining;
    // Reset is seconds until the window ends (delta-seconds, as the drafts and @nestjs/throttler send it).
    this.state.resetAt = reset === undefined ? undefined : this.now() + reset * 1000;
  }
}

function num(v: string | null): number | undefined {
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The wait a 429 names: `Retry-After` (seconds or an HTTP date), else the GraphQL error's `retryAfterS`. */
async function retryAfterMs(res: Response): Promise<number> {
  const header = res.headers.get('retry-after');
  if (header) {
    const s = Number(header);
    if (Number.isFinite(s) && s >= 0) return s * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  const body = (await res.json().catch(() => null)) as { errors?: { extensions?: { retryAfterS?: unknown } }[] } | null;
  const s = body?.errors?.[0]?.extensions?.retryAfterS;
  return typeof s === 'number' && s >= 0 ? s * 1000 : DEFAULT_RETRY_AFTER_MS;
}

/** The client's wait limit from the environment (`SCOPEGRAPH_MAX_RATE_WAIT_S`), or the default. */
export function maxRateWaitMs(env: Record<string, string | undefined>): number {
  const raw = env.SCOPEGRAPH_MAX_RATE_WAIT_S;
  if (raw === undefined || raw === '') return DEFAULT_MAX_RATE_WAIT_MS;
  const s = Number(raw);
  if (!Number.isFinite(s) || s < 0) throw new RangeError(`SCOPEGRAPH_MAX_RATE_WAIT_S must be a number of seconds >= 0, got ${JSON.stringify(raw)}`);
  return s * 1000;
}
