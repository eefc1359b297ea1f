export * from './queue.constants';
export * from './queue.service';
export * from './queue.module';
export * from './redis.connection';
export * from './job-events.service';
export * from './resource-lock.service';
export * from './redis-channels.service';
export * from './event-inbox';
