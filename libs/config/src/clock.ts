/**
 * Time as the services see it, in milliseconds. Deadlines and expiries are compared with an injected
 * clock (never with Date.now directly), so a test moves time forward instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
