import { defaultRerankCandidates } from './search-reranker';
import { Injectable } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { expandDefaults, graphSignalDefaults, SearchService } from './search.service';
import {
  type Direction,
  type FilterStrategyChoice,
  type FusionWeights,
  type GraphEdgeType,
  SEARCH_DEFAULTS,
  type SearchExplain,
  type SearchFilters,
  type SearchPlan,
  type SearchResponse,
} from './search.types';

export interface ListOptions {
  /** Candidates this list contributes (default: the final limit alone, 150 in a hybrid query). */
  topK?: number;
}

export interface HybridOptions {
  /** RRF weights; defaults favour keywords (semantic 2, bm25 3): in code, exact identifiers matter more than paraphrases. */
  weights?: Partial<Pick<FusionWeights, 'semantic' | 'bm25'>>;
  /** RRF smoothing constant (default 10). */
  k?: number;
}

export interface RerankOptions extends ListOptions {
  /** Share of the keyword score in the blend, 0..1 (default 0.3). */
  keywordWeight?: number;
}

export interface ExpandOptions {
  depth?: number;
  edges?: GraphEdgeType[];
  direction?: Direction;
  maxNodes?: number;
}

/**
 * The fluent search API: a chain of calls that reads like the query. Each call records a part of the plan; build() checks how
 * the parts combine, execute() hands the plan to SearchService.execute():
 *
 *   rag.scope().inRepository('x').whereFile({ contains: 'parsers' })
 *     .semanticSearchBySource('parse ast', { topK: 50 }).fullText('parse', { topK: 50 })
 *     .hybrid({ weights: { semantic: 1, bm25: 1 } }).expand({ depth: 1, edges: ['CALLS'] })
 *     .limit(10).execute()
 *
 * The mode follows from the lists: semantic only -> semantic, full text only -> bm25, both ->
 * hybrid, semanticRerank() -> semantic_rerank.
 */
export class ScopeQueryBuilder {
  private readonly filters: SearchFilters = {};
  private semantic?: { text: string; topK?: number };
  private bm25?: { text: string; topK?: number };
  private hybridOptions?: HybridOptions;
  private rerank?: RerankOptions & { text: string };
  private graph?: { weight?: number; edges?: GraphEdgeType[] };
  private expansion?: ExpandOptions;
  private strategy: FilterStrategyChoice = 'auto';
  private exactMax: number = SEARCH_DEFAULTS.exactMaxCandidates;
  private sourceChars: number | null = null;
  private topK: number = SEARCH_DEFAULTS.topK;
  private llmRerank?: { question: string; options: Record<string, unknown> };

  constructor(private readonly service: SearchService) {}

  inRepository(repository: string): this {
    this.filters.repository = repository;
    return this;
  }

  /** Path substring and/or glob (`**` directories, `*`, `?`, `[a-z]`, `{a,b}`). */
  whereFile(path: { contains?: string; glob?: string }): this {
    this.filters.path = { ...this.filters.path, ...path };
    return this;
  }

  whereLanguage(...languages: string[]): this {
    this.filters.languages = [...(this.filters.languages ?? []), ...languages];
    return this;
  }

  whereKind(...kinds: string[]): this {
    this.filters.kinds = [...(this.filters.kinds ?? []), ...kinds];
    return this;
  }

  /** Exact name or qualified name: `create` or `InvoiceService.create`. */
  whereName(name: string): this {
    this.filters.name = name;
    return this;
  }

  semanticSearchBySource(text: string, options: ListOptions = {}): this {
    this.semantic = { text, topK: options.topK };
    return this;
  }

  fullText(text: string, options: ListOptions = {}): this {
    this.bm25 = { text, topK: options.topK };
    return this;
  }

  hybrid(options: HybridOptions = {}): this {
    this.hybridOptions = options;
    return this;
  }

  /** A widened vector pool (max(50, 3 × limit)) re-ordered by a keyword score: meaning finds the pool, exact words order it. */
  semanticRerank(text: string, options: RerankOptions = {}): this {
    this.rerank = { ...options, text };
    return this;
  }

