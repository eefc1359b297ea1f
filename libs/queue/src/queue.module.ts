import { Global, Module } from '@nestjs/common';
import { MetricsShare } from '@scopegraph/observability';
import { JobEventsService } from './job-events.service';
import { QueueService } from './queue.service';

/** Metrics snapshots travel through the queue's Redis, under its prefix, so stacks never mix. */
const metricsShare = { provide: MetricsShare, useFactory: (q: QueueService) => new MetricsShare(q.redis, `${q.prefix}:metrics`), inject: [QueueService] };

@Global()
@Module({ providers: [QueueService, JobEventsService, metricsShare], exports: [QueueService, JobEventsService, MetricsShare] })
export class QueueModule {}
