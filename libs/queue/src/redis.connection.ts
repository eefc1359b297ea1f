import { Redis, RedisOptions } from 'ioredis';

/**
 * BullMQ wants maxRetriesPerRequest: null on connections used by workers and QueueEvents (blocking
 * commands must wait out a Redis restart instead of failing).
 */
export function createRedisConnection(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, ...extra });
}
