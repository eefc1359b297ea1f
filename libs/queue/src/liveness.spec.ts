import { Liveness, LIVENESS_OUTAGE_MS } from './liveness';

describe('Liveness.check', () => {
  let now = 0;
  const clock = { now: () => now };
  const down = () => Promise.reject(new Error('Connection is closed.'));
  let liveness: Liveness;
  beforeEach(() => {
    now = 1_000;
    liveness = new Liveness(() => undefined, clock);
  });
  afterEach(() => liveness.stop());

  it('answers the check while Redis answers', async () => {
    await expect(liveness.check(async () => 'alive')).resolves.toBe('alive');
  });

  it('waits out an unreachable Redis (undefined) up to LIVENESS_OUTAGE_MS, then ends with its error', async () => {
    await expect(liveness.check(down)).resolves.toBeUndefined();
    now += LIVENESS_OUTAGE_MS;
    await expect(liveness.check(down)).resolves.toBeUndefined();
    now += 1;
    await expect(liveness.check(down)).rejects.toThrow('Connection is closed.');
  });

  it('starts counting the outage again once Redis answered', async () => {
    await liveness.check(down);
    now += LIVENESS_OUTAGE_MS;
    await liveness.check(async () => 'back');
    now += 1;
    await expect(liveness.check(down)).resolves.toBeUndefined();
  });

  it('ends at once with an error that is not an outage (the work is gone)', async () => {
    await expect(liveness.check(() => Promise.reject(new Error('rerank "x" was lost')))).rejects.toThrow('was lost');
  });
});
