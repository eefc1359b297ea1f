import { createHash } from 'node:crypto';
import { PROMPT_VERSION } from '../prompt/prompt';
import { RerankerName, RerankStrategy } from '../rerank.types';

export interface BatchCacheKeyInput {
  reranker: RerankerName;
  model: string;
  strategy: RerankStrategy;
  question: string;
  queryDescription: string | null;
  /** Only the batch that asks for feedback differs. */
  withSuggestions: boolean;
  shuffleSeed: number | null;
  sourceChars: number;
  /** The batch's scopes in the order they are judged. */
  scopes: Array<{ id: string; contentHash: string | null; fallbackHash: string }>;
}

/**
 * One batch's cache key: sha256 of everything that changes what the model is asked — the question,
 * each scope's id and content hash (an edited scope is judged again), model, prompt version,
 * strategy — and, because they change the prompt too, the provider, the query description, whether
 * feedback is asked, the shuffle seed and how much source is shown. Merging options (weights,
 * minScore, limit) are applied after the cache, so they do not split it.
 */
export function batchCacheKey(input: BatchCacheKeyInput): string {
  const parts = [
    `prompt-v${PROMPT_VERSION}`,
    input.reranker,
    input.model,
    input.strategy,
    input.question,
    input.queryDescription ?? '',
    input.withSuggestions ? 'feedback' : '',
    input.shuffleSeed ?? '',
    input.sourceChars,
    input.scopes.map((s) => [s.id, s.contentHash ?? `local:${s.fallbackHash}`]),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** For candidates without a contentHash from the graph: a hash of what the prompt shows of them. */
export function contentFingerprint(scope: { name: string; kind: string; path: string; signature: string | null; source: string | null }): string {
  return createHash('sha256').update(JSON.stringify([scope.name, scope.kind, scope.path, scope.signature, scope.source])).digest('hex').slice(0, 32);
}
