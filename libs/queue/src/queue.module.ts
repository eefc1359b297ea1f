import { Global, Module } from '@nestjs/common';
import { MetricsShare } from '@scopegraph/observability';
import { JobEventsService } from './job-events.service';
import { QueueService } from './queue.service';
import { RedisChannelsService } from './redis-channels.service';
import { ResourceLockService } from './resource-lock.service';

/** Metrics snapshots travel through the queue's Redis, under its prefix, so stacks never mix. */
const metricsShare = { provide: MetricsShare, useFactory: (q: QueueService) => new MetricsShare(q.redis, `${q.prefix}:metrics`), inject: [QueueService] };

@Global()
@Module({ providers: [QueueService, JobEventsService, RedisChannelsService, ResourceLockService, metricsShare], exports: [QueueService, JobEventsService, RedisChannelsService, ResourceLockService, MetricsShare] })
export class QueueModule {}
