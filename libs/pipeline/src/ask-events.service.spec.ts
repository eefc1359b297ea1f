import type { AppConfig } from '@scopegraph/config';
import type { QueueService, RedisChannelsService } from '@scopegraph/queue';
import { AskEventsService } from './ask-events.service';

/**
 * The publisher's ordering under a Redis write that fails (a command timed out under load): that
 * event's promise rejects, and every later event is still written, in order. Before, the chain stayed
 * rejected, so every later event failed too, and an unawaited progress event crashed the worker as an
 * unhandled rejection.
 */
describe('AskEventsService.publisher', () => {
  it('keeps publishing, in order, after one write Redis did not take', async () => {
    const written: string[] = [];
    let calls = 0;
    const multi = () => {
      const batch: string[] = [];
      const chain = {
        rpush: (_key: string, event: string) => (batch.push(event), chain),
        expire: () => chain,
        publish: () => chain,
        exec: async () => {
          if (++calls === 2) throw new Error('Command timed out');
          written.push(...batch);
          return [];
        },
      };
      return chain;
    };
    const queues = { prefix: 'p', redis: { multi } } as unknown as QueueService;
    const service = new AskEventsService(queues, {} as RedisChannelsService, {} as AppConfig);
    const out = service.publisher('a1');
    const first = out.publish({ kind: 'chunk', text: 'one' });
    const second = out.publish({ kind: 'chunk', text: 'two' });
    const third = out.publish({ kind: 'chunk', text: 'three' });
    await expect(first).resolves.toBeUndefined();
    await expect(second).rejects.toThrow('Command timed out');
    await expect(third).resolves.toBeUndefined();
    expect(written.map((e) => JSON.parse(e)).map((e) => [e.seq, e.text])).toEqual([[1, 'one'], [3, 'three']]);
  });
});
