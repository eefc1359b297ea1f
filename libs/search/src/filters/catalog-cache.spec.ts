import { CatalogCache } from './catalog-cache';

describe('CatalogCache', () => {
  const clockAt = () => {
    const clock = { t: 0, now: () => clock.t };
    return clock;
  };

  it('answers from memory until the TTL has passed, then reads again', async () => {
    const clock = clockAt();
    const cache = new CatalogCache<number>(100, clock.now);
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('k', load)).toBe(1);
    clock.t = 99;
    expect(await cache.get('k', load)).toBe(1);
    clock.t = 100;
    expect(await cache.get('k', load)).toBe(2);
    expect(await cache.get('other', load)).toBe(3);
  });

  it('shares one read among concurrent callers, and `fresh` replaces it', async () => {
    const cache = new CatalogCache<number>(100, clockAt().now);
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      reads++;
      await gate;
      return reads;
    };
    const both = Promise.all([cache.get('k', load), cache.get('k', load)]);
    release();
    expect(await both).toEqual([1, 1]);
    expect(await cache.get('k', load, true)).toBe(2);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not remember a failed read', async () => {
    const cache = new CatalogCache<number>(100, clockAt().now);
    await expect(cache.get('k', () => Promise.reject(new Error('neo4j down')))).rejects.toThrow('neo4j down');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const cache = new CatalogCache<string>(100, clockAt().now, 2);
    let reads = 0;
    const load = (v: string) => async () => (reads++, v);
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    await cache.get('b', load('b'));
    expect(reads).toBe(3);
    await cache.get('a', load('a'));
    expect(reads).toBe(4);
  });

  it('remembers nothing with a TTL of 0', async () => {
    const cache = new CatalogCache<number>(0, clockAt().now);
    let reads = 0;
    await cache.get('k', async () => ++reads);
    await cache.get('k', async () => ++reads);
    expect(reads).toBe(2);
  });
  it('within staleMs past the TTL serves the last answer while one background read replaces it', async () => {
    const clock = clockAt();
    const cache = new CatalogCache<number>(100, clock.now, 256, 1_000);
    let reads = 0;
    let release!: () => void;
    let gate = Promise.resolve();
    const load = async () => {
      const n = ++reads;
      await gate;
      return n;
    };
    expect(await cache.get('k', load)).toBe(1);
    clock.t = 150;
    gate = new Promise<void>((r) => (release = r));
    // Past the TTL: the old answer at once, one read started, and no second read while it runs.
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    expect(reads).toBe(2);
    release();
    await gate;
    await Promise.resolve();
    expect(await cache.get('k', load)).toBe(2);
    expect(reads).toBe(2);
    // Past TTL + staleMs of the refreshed answer (read at t=150): callers wait for a new read.
    clock.t = 150 + 100 + 1_000;
    gate = new Promise<void>((r) => (release = r));
    const waited = cache.get('k', load);
    let done = false;
    void waited.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    release();
    expect(await waited).toBe(3);
  });

  it('keeps the stale answer when the background read fails, and tries again on the next call', async () => {
    const clock = clockAt();
    const cache = new CatalogCache<number>(100, clock.now, 256, 1_000);
    expect(await cache.get('k', async () => 1)).toBe(1);
    clock.t = 200;
    let failed = 0;
    const failing = async (): Promise<number> => {
      failed++;
      throw new Error('neo4j busy');
    };
    expect(await cache.get('k', failing)).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(await cache.get('k', async () => 5)).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(failed).toBe(1);
    expect(await cache.get('k', async () => 6)).toBe(5);
  });

  it('never serves an answer still being read as stale, nor one past its window without staleMs', async () => {
    const clock = clockAt();
    const cache = new CatalogCache<number>(100, clock.now);
    expect(await cache.get('k', async () => 1)).toBe(1);
    clock.t = 101;
    expect(await cache.get('k', async () => 2)).toBe(2);
  });
});
