/**
 * Time as the rerank sees it. Deadlines are compared with this clock (never with Date.now directly),
 * so a test moves time forward instead of sleeping through a deadline.
 */
export interface Clock {
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

/** Optional provider of the rerank clock; the system clock when absent. */
export const RERANK_CLOCK = Symbol('RERANK_CLOCK');
