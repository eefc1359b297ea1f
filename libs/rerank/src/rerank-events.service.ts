import { Injectable, Logger } from '@nestjs/common';
import { QueueService, RedisChannelsService } from '@scopegraph/queue';
import { RerankProgressEvent } from './rerank.types';

/**
 * Rerank events over Redis pub/sub: the worker that finishes a batch publishes, every API replica
 * with a subscriber on that rerank hears it (through the process's one subscriber connection).
 */
@Injectable()
export class RerankEventsService {
  private readonly logger = new Logger(RerankEventsService.name);

  constructor(
    private readonly queues: QueueService,
    private readonly channels: RedisChannelsService,
  ) {}

  async publish(channel: string, event: RerankProgressEvent): Promise<void> {
    await this.queues.redis.publish(channel, JSON.stringify(event));
  }

  /** Resolves once Redis confirmed the subscription, so no event published afterwards is missed. */
  listen(channel: string, listener: (event: RerankProgressEvent) => void): Promise<() => Promise<void>> {
    return this.channels.listen(channel, (message) => {
      let event: RerankProgressEvent;
      try {
        event = JSON.parse(message) as RerankProgressEvent;
      } catch {
        this.logger.warn(`unreadable rerank event on ${channel}`);
        return;
      }
      listener(event);
    });
  }
}
