import type { SearchPlan, SearchResponse } from './search.types';

/** What a search asks of a reranker: the question the hits should answer and its options. */
export interface SearchRerankRequest {
  question: string;
  /** Options as the reranker defines them (batchSize, parallel, strategy, scoreMerging, ...). */
  options: Record<string, unknown>;
  /** How many retrieved hits go to the reranker (the final list keeps `limit`). */
  candidateCount: number;
}

/** A started rerank: its job id to watch (rerankProgress) and, when it finished at once, its result. */
export interface SearchRerankHandle {
  jobId: string;
  status: string;
  skipped: boolean;
  total: number;
  result?: unknown;
}

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
