import type { SearchPlan, SearchRerankHandle, SearchResponse } from './search.types';

/**
 * Implemented by libs/rerank and provided under SEARCH_RERANKER; libs/search only knows this shape,
 * so search does not depend on the reranker and runs without one.
 */
export interface SearchReranker {
  rerank(plan: SearchPlan, response: SearchResponse): Promise<SearchRerankHandle>;
}

export const SEARCH_RERANKER = Symbol('SEARCH_RERANKER');

/** Retrieval depth for a reranked query when the caller does not say: enough to reorder, bounded. */
export function defaultRerankCandidates(limit: number): number {
  return Math.min(MAX_RERANK_CANDIDATES, Math.max(limit * 3, MIN_RERANK_CANDIDATES));
}
export const MIN_RERANK_CANDIDATES = 30;
export const MAX_RERANK_CANDIDATES = 200;
