import { CrossEncoderRerankClient } from '@scopegraph/llm';
import { crossEncoderDocument, PromptRequest } from '../prompt/prompt';
import { MalformedOutputError } from '../rerank.errors';
import { CandidateScore } from '../rerank.types';
import { clamp01, ParsedBatch } from '../scoring/score-parser';
import { RerankProvider } from './rerank-provider';

/**
 * Cohere / Voyage cross-encoder rerank APIs: a relevance score per document, no
 * reasoning (left null, never made up) and no query feedback. Indices outside the batch or repeated
 * are ignored and counted, like an LLM's invented or duplicate ids.
 */
export class CrossEncoderProvider implements RerankProvider {
  readonly kind = 'cross-encoder' as const;
  readonly strategies = ['pointwise'] as const;
  readonly feedback = false;

  constructor(private readonly client: CrossEncoderRerankClient) {}

  get name() {
    return this.client.provider;
  }

  get model() {
    return this.client.model;
  }

  async scoreBatch(request: PromptRequest, signal: AbortSignal): Promise<ParsedBatch> {
    const documents = request.scopes.map((s) => crossEncoderDocument(s, request.sourceChars));
    const results = await this.client.rerank(request.question, documents, signal);
    const scores: Record<string, CandidateScore> = {};
    const ignored = { duplicates: 0, invented: 0 };
    for (const r of results) {
      const scope = request.scopes[r.index];
      if (!scope) {
        ignored.invented++;
        continue;
      }
      if (scores[scope.id]) {
        ignored.duplicates++;
        continue;
      }
      const llm = Number.isFinite(r.relevanceScore) ? clamp01(r.relevanceScore) : null;
      scores[scope.id] = { llm, relevant: null, reasoning: null, note: llm === null ? 'unreadable-score' : null };
    }
    if (Object.keys(scores).length === 0) throw new MalformedOutputError(`${this.name} returned no score for any document of the batch`, 'empty-output');
    return { scores, feedback: null, ignored };
  }
}
