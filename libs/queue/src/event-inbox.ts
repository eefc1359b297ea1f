/**
 * Events pushed by a listener, read in order by one async consumer that waits while none are queued.
 * Written here rather than taken from a package: the subscriptions need "subscribe first, read state,
 * then drain", which means buffering from before the consumer starts, and it is a dozen lines.
 */
export class EventInbox<T> implements AsyncIterable<T> {
  private readonly queued: T[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;

  /** Bound, so it can be handed to an emitter as the listener. */
  readonly push = (event: T): void => {
    this.queued.push(event);
    this.wake?.();
  };

  /** Ends the stream with an error once the queued events are delivered (the watched thing was lost). */
  readonly fail = (error: Error): void => {
    this.failure ??= error;
    this.wake?.();
  };

  /** Whether an event already queued matches (lets a late subscriber skip a snapshot it would repeat). */
  some(predicate: (event: T) => boolean): boolean {
    return this.queued.some(predicate);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      while (this.queued.length > 0) yield this.queued.shift()!;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
