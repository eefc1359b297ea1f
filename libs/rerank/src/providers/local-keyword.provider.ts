import { poolBm25, weightedTerms } from '@scopegraph/search';
import { PromptRequest, PromptScope } from '../prompt/prompt';
import { CandidateScore } from '../rerank.types';
import { ParsedBatch } from '../scoring/score-parser';
import { RerankProvider } from './rerank-provider';

/** Where a question word is found matters: a name match says more than a mention in the body. */
const FIELD_WEIGHTS = { name: 3, signature: 2, doc: 1.5, path: 1, source: 1 } as const;
const MIN_TOKEN_LENGTH = 2;
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from how i in into is it its me my of on or so that the their then there this to was what when where which who why will with you your code function method class find show'.split(
    ' ',
  ),
);

/**
 * Splits identifiers and prose into lower-case sub-tokens (`parseFileAnalysis` -> parse, file,
 * analysis; `snake_case` -> snake, case), drops stop words, and folds simple plurals.
 */
export function keywordTokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= MIN_TOKEN_LENGTH && !STOP_WORDS.has(t))
    .map(stem);
}

function stem(token: string): string {
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 3 && token.endsWith('s') && !/(ss|is|us)$/.test(token)) return token.slice(0, -1);
  return token;
}

/**
 * The reranker without any model or key: BM25F-like overlap between the question's words and each
 * scope's name, signature, doc comment, path and source, normalised by the batch's best. It is
 * labelled `local-keyword` everywhere and gives no reasoning: it has none to give.
 */
export class LocalKeywordProvider implements RerankProvider {
  readonly name = 'local-keyword' as const;
  readonly model = 'bm25f-identifiers';
  readonly kind = 'local' as const;
  readonly strategies = ['pointwise'] as const;
  readonly feedback = false;

  async scoreBatch(request: PromptRequest): Promise<ParsedBatch> {
    return { scores: this.score(request.question, request.scopes, request.sourceChars), feedback: null, ignored: { duplicates: 0, invented: 0 } };
  }

  score(question: string, scopes: PromptScope[], sourceChars: number): Record<string, CandidateScore> {
    const terms = [...new Set(keywordTokens(question))];
    const raw = poolBm25(
      scopes.map((s) =>
        weightedTerms([
          [keywordTokens(s.qualifiedName ?? s.name ?? ''), FIELD_WEIGHTS.name],
          [keywordTokens(s.signature ?? ''), FIELD_WEIGHTS.signature],
          [keywordTokens(s.docComment ?? ''), FIELD_WEIGHTS.doc],
          [keywordTokens(s.path ?? ''), FIELD_WEIGHTS.path],
          [keywordTokens((s.source ?? '').slice(0, sourceChars)), FIELD_WEIGHTS.source],
        ]),
      ),
      terms,
    );
    const best = Math.max(0, ...raw);
    const scores: Record<string, CandidateScore> = {};
    scopes.forEach((s, i) => {
      scores[s.id] = { llm: best > 0 ? raw[i] / best : 0, relevant: null, reasoning: null, note: null };
    });
    return scores;
  }
}
