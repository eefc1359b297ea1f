import { isDeepStrictEqual } from 'node:util';

/**
 * Expects `actual()` to equal `expected()`, read while the shared store holds still, and returns what
 * `actual()` gave. BM25 scores come from the whole full-text index's statistics (document count, mean
 * length), so a spec indexing or deleting beside this one (e2e specs run two at a time) can change a
 * score between two reads of the same query. `expected()` is read before and after `actual()`: when the
 * two agree nothing moved in between and the comparison stands; when they differ the three reads are
 * taken again. A real difference fails on the first still round; a store that never holds still fails
 * after `rounds`, saying so.
 */
export async function expectEqualWhileStill<T>(actual: () => Promise<T>, expected: () => Promise<T>, rounds = 6): Promise<T> {
  for (let round = 1; ; round++) {
    const before = await expected();
    const got = await actual();
    const after = await expected();
    if (isDeepStrictEqual(before, after)) {
      expect(got).toEqual(before);
      return got;
    }
    if (round === rounds) throw new Error(`the store changed during each of ${rounds} comparisons: the expected side read differently before and after`);
  }
}
