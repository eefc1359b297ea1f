import { type Clock, SYSTEM_CLOCK } from '@scopegraph/config';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { REDIS_UNAVAILABLE } from './redis.connection';

/**
 * How often a waiting subscriber checks on its work itself. Events alone cannot be trusted to come:
 * pub/sub drops what is published while a connection is down, and work Redis lost sends none at all.
 */
export const LIVENESS_POLL_MS = 2_000;
/** How long a subscriber rides out an unreachable Redis (a restart) before ending with that error. */
export const LIVENESS_OUTAGE_MS = 30_000;
/** Queued among a subscription's events: "check that the work is still alive". */
export const LIVENESS_CHECK = Symbol('liveness-check');
export type LivenessCheck = typeof LIVENESS_CHECK;

/** Work whose id Redis issued, but whose data Redis lost since (it restarted without it). */
export class JobLostError extends DomainError {
  constructor(what: string) {
    super(DomainErrorCode.JobLost, `${what} was lost: Redis lost its data while it was queued or running (restarted without persistence); start it again`);
  }
}

/**
 * The liveness checks of one subscription: pushes LIVENESS_CHECK into its inbox every
 * LIVENESS_POLL_MS, and runs each check so that a Redis that is briefly unreachable is waited out
 * (the check answers undefined) and one unreachable for longer than LIVENESS_OUTAGE_MS ends the
 * subscription with that error.
 */
export class Liveness {
  private readonly timer: NodeJS.Timeout;
  private unreachableSince: number | undefined;

  constructor(
    push: (check: LivenessCheck) => void,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {
    this.timer = setInterval(() => push(LIVENESS_CHECK), LIVENESS_POLL_MS);
    this.timer.unref();
  }

  async check<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await work();
      this.unreachableSince = undefined;
      return value;
    } catch (error) {
      if (!(error instanceof Error) || !REDIS_UNAVAILABLE.test(error.message)) throw error;
      this.unreachableSince ??= this.clock.now();
      if (this.clock.now() - this.unreachableSince > LIVENESS_OUTAGE_MS) throw error;
      return undefined;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