  /** Adds "connected to other candidates" as an RRF list (off unless called). */
  graphSignal(options: { weight?: number; edges?: GraphEdgeType[] } = {}): this {
    this.graph = options;
    return this;
  }

  expand(options: ExpandOptions = {}): this {
    this.expansion = options;
    return this;
  }

  /** `auto` (default) picks per query; `exact` / `overfetch` force a filtered vector strategy. */
  filterStrategy(choice: FilterStrategyChoice, options: { exactMaxCandidates?: number } = {}): this {
    this.strategy = choice;
    if (options.exactMaxCandidates !== undefined) this.exactMax = options.exactMaxCandidates;
    return this;
  }

  /** Cut each result's source to this many characters (null: whole source). */
  truncateSource(chars: number | null): this {
    this.sourceChars = chars;
    return this;
  }

  limit(topK: number): this {
    this.topK = topK;
    return this;
  }

  /**
   * Reorders the retrieved hits with the configured LLM reranker (libs/rerank). Options:
   * batchSize, parallel, minScore, withSuggestions, scoreMerging, weights, candidateCount (how many
   * hits are retrieved and reranked), timeoutMs, strategy, shuffleSeed. execute() returns at once
   * with the retrieval results and `rerank` (job id, or the result when it finished immediately).
   */
  llmRerankResults(question: string, options: Record<string, unknown> & { candidateCount?: number } = {}): this {
    this.llmRerank = { question, options };
    return this;
  }

  build(): SearchPlan {
    const invalid = (message: string): never => {
      throw new DomainError(DomainErrorCode.InvalidPlan, message, 'mode');
    };
    if (this.rerank && (this.semantic || this.bm25 || this.hybridOptions)) invalid('semanticRerank() cannot be combined with other lists or hybrid()');
    if (!this.rerank && !this.semantic && !this.bm25) invalid('no list: call semanticSearchBySource(), fullText() or semanticRerank()');
    if (this.hybridOptions && !(this.semantic && this.bm25)) invalid('hybrid() needs both semanticSearchBySource() and fullText()');

    const mode: SearchPlan['mode'] = this.rerank ? 'semantic_rerank' : this.semantic && this.bm25 ? 'hybrid' : this.semantic ? 'semantic' : 'bm25';
    const listDefault = mode === 'hybrid' ? SEARCH_DEFAULTS.candidates : this.topK;
    const semantic = this.rerank ?? this.semantic;
    const weights: FusionWeights = { ...SEARCH_DEFAULTS.weights, ...this.hybridOptions?.weights };
    if (this.graph?.weight !== undefined) weights.graph = this.graph.weight;
    return {
      mode,
      semantic: semantic ? { text: semantic.text, limit: semantic.topK ?? listDefault } : undefined,
      bm25: this.bm25 ? { text: this.bm25.text, limit: this.bm25.topK ?? listDefault } : undefined,
      fusion: { k: this.hybridOptions?.k ?? SEARCH_DEFAULTS.rrfK, weights },
      keywordWeight: this.rerank?.keywordWeight ?? SEARCH_DEFAULTS.keywordWeight,
      filters: structuredClone(this.filters),
      filterStrategy: this.strategy,
      exactMaxCandidates: this.exactMax,
      graphSignal: this.graph ? graphSignalDefaults({ weight: weights.graph, edges: this.graph.edges }) : undefined,
      expand: this.expansion ? expandDefaults(this.expansion) : undefined,
      limit: this.topK,
      sourceChars: this.sourceChars,
      rerank: this.llmRerank
        ? {
            question: this.llmRerank.question,
            options: this.llmRerank.options,
            candidateCount: (this.llmRerank.options.candidateCount as number | undefined) ?? defaultRerankCandidates(this.topK),
          }
        : undefined,
    };
  }

  explain(): Promise<SearchExplain> {
    return this.service.explain(this.build());
  }

  execute(): Promise<SearchResponse> {
    return this.service.execute(this.build());
  }
}

/** Entry point of the fluent API: `rag.scope()...execute()`. Injectable wherever SearchModule is imported. */
@Injectable()
export class RagClient {
  constructor(private readonly search: SearchService) {}

  scope(): ScopeQueryBuilder {
    return new ScopeQueryBuilder(this.search);
  }
}
