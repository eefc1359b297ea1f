import { DomainErrorCode } from '@scopegraph/errors';
import { normalizeOptions, validateCandidates, validateQuestion } from './options';
import { RerankCandidate } from './rerank.types';

const DEFAULTS = { timeoutMs: 60_000, batchTimeoutMs: 20_000 };

describe('normalizeOptions', () => {
  it('fills the issue\'s defaults', () => {
    expect(normalizeOptions(undefined, DEFAULTS)).toEqual({
      batchSize: 10,
      parallel: 5,
      minScore: 0,
      withSuggestions: false,
      scoreMerging: 'weighted',
      weights: { vector: 0.3, llm: 0.7 },
      candidateCount: null,
      timeoutMs: 60_000,
      batchTimeoutMs: 20_000,
      strategy: 'pointwise',
      shuffleSeed: null,
      limit: null,
      scheduling: 'pool',
    });
  });

  it('never lets one batch outlive the whole rerank by default', () => {
    expect(normalizeOptions({ timeoutMs: 3_000 }, DEFAULTS).batchTimeoutMs).toBe(3_000);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ batchSize: 0 }, 'options.batchSize'],
    [{ batchSize: 2.5 }, 'options.batchSize'],
    [{ parallel: 21 }, 'options.parallel'],
    [{ minScore: -0.1 }, 'options.minScore'],
    [{ minScore: Number.NaN }, 'options.minScore'],
    [{ scoreMerging: 'average' }, 'options.scoreMerging'],
    [{ weights: { vector: -1 } }, 'options.weights.vector'],
    [{ weights: { llm: Number.POSITIVE_INFINITY } }, 'options.weights.llm'],
    [{ weights: { vector: 0, llm: 0 } }, 'options.weights'],
    [{ candidateCount: 0 }, 'options.candidateCount'],
    [{ timeoutMs: 50 }, 'options.timeoutMs'],
    [{ batchTimeoutMs: 10 }, 'options.batchTimeoutMs'],
    [{ strategy: 'pairwise' }, 'options.strategy'],
    [{ shuffleSeed: 2 ** 40 }, 'options.shuffleSeed'],
    [{ limit: 0 }, 'options.limit'],
    [{ scheduling: 'random' }, 'options.scheduling'],
    [{ withSuggestions: 'yes' }, 'options.withSuggestions'],
  ])('%j is refused naming %s', (input, field) => {
    expect(() => normalizeOptions(input as never, DEFAULTS)).toThrow(expect.objectContaining({ field, name: 'DomainError', code: DomainErrorCode.RerankInvalidOption }));
  });

  it('names fields under another prefix (the search input\'s rerank: {...})', () => {
    expect(() => normalizeOptions({ parallel: 0 }, DEFAULTS, 'rerank')).toThrow(expect.objectContaining({ field: 'rerank.parallel' }));
  });
});

describe('validateQuestion / validateCandidates', () => {
  const c = (id: string, retrievalScore = 1): RerankCandidate => ({
    id,
    name: id,
    qualifiedName: id,
    kind: 'function',
    language: 'typescript',
    path: 'a.ts',
    signature: null,
    source: null,
    contentHash: null,
    retrievalScore,
    retrievalRank: 1,
  });

  it('refuses an empty or huge question and a duplicate or scoreless candidate', () => {
    expect(() => validateQuestion(' ', null)).toThrow(expect.objectContaining({ field: 'question' }));
    expect(() => validateQuestion('x'.repeat(2_001), null)).toThrow(expect.objectContaining({ field: 'question' }));
    expect(() => validateQuestion('ok', 'y'.repeat(4_001))).toThrow(expect.objectContaining({ field: 'queryDescription' }));
    expect(() => validateCandidates([c('a'), c('a')])).toThrow(/twice/);
    expect(() => validateCandidates([c('a', Number.NaN)])).toThrow(/retrievalScore/);
    expect(() => validateCandidates([c('a'), c('b')])).not.toThrow();
  });
});
