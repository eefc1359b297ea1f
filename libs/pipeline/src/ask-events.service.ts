import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { ASK_EVENTS, createRedisConnection, QueueName, QueueService } from '@scopegraph/queue';
import { Redis } from 'ioredis';
import type { AskEvent, AskEventBody } from './ask.types';

/** How long an ask's events stay replayable after its last one. */
const LOG_TTL_S = 3_600;
/** How often a waiting subscriber checks that the job did not die without a final event. */
const LIVENESS_POLL_MS = 2_000;

/**
 * An ask's progress over Redis: every event is appended to a replay list and published, so any API
 * replica can serve a subscription, and one that subscribes late replays what it missed.
 */
@Injectable()
export class AskEventsService implements OnModuleDestroy {
  private readonly logger = new Logger(AskEventsService.name);
  private subscriber?: Redis;
  private readonly listeners = new Map<string, Set<(e: AskEvent) => void>>();
  private readonly subscribing = new Map<string, Promise<unknown>>();

  constructor(
    private readonly queues: QueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A publisher for one ask: events get consecutive seq numbers and are sent in order. */
  publisher(askId: string): { publish: (body: AskEventBody) => Promise<void> } {
    let seq = 0;
    let chain = Promise.resolve();
    const channel = ASK_EVENTS.channel(this.queues.prefix, askId);
    const log = ASK_EVENTS.log(this.queues.prefix, askId);
    return {
      publish: (body) => {
        const event = JSON.stringify({ askId, seq: ++seq, ...body });
        chain = chain.then(async () => {
          await this.queues.redis.multi().rpush(log, event).expire(log, LOG_TTL_S).publish(channel, event).exec();
        });
        return chain;
      },
    };
  }

  async *watch(askId: string): AsyncGenerator<AskEvent> {
    const buffer: AskEvent[] = [];
    let wake: (() => void) | undefined;
    const channel = ASK_EVENTS.channel(this.queues.prefix, askId);
    const unlisten = await this.listen(channel, (e) => {
      buffer.push(e);
      wake?.();
    });
    const poll = setInterval(() => wake?.(), LIVENESS_POLL_MS);
    try {
      const logged = (await this.queues.redis.lrange(ASK_EVENTS.log(this.queues.prefix, askId), 0, -1)).map((s) => JSON.parse(s) as AskEvent);
      buffer.unshift(...logged);
      let last = 0;
      for (;;) {
        buffer.sort((a, b) => a.seq - b.seq);
        while (buffer.length > 0) {
          const event = buffer.shift()!;
          if (event.seq <= last) continue;
          last = event.seq;
          yield event;
          if (event.kind === 'final' || event.kind === 'error') return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        if (buffer.length === 0) {
          const job = await this.queues.getJob(QueueName.ASK, askId);
          const state = job ? await job.getState() : 'unknown';
          if (state === 'failed' || state === 'unknown') {
            yield { askId, seq: last + 1, kind: 'error', message: job?.failedReason ?? 'the ask job is gone' };
            return;
          }
        }
      }
    } finally {
      clearInterval(poll);
      await unlisten();
    }
  }

  private async listen(channel: string, listener: (e: AskEvent) => void): Promise<() => Promise<void>> {
    const sub = this.connection();
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      this.subscribing.set(channel, sub.subscribe(channel));
    }
    set.add(listener);
    // Resolves once Redis confirmed the subscription: nothing published afterwards is missed.
    await this.subscribing.get(channel);
    return async () => {
      set!.delete(listener);
      if (set!.size === 0) {
        this.listeners.delete(channel);
        this.subscribing.delete(channel);
        await sub.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  private connection(): Redis {
    if (!this.subscriber) {
      this.subscriber = createRedisConnection(this.config.redis.url);
      this.subscriber.on('error', (e) => this.logger.warn(`ask events: ${e.message}`));
      this.subscriber.on('message', (channel: string, message: string) => {
        const set = this.listeners.get(channel);
        if (!set) return;
        try {
          const event = JSON.parse(message) as AskEvent;
          for (const l of set) l(event);
        } catch {
          this.logger.warn(`unreadable ask event on ${channel}`);
        }
      });
    }
    return this.subscriber;
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber?.disconnect();
  }
}
