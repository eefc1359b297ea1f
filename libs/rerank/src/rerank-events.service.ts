import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { createRedisConnection, QueueService } from '@scopegraph/queue';
import { Redis } from 'ioredis';
import { RerankProgressEvent } from './rerank.types';

type Listener = (event: RerankProgressEvent) => void;

/**
 * Rerank events over Redis pub/sub: the worker that finishes a batch publishes, every API replica
 * with a subscriber on that rerank hears it. One subscriber connection per process, created on first
 * use, subscribed to a channel while at least one listener wants it.
 */
@Injectable()
export class RerankEventsService implements OnModuleDestroy {
  private readonly logger = new Logger(RerankEventsService.name);
  private subscriber?: Redis;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscribing = new Map<string, Promise<unknown>>();

  constructor(
    private readonly queues: QueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async publish(channel: string, event: RerankProgressEvent): Promise<void> {
    await this.queues.redis.publish(channel, JSON.stringify(event));
  }

  /** Resolves once Redis confirmed the subscription, so no event published afterwards is missed. */
  async listen(channel: string, listener: Listener): Promise<() => Promise<void>> {
    const sub = this.connection();
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      this.subscribing.set(channel, sub.subscribe(channel));
    }
    set.add(listener);
    await this.subscribing.get(channel);
    return async () => {
      const current = this.listeners.get(channel);
      current?.delete(listener);
      if (current && current.size === 0) {
        this.listeners.delete(channel);
        this.subscribing.delete(channel);
        await sub.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  private connection(): Redis {
    if (!this.subscriber) {
      this.subscriber = createRedisConnection(this.config.redis.url);
      this.subscriber.on('error', (e) => this.logger.warn(`rerank events: ${e.message}`));
      this.subscriber.on('message', (channel: string, message: string) => {
        const set = this.listeners.get(channel);
        if (!set) return;
        let event: RerankProgressEvent;
        try {
          event = JSON.parse(message) as RerankProgressEvent;
        } catch {
          this.logger.warn(`unreadable rerank event on ${channel}`);
          return;
        }
        for (const listener of set) listener(event);
      });
    }
    return this.subscriber;
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber?.disconnect();
  }
}
