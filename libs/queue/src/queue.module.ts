import { Global, Module } from '@nestjs/common';
import { JobEventsService } from './job-events.service';
import { QueueService } from './queue.service';
import { RedisChannelsService } from './redis-channels.service';

@Global()
@Module({ providers: [QueueService, JobEventsService, RedisChannelsService], exports: [QueueService, JobEventsService, RedisChannelsService] })
export class QueueModule {}
