import type { FilterStrategyChoice, VectorStrategyName } from '../search.types';

/**
 * How the semantic list honours filters. The vector index answers "k nearest" and a WHERE after it
 * can leave fewer than k, so per query:
 *  - no filters                          -> `unfiltered-index`: db.index.vector.queryNodes
 *  - no scope passes                     -> `empty`: nothing to search
 *  - few pass (count <= exactMax)        -> `exact-prefilter`: filter first, cosine over each (exact)
 *  - many pass, index properties only    -> `index-filter`: SEARCH ... WHERE inside the index
 *  - the repositories alone filter, and  -> `index-postfilter`: the unfiltered index for a k a little
 *    they hold >= INDEX_SHARE_MIN of the    over wanted / share, the filters applied exactly after
 *    index's vectors                        (falls back to `index-filter` when too few survive)
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
  /**
   * Share of the vector index's vectors that pass the filters: known when the filters are
   * repositories alone and no other repository is being indexed (null or absent: unknown).
   */
  indexShare?: number | null;
}

/**
 * From this share of the index's vectors in the searched repositories on, the unfiltered index plus
 * an exact post-filter answers instead of SEARCH ... WHERE: filtering inside the index costs ~1.3x
 * the HNSW work even when every vector passes (107k scopes, docs/ingest-scale.md), and at 1M scopes
 * more (measured there). Below it the post-filter would throw away too much of what the index read.
 */
export const INDEX_SHARE_MIN = 0.8;

/** k for the unfiltered index so that about `wanted` of its hits pass a filter that `share` of the vectors pass. */
export function postfilterK(wanted: number, share: number): number {
  return Math.ceil((wanted / share) * (2 - share)) + 1;
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
  const share = input.indexShare ?? null;
  if (!hasPostFilters && share !== null && share >= INDEX_SHARE_MIN) {
    return {
      name: 'index-postfilter',
      reason:
        `the searched repositories hold ${Math.floor(share * 1000) / 10}% of the vector index (at least ${INDEX_SHARE_MIN * 100}%): ` +
        'the unfiltered index, asked for a little over wanted / share, and the filters applied after cost less than filtering inside it',
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

/**
 * How the keyword list asks Lucene for its top k when the Lucene query holds every filter: for `wanted`
 * hits, and without the repository clause when the searched repositories hold at least
 * INDEX_SHARE_MIN of the full-text index (`share`; null: unknown). A required clause matching every
 * document of a million-scope repository cost more than the words themselves (168 vs 62 ms median
 * at 1M, docs/ingest-scale.md); without it a little over wanted / share are asked for and the exact
 * filters cut them, falling back to the full list when too few survive.
 */
export function keywordLuceneK(wanted: number, share: number | null): { luceneK: number; withoutRepositoryClause: boolean } {
  if (share !== null && share >= INDEX_SHARE_MIN) return { luceneK: postfilterK(wanted, share), withoutRepositoryClause: true };
  return { luceneK: wanted, withoutRepositoryClause: false };
}

/**
 * From this many vectors in the index on, hybrid's two lists run as two statements at once rather than
 * joined into one: at a million scopes each list costs tens of ms of Neo4j's time (an HNSW search over
 * the whole index, a Lucene top k over a million documents) and the joined statement runs them one
 * after the other on one thread, while a second round trip costs ~1 ms of CPU (docs/ingest-scale.md,
 * "Hybrid's two lists at 1M"). Below it the lists cost a few ms each and the joined statement's saved
 * round trip is worth more under load (docs/search-load-profile.md).
 */
export const LISTS_APART_MIN_VECTORS = 200_000;

/** Whether hybrid's lists run apart (two statements at once), given the vectors in the index (null: unknown). */
export function listsApart(indexVectors: number | null): boolean {
  return indexVectors !== null && indexVectors >= LISTS_APART_MIN_VECTORS;
}
