import type { EmbeddingProvider } from './embedding-provider';
import { withQueryBatching } from './query-batching';

/** A provider whose calls finish when the test says so, recording what each call embedded. */
function controlledProvider() {
  const calls: string[][] = [];
  const releases: (() => void)[] = [];
  let failNext: Error | undefined;
  const embed = (texts: string[]) =>
    new Promise<number[][]>((resolve, reject) => {
      calls.push(texts);
      const error = failNext;
      failNext = undefined;
      releases.push(() => (error ? reject(error) : resolve(texts.map((t) => [t.length, calls.length]))));
    });
  const provider: EmbeddingProvider = {
    name: 'local',
    model: 'test',
    dimensions: 2,
    embedDocuments: embed,
    embedQuery: async (text) => (await embed([text]))[0],
  };
  const releaseAll = async () => {
    while (releases.length) releases.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { provider, calls, releaseAll, failOnce: (e: Error) => (failNext = e) };
}

describe('withQueryBatching', () => {
  it('embeds every query that waited during a model call in one next call', async () => {
    const { provider, calls, releaseAll } = controlledProvider();
    withQueryBatching(provider, { maxBatch: 32, cacheSize: 100, batch: true });
    const first = provider.embedQuery('a');
    const rest = ['bb', 'ccc', 'dddd'].map((t) => provider.embedQuery(t));
    expect(calls).toEqual([['a']]);
    await releaseAll();
    expect(calls).toEqual([['a'], ['bb', 'ccc', 'dddd']]);
    await releaseAll();
    expect(await first).toEqual([1, 1]);
    expect(await Promise.all(rest)).toEqual([
      [2, 2],
      [3, 2],
      [4, 2],
    ]);
  });

  it('answers a repeated query from the cache and joins one in flight', async () => {
    const { provider, calls, releaseAll } = controlledProvider();
    withQueryBatching(provider, { maxBatch: 32, cacheSize: 100, batch: true });
    const one = provider.embedQuery('same');
    const two = provider.embedQuery('same');
    await releaseAll();
    expect(await one).toEqual(await two);
    expect(await provider.embedQuery('same')).toEqual([4, 1]);
    expect(calls).toEqual([['same']]);
  });

  it('bounds the batch and the cache', async () => {
    const { provider, calls, releaseAll } = controlledProvider();
    withQueryBatching(provider, { maxBatch: 2, cacheSize: 1, batch: true });
    const all = ['a', 'b', 'c', 'd', 'e'].map((t) => provider.embedQuery(t));
    for (let i = 0; i < 4; i++) await releaseAll();
    await Promise.all(all);
    expect(calls).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    // The cache holds one vector ('e'): 'a' needs a model call again.
    const again = provider.embedQuery('a');
    expect(calls.length).toBe(4);
    await releaseAll();
    await again;
  });

  it('fails every query of a failed call, and the next call starts afresh', async () => {
    const { provider, releaseAll, failOnce } = controlledProvider();
    withQueryBatching(provider, { maxBatch: 32, cacheSize: 100, batch: true });
    failOnce(new Error('model down'));
    const failed = provider.embedQuery('x').catch((e: Error) => e.message);
    await releaseAll();
    expect(await failed).toBe('model down');
    const again = provider.embedQuery('x');
    await releaseAll();
    expect(await again).toEqual([1, 2]);
  });
});
