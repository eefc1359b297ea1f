/** Optional provider of the rerank clock (`Clock` from @scopegraph/config); the system clock when absent. */
export const RERANK_CLOCK = Symbol('RERANK_CLOCK');
