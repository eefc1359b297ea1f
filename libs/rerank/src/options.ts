import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import {
  RERANK_DEFAULTS,
  RERANK_LIMITS,
  RERANK_STRATEGIES,
  RerankCandidate,
  RerankOptions,
  RerankOptionsInput,
  SCHEDULINGS,
  SCORE_MERGINGS,
} from './rerank.types';

/** Defaults that come from configuration rather than from the table. */
export interface ConfiguredDefaults {
  timeoutMs: number;
  batchTimeoutMs: number;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * Fills defaults and checks every option, throwing a DomainError that names the field as the
 * GraphQL input spells it (`options.batchSize`). Also used by the search API's `rerank: {...}`.
 */
export function normalizeOptions(input: RerankOptionsInput | undefined | null, defaults: ConfiguredDefaults, prefix = 'options'): RerankOptions {
  const o = input ?? {};
  const field = (name: string) => `${prefix}.${name}`;
  const fail = (name: string, message: string): never => {
    throw new DomainError(DomainErrorCode.RerankInvalidOption, `${field(name)} ${message}`, field(name));
  };
  const int = (name: keyof RerankOptionsInput, value: unknown, min: number, max: number): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(name, `must be an integer in ${min}..${max}`);
    return value as number;
  };
  const oneOf = <T extends string>(name: keyof RerankOptionsInput, value: unknown, allowed: readonly T[]): T => {
    if (!allowed.includes(value as T)) fail(name, `must be one of ${allowed.join(', ')}`);
    return value as T;
  };

  const batchSize = int('batchSize', o.batchSize ?? RERANK_DEFAULTS.batchSize, RERANK_LIMITS.batchSize.min, RERANK_LIMITS.batchSize.max);
  const parallel = int('parallel', o.parallel ?? RERANK_DEFAULTS.parallel, RERANK_LIMITS.parallel.min, RERANK_LIMITS.parallel.max);
  const minScore = o.minScore ?? RERANK_DEFAULTS.minScore;
  if (typeof minScore !== 'number' || !Number.isFinite(minScore) || minScore < 0 || minScore > 1) fail('minScore', 'must be a number in 0..1');
  const withSuggestions = o.withSuggestions ?? RERANK_DEFAULTS.withSuggestions;
  if (typeof withSuggestions !== 'boolean') fail('withSuggestions', 'must be true or false');
  const scoreMerging = oneOf('scoreMerging', o.scoreMerging ?? RERANK_DEFAULTS.scoreMerging, SCORE_MERGINGS);
  const weights = { vector: o.weights?.vector ?? RERANK_DEFAULTS.weights.vector, llm: o.weights?.llm ?? RERANK_DEFAULTS.weights.llm };
  for (const key of ['vector', 'llm'] as const) {
    const w = weights[key];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) fail(`weights.${key}` as keyof RerankOptionsInput, 'must be a finite number >= 0');
  }
  if (weights.vector + weights.llm === 0) fail('weights', 'vector and llm cannot both be 0');
  const candidateCount = o.candidateCount == null ? null : int('candidateCount', o.candidateCount, 1, RERANK_LIMITS.candidates.max);
  const timeoutMs = int('timeoutMs', o.timeoutMs ?? defaults.timeoutMs, RERANK_LIMITS.timeoutMs.min, RERANK_LIMITS.timeoutMs.max);
  const batchTimeoutMs = int(
    'batchTimeoutMs',
    o.batchTimeoutMs ?? Math.min(defaults.batchTimeoutMs, timeoutMs),
    RERANK_LIMITS.batchTimeoutMs.min,
    RERANK_LIMITS.batchTimeoutMs.max,
  );
  const strategy = oneOf('strategy', o.strategy ?? RERANK_DEFAULTS.strategy, RERANK_STRATEGIES);
  const shuffleSeed = o.shuffleSeed == null ? null : int('shuffleSeed', o.shuffleSeed, INT32_MIN, INT32_MAX);
  const limit = o.limit == null ? null : int('limit', o.limit, RERANK_LIMITS.limit.min, RERANK_LIMITS.limit.max);
  const scheduling = oneOf('scheduling', o.scheduling ?? RERANK_DEFAULTS.scheduling, SCHEDULINGS);
  return { batchSize, parallel, minScore, withSuggestions, scoreMerging, weights, candidateCount, timeoutMs, batchTimeoutMs, strategy, shuffleSeed, limit, scheduling };
}

export function validateQuestion(question: unknown, queryDescription: unknown): void {
  if (typeof question !== 'string' || question.trim().length === 0) {
    throw new DomainError(DomainErrorCode.RerankInvalidQuestion, 'question must not be empty', 'question');
  }
  if (question.length > RERANK_LIMITS.questionChars) {
    throw new DomainError(DomainErrorCode.RerankInvalidQuestion, `question must be at most ${RERANK_LIMITS.questionChars} characters`, 'question');
  }
  if (queryDescription != null && (typeof queryDescription !== 'string' || queryDescription.length > RERANK_LIMITS.queryDescriptionChars)) {
    throw new DomainError(
      DomainErrorCode.RerankInvalidQuestion,
      `queryDescription must be a string of at most ${RERANK_LIMITS.queryDescriptionChars} characters`,
      'queryDescription',
    );
  }
}

/** Ids must be unique non-empty strings and scores finite: a duplicate would be judged twice and merged once. */
export function validateCandidates(candidates: RerankCandidate[], field = 'candidates'): void {
  if (!Array.isArray(candidates)) throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `${field} must be a list`, field);
  if (candidates.length > RERANK_LIMITS.candidates.max) {
    throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `${field} may hold at most ${RERANK_LIMITS.candidates.max} scopes`, field);
  }
  const seen = new Set<string>();
  candidates.forEach((c, i) => {
    if (typeof c?.id !== 'string' || c.id.length === 0) throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `${field}[${i}].id must be a non-empty string`, field);
    if (seen.has(c.id)) throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `${field} holds ${JSON.stringify(c.id)} twice`, field);
    seen.add(c.id);
    if (typeof c.retrievalScore !== 'number' || !Number.isFinite(c.retrievalScore)) {
      throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `${field}[${i}].retrievalScore must be a finite number`, field);
    }
  });
}
