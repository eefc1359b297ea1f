import { JsonChatClient } from '@scopegraph/llm';
import { buildPrompt, PromptRequest } from '../prompt/prompt';
import { RERANK_STRATEGIES } from '../rerank.types';
import { ParsedBatch, parseBatchAnswer } from '../scoring/score-parser';
import { RerankProvider } from './rerank-provider';

/**
 * An LLM as reranker (Gemini through LangChain with a response schema, or any OpenAI-compatible
 * server in JSON mode): the same prompt (candidates escaped) and the same tolerant parser for both.
 * The raw text is always parsed by our parser, not trusted to the schema: a model that answers
 * "score": "high" or wraps JSON in prose still yields scores.
 */
export class LlmJudgeProvider implements RerankProvider {
  readonly kind = 'llm' as const;
  readonly strategies = RERANK_STRATEGIES;
  readonly feedback = true;

  constructor(private readonly client: JsonChatClient) {}

  get name() {
    return this.client.provider;
  }

  get model() {
    return this.client.model;
  }

  async scoreBatch(request: PromptRequest, signal: AbortSignal): Promise<ParsedBatch> {
    const prompt = buildPrompt(request);
    const answer = await this.client.generateJson({ system: prompt.system, user: prompt.user, schema: prompt.schema, signal });
    return parseBatchAnswer(answer.text, prompt.localIds, request.strategy);
  }
}
