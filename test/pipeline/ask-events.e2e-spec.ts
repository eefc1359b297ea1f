import { loadConfig } from '@scopegraph/config';
import { Worker } from 'bullmq';
import { ASK_EVENTS, bullQueueName, createRedisConnection, JobName, QueueName, QueueService, RedisChannelsService } from '@scopegraph/queue';
import { AskEventsService } from '../../libs/pipeline/src/ask-events.service';
import type { AskEvent, AskResult } from '../../libs/pipeline/src/ask.types';
import { runId } from '../support/processes';

/**
 * An ask's event stream over the real Redis, without the apps: replay for a late subscriber, live
 * relay in order and once each, the end at the final event, and the error a subscriber makes up
 * when the ask's job is gone (found by its liveness poll, every 2 s).
 */
describe('AskEventsService over Redis', () => {
  const base = loadConfig();
  const config = { ...base, queue: { prefix: runId('askev') } };
  const queues = new QueueService(config);
  const channels = new RedisChannelsService(config);
  const events = new AskEventsService(queues, channels, config);
  // The shared connection fails fast while not connected (no offline queue): wait for it, as the apps do at boot.
  beforeAll(() => queues.onModuleInit());

  afterAll(async () => {
    const keys = await queues.redis.keys(`${config.queue.prefix}:*`);
    if (keys.length > 0) await queues.redis.del(...keys);
    await channels.onModuleDestroy();
    await queues.onModuleDestroy();
  });

  const brief = (e: AskEvent) => `${e.seq}:${e.kind}${e.kind === 'chunk' ? `:${e.text}` : ''}`;

  it('replays what a late subscriber missed, then relays live events in order, once each, and stops at the final one', async () => {
    const askId = runId('ask');
    // A waiting job (no worker takes it here), so the liveness poll finds the ask alive.
    await queues.queue(QueueName.ASK).add(JobName.ASK, {}, { jobId: askId });
    const publisher = events.publisher(askId);
    await publisher.publish({ kind: 'chunk', text: 'a' });
    await publisher.publish({ kind: 'chunk', text: 'b' });

    const watch = events.watch(askId);
    const seen: AskEvent[] = [];
    const first = await watch.next();
    seen.push(first.value as AskEvent);
    // Subscribed and replayed by now: these arrive live.
    await publisher.publish({ kind: 'chunk', text: 'c' });
    await publisher.publish({ kind: 'final', result: {} as AskResult });
    await publisher.publish({ kind: 'chunk', text: 'after the end' });
    for await (const event of { [Symbol.asyncIterator]: () => watch }) seen.push(event);

    expect(seen.map(brief)).toEqual(['1:chunk:a', '2:chunk:b', '3:chunk:c', '4:final']);
    expect(seen.every((e) => e.askId === askId)).toBe(true);
  });

  it('ends with an error event when the ask job is gone and no event comes', async () => {
    const askId = runId('ask');
    const publisher = events.publisher(askId);
    await publisher.publish({ kind: 'chunk', text: 'a' });
    const seen: AskEvent[] = [];
    for await (const event of events.watch(askId)) seen.push(event);
    expect(seen.map(brief)).toEqual(['1:chunk:a', '2:error']);
    expect(seen[1]).toMatchObject({ kind: 'error', message: 'the ask job is gone' });
  });

  it('catches up on a final event pub/sub dropped once the job has completed, instead of waiting forever', async () => {
    const askId = runId('ask');
    await queues.queue(QueueName.ASK).add(JobName.ASK, {}, { jobId: askId });
    const publisher = events.publisher(askId);
    await publisher.publish({ kind: 'chunk', text: 'a' });
    const watch = events.watch(askId);
    const seen: AskEvent[] = [(await watch.next()).value as AskEvent];
    // The final event reaches the log but not the subscriber, as when its connection was down.
    await queues.redis.rpush(ASK_EVENTS.log(config.queue.prefix, askId), JSON.stringify({ askId, seq: 2, kind: 'final', result: {} }));
    const connection = createRedisConnection(config.redis.url);
    const worker = new Worker(bullQueueName(QueueName.ASK), async (job) => (job.id === askId ? { answer: 'done' } : undefined), { connection, prefix: config.queue.prefix });
    try {
      for await (const event of { [Symbol.asyncIterator]: () => watch }) seen.push(event);
    } finally {
      await worker.close();
      connection.disconnect();
    }
    expect(seen.map(brief)).toEqual(['1:chunk:a', '2:final']);
  });
});
