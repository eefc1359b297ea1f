import type { FilterStrategyChoice, VectorStrategyName } from '../search.types';

/**
 * How the semantic list honours filters. The vector index answers "k nearest" and a WHERE after it
 * can leave fewer than k, so per query:
 *  - no filters                          -> `unfiltered-index`: db.index.vector.queryNodes
 *  - no scope passes                     -> `empty`: nothing to search
 *  - few pass (count <= exactMax)        -> `exact-prefilter`: filter first, cosine over each (exact)
 *  - many pass, index properties only    -> `index-filter`: SEARCH ... WHERE inside the index
 *  - many pass, path/name filters too    -> `overfetch-postfilter`: SEARCH ... WHERE for the index
 *                                           properties, k × factor, post-filter, grow k until enough
 */

export interface StrategyInput {
  /** Any filter at all (repository, path, language, kind, name). */
  hasFilters: boolean;
  /** Filters the vector index cannot apply itself (path contains/glob, name). */
  hasPostFilters: boolean;
  /** Embedded scopes passing the filters, counted up to exactMax + 1 (null: not counted). */
  count: number | null;
  exactMax: number;
  choice: FilterStrategyChoice;
}

export interface StrategyChoice {
  name: VectorStrategyName;
  reason: string;
}

export function chooseVectorStrategy(input: StrategyInput): StrategyChoice {
  const { hasFilters, hasPostFilters, count, exactMax, choice } = input;
  if (!hasFilters) return { name: 'unfiltered-index', reason: 'no filters: nearest neighbors straight from the vector index' };
  if (count === 0) return { name: 'empty', reason: 'no embedded scope passes the filters' };
  const many = count === null || count > exactMax;
  const size = count === null ? 'an uncounted number of' : many ? `more than ${exactMax}` : `${count}`;
  const indexed = hasPostFilters
    ? {
        name: 'overfetch-postfilter' as const,
        reason:
          `${size} embedded scopes pass the filters; path/name are not vector index properties, so SEARCH ... WHERE ` +
          'filters repository/kind/language inside the index, over-fetches, post-filters and grows k until topK survive',
      }
    : {
        name: 'index-filter' as const,
        reason: `${size} embedded scopes pass the filters, all of them vector index filter properties: SEARCH ... WHERE filters inside the index`,
      };
  if (choice === 'exact') {
    return { name: 'exact-prefilter', reason: `forced: brute-force cosine over the ${size} scopes that pass the filters` };
  }
  if (choice === 'overfetch') return { ...indexed, reason: `forced: ${indexed.reason}` };
  if (!many) {
    return {
      name: 'exact-prefilter',
      reason: `${count} embedded scopes pass the filters (at most ${exactMax}): brute-force cosine over all of them is exact and cheap`,
    };
  }
  return indexed;
}

/** Next k for an over-fetch round: double, capped; null when growing cannot help any more. */
export function nextOverfetchK(round: { k: number; pool: number; kept: number; wanted: number; maxK: number }): number | null {
  const { k, pool, kept, wanted, maxK } = round;
  if (kept >= wanted) return null;
  // The index returned fewer than asked: every scope passing the index filters was seen already.
  if (pool < k) return null;
  if (k >= maxK) return null;
  return Math.min(k * 2, maxK);
}
