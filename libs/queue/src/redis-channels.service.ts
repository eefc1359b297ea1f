import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { Redis } from 'ioredis';
import { createRedisConnection } from './redis.connection';

type Listener = (message: string) => void;

/**
 * Redis pub/sub listening for the whole process: one subscriber connection, created on first use,
 * subscribed to a channel while at least one listener wants it. Events published by a worker reach
 * every API replica that listens, which is what lets any replica serve any subscription.
 */
@Injectable()
export class RedisChannelsService implements OnModuleDestroy {
  private readonly logger = new Logger(RedisChannelsService.name);
  private subscriber?: Redis;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscribing = new Map<string, Promise<unknown>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Resolves once Redis confirmed the subscription, so no message published afterwards is missed. */
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
      this.subscriber = createRedisConnection(this.config.redis.url, {}, 'pub/sub');
      this.subscriber.on('message', (channel: string, message: string) => {
        for (const listener of this.listeners.get(channel) ?? []) listener(message);
      });
    }
    return this.subscriber;
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber?.disconnect();
  }
}
