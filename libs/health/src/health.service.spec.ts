import { describeRedisError } from './health.service';

describe('describeRedisError', () => {
  it('says what is wrong with Redis instead of how ioredis is configured', () => {
    expect(describeRedisError(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe('not connected to Redis: the connection is down and being retried');
    expect(describeRedisError(new Error('connect ECONNREFUSED 127.0.0.1:6390'))).toMatch(/^Redis refused the connection: is it running/);
    expect(describeRedisError(new Error('Command timed out'))).toMatch(/^Redis did not answer in time/);
    expect(describeRedisError(new Error('something new'))).toBe('Redis check failed: something new');
  });
});
