import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import type { SearchPlan, SearchReranker, SearchRerankHandle, SearchResponse } from '@scopegraph/search';
import { RerankRepository } from './rerank.repository';
import { RerankService } from './rerank.service';
import type { RerankOptionsInput } from './rerank.types';

/**
 * Connects a search with `rerank` (GraphQL SearchInput.rerank or the builder's llmRerankResults) to
 * RerankService: the retrieved hits, in retrieval order with their scores, become the candidates
 * (content hash and source read from the graph, so the cache key follows the code), and the plan is
 * described to the LLM in words.
 */
@Injectable()
export class SearchRerankAdapter implements SearchReranker {
  constructor(
    private readonly reranks: RerankService,
    private readonly repo: RerankRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async rerank(plan: SearchPlan, response: SearchResponse): Promise<SearchRerankHandle> {
    const request = plan.rerank!;
    const { candidateCount: _c, ...options } = request.options;
    const ids = response.results.map((h) => h.scope.id);
    const { candidates } = await this.repo.candidatesById(ids, this.config.rerank.sourceChars + 1, response.results.map((h) => h.score));
    const started = await this.reranks.start({
      question: request.question,
      queryDescription: describePlan(plan, response),
      candidates,
      options: { ...(options as RerankOptionsInput), limit: plan.limit },
      owner: request.owner ?? null,
      // A LOCALIZE search answers with files too: the rerank re-derives them from its own order.
      fileRollup: plan.mode === 'localize',
    });
    return { jobId: started.jobId, status: started.status, skipped: started.skipped === true, total: started.total, result: started.result };
  }
}

/** The query that produced the candidates: what was searched, how, and under which filters (so the model can suggest a better one). */
export function describePlan(plan: SearchPlan, response: SearchResponse): string {
  // An issue can be far longer than a query: the question carries its gist, this says how the candidates were found.
  if (plan.mode === 'localize') {
    const lists = response.explain.localize?.lists.filter((l) => l.hits > 0).map((l) => l.name) ?? [];
    const filters = response.explain.filters.length > 0 ? `; filters: ${response.explain.filters.join(', ')}` : '';
    return `LOCALIZE over a bug report: the functions and methods its signals point to (${lists.join(', ') || 'none'}), fused by weighted RRF and spread over the call graph${filters}; ${response.results.length} candidates, the likeliest fix first`;
  }
  const texts = [plan.semantic && `semantic "${plan.semantic.text}"`, plan.bm25 && `full-text "${plan.bm25.text}"`].filter(Boolean).join(' + ');
  const filters = response.explain.filters.length > 0 ? `; filters: ${response.explain.filters.join(', ')}` : '';
  const fusion = plan.mode === 'hybrid' ? ` fused by RRF (k=${plan.fusion.k})` : '';
  return `${plan.mode} search: ${texts}${fusion}${filters}; ${response.results.length} candidates`;
}
