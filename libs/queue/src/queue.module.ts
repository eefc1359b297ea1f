import { Global, Module } from '@nestjs/common';
import { JobEventsService } from './job-events.service';
import { QueueService } from './queue.service';
import { ResourceLockService } from './resource-lock.service';

@Global()
@Module({ providers: [QueueService, JobEventsService, ResourceLockService], exports: [QueueService, JobEventsService, ResourceLockService] })
export class QueueModule {}
