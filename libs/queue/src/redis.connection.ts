import { Logger } from '@nestjs/common';
import { Redis, RedisOptions } from 'ioredis';

const logger = new Logger('Redis');

/**
 * Every connection logs its errors (ioredis prints "Unhandled error event" with a stack for a
 * connection without a listener), once per distinct message while it lasts, so an outage is one
 * warning per connection rather than one per reconnect attempt.
 */
function logErrors(connection: Redis, label: string): Redis {
  let last = '';
  connection.on('error', (e: Error) => {
    if (e.message === last) return;
    last = e.message;
    logger.warn(`${label}: ${e.message}`);
  });
  connection.on('ready', () => {
    if (last) logger.log(`${label}: connected again`);
    last = '';
  });
  return connection;
}

/**
 * BullMQ wants maxRetriesPerRequest: null on connections used by workers and QueueEvents (blocking
 * commands must wait out a Redis restart instead of failing).
 */
export function createRedisConnection(url: string, extra: RedisOptions = {}, label = 'connection'): Redis {
  return logErrors(new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, ...extra }), label);
}

/**
 * For commands issued on behalf of a caller who is waiting (producers, caches, health): while Redis
 * is unreachable they fail at once instead of queueing, and a command whose reply was lost is not
 * sent again on reconnect, so a job the caller was told failed is never added later.
 */
export function createFailFastRedisConnection(url: string, commandTimeoutMs: number): Redis {
  return createRedisConnection(
    url,
    { enableOfflineQueue: false, autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 1, commandTimeout: commandTimeoutMs },
    'commands',
  );
}

/** Messages of ioredis errors that mean "Redis is unreachable right now", not "this command is wrong". */
export const REDIS_UNAVAILABLE = /Stream isn't writeable|Connection is closed|Command timed out|Reached the max retries per request|ECONNREFUSED|connect ETIMEDOUT|enableOfflineQueue|Redis did not accept the job in time/;
