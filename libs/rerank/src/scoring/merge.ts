import { MergeWeights, ScoreMerging } from '../rerank.types';
import { clamp01 } from './score-parser';

/** llm-override: above this LLM score the LLM alone decides (a confident judge beats retrieval order). */
export const LLM_OVERRIDE_THRESHOLD = 0.9;
/** llm-override: below the threshold, an even blend. */
const OVERRIDE_BLEND = 0.5;

/**
 * Three ways of combining the retrieval score with the reranker's, both on [0, 1]:
 *  - weighted:       (w.vector·retrieval + w.llm·llm) / (w.vector + w.llm)   (defaults 0.3 / 0.7, which sum to 1:
 *                    exactly the seed's 0.3·vector + 0.7·llm; other weights are normalised so the result stays on [0, 1])
 *  - multiplicative: retrieval · llm   (both must agree)
 *  - llm-override:   llm when llm > 0.9, else 0.5·retrieval + 0.5·llm
 */
export function mergeScores(method: ScoreMerging, retrieval: number, llm: number, weights: MergeWeights): number {
  switch (method) {
    case 'weighted':
      return clamp01((weights.vector * retrieval + weights.llm * llm) / (weights.vector + weights.llm));
    case 'multiplicative':
      return clamp01(retrieval * llm);
    case 'llm-override':
      return llm > LLM_OVERRIDE_THRESHOLD ? llm : clamp01(OVERRIDE_BLEND * retrieval + OVERRIDE_BLEND * llm);
  }
}

/**
 * Retrieval scores on [0, 1], so they can be merged with a reranker score: kept as they are when all
 * already lie there (cosine similarity), else divided by the list's best (RRF sums, BM25). Anything
 * not finite or negative counts as 0.
 */
export function normalizeRetrievalScores(scores: number[]): number[] {
  const clean = scores.map((s) => (Number.isFinite(s) && s > 0 ? s : 0));
  if (clean.every((s) => s <= 1)) return clean;
  const best = Math.max(...clean);
  return clean.map((s) => s / best);
}
