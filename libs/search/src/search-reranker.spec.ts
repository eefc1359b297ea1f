import { validatePlan } from './plan';
import { ScopeQueryBuilder } from './query-builder';
import { defaultRerankCandidates, MAX_RERANK_CANDIDATES } from './search-reranker';
import type { SearchService } from './search.service';

const builder = () => new ScopeQueryBuilder({} as SearchService);

describe('llmRerankResults', () => {
  it('puts the question, options and a retrieval depth into the plan', () => {
    const plan = builder().semanticSearchBySource('parse ast').limit(10).llmRerankResults('how is the AST built?', { batchSize: 5, strategy: 'listwise' }).build();
    expect(plan.rerank).toEqual({ question: 'how is the AST built?', options: { batchSize: 5, strategy: 'listwise' }, candidateCount: 30 });
    expect(plan.limit).toBe(10);
  });

  it('honours candidateCount and rejects one beyond the limit', () => {
    const plan = builder().fullText('x').llmRerankResults('q', { candidateCount: 50 }).build();
    expect(plan.rerank?.candidateCount).toBe(50);
    const tooMany = builder().fullText('x').llmRerankResults('q', { candidateCount: MAX_RERANK_CANDIDATES + 1 }).build();
    expect(() => validatePlan(tooMany)).toThrow(/rerank.candidateCount/);
    const blank = builder().fullText('x').llmRerankResults('   ').build();
    expect(() => validatePlan(blank)).toThrow(/rerank.question/);
  });

  it('retrieves three times the limit, at least 30 and at most 200', () => {
    expect([1, 10, 20, 100].map(defaultRerankCandidates)).toEqual([30, 30, 60, 200]);
  });
});
