import { PromptRequest } from '../prompt/prompt';
import { RerankerName, RerankStrategy } from '../rerank.types';
import { ParsedBatch } from '../scoring/score-parser';

/** Injection token of the configured RerankProvider (RERANK_PROVIDER picks which). */
export const RERANK_PROVIDER = Symbol('RERANK_PROVIDER');

/**
 * One reranker behind one interface: it scores one batch. Transport failures are thrown as
 * ModelCallError (the batch scorer retries or falls back), unusable answers as MalformedOutputError.
 */
export interface RerankProvider {
  readonly name: RerankerName;
  readonly model: string;
  /** llm: judges with a prompt (reasoning, feedback); cross-encoder: a rerank API's scores; local: no model. */
  readonly kind: 'llm' | 'cross-encoder' | 'local';
  /** The strategies it applies; any other is replaced by the first, with a note in the result. */
  readonly strategies: readonly RerankStrategy[];
  /** Whether it can give query feedback (withSuggestions). */
  readonly feedback: boolean;
  scoreBatch(request: PromptRequest, signal: AbortSignal): Promise<ParsedBatch>;
}
