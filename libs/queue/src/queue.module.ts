import { Global, Module } from '@nestjs/common';
import { JobEventsService } from './job-events.service';
import { QueueService } from './queue.service';

@Global()
@Module({ providers: [QueueService, JobEventsService], exports: [QueueService, JobEventsService] })
export class QueueModule {}
