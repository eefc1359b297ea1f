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
});
