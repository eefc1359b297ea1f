import { isRetryableStatus } from '../retry';

/**
 * Why a call to a model API failed, in terms a caller can act on: retry (429, 5xx, no answer) or not
 * (bad key, bad request, unknown model). Messages never contain API keys (they travel in headers).
 */
export type ModelCallFailure = 'http' | 'network' | 'timeout';

export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly failure: ModelCallFailure,
    readonly status?: number,
    /** A wait the server asked for (Retry-After, Gemini RetryInfo), in ms. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ModelCallError';
  }

  /**
   * The same rule as every model call (isRetryableStatus): 429 and 5xx, and a request that got no HTTP
   * answer at all. A timeout is not retried: the caller's time budget is what ran out.
   */
  get retryable(): boolean {
    if (this.failure === 'network') return true;
    if (this.failure === 'timeout') return false;
    return this.status !== undefined && isRetryableStatus(this.status);
  }
}

const MS_PER_SECOND = 1000;
const MAX_ERROR_BODY_CHARS = 300;

/** `Retry-After` as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * MS_PER_SECOND;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * POSTs JSON and returns the parsed answer, turning every failure into a ModelCallError: an HTTP
 * error status (with the start of its body), a network error, or an answer that is not JSON.
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal | undefined, what: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted) throw new ModelCallError(`${what}: aborted (${String((signal.reason as Error)?.message ?? signal.reason)})`, 'timeout', undefined, undefined, { cause: error });
    throw new ModelCallError(`${what}: ${(error as Error).message}`, 'network', undefined, undefined, { cause: error });
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    throw new ModelCallError(`${what}: HTTP ${res.status}: ${text.slice(0, MAX_ERROR_BODY_CHARS)}`, 'http', res.status, retryAfterMs(res.headers.get('retry-after')));
  }
  try {
    return JSON.parse(text);
  } catch {
    // A 200 whose body is not JSON: the server misbehaved; the caller treats it like a malformed answer.
    throw new ModelCallError(`${what}: HTTP ${res.status} with a body that is not JSON: ${text.slice(0, MAX_ERROR_BODY_CHARS)}`, 'http', res.status);
  }
}
