import { EventInbox } from './event-inbox';

describe('EventInbox', () => {
  it('delivers events pushed before and while the consumer reads, in order, and stops when it returns', async () => {
    const inbox = new EventInbox<number>();
    inbox.push(1);
    inbox.push(2);
    expect(inbox.some((n) => n === 2)).toBe(true);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const n of inbox) {
        seen.push(n);
        if (n === 4) return;
      }
    })();
    await Promise.resolve();
    inbox.push(3);
    inbox.push(4);
    inbox.push(5);
    await reading;
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});
