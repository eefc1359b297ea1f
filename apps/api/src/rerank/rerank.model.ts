import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { RERANK_LIMITS } from '@scopegraph/rerank';
import { FileRollup } from '../search/file-rollup.model';

// Enum values are the library's strings, so results pass through unchanged.
export enum RerankStrategyGql {
  POINTWISE = 'pointwise',
  LISTWISE = 'listwise',
}
registerEnumType(RerankStrategyGql, { name: 'RerankStrategy', description: 'POINTWISE: a score per candidate; LISTWISE: each batch ordered best first' });

export enum ScoreMergingGql {
  WEIGHTED = 'weighted',
  MULTIPLICATIVE = 'multiplicative',
  LLM_OVERRIDE = 'llm-override',
}
registerEnumType(ScoreMergingGql, {
  name: 'ScoreMerging',
  description: 'WEIGHTED: (w.vector·retrieval + w.llm·llm)/(w.vector + w.llm); MULTIPLICATIVE: retrieval·llm; LLM_OVERRIDE: llm if > 0.9, else the mean',
});

export enum RerankSchedulingGql {
  POOL = 'pool',
  WAVES = 'waves',
}
registerEnumType(RerankSchedulingGql, {
  name: 'RerankScheduling',
  description: 'POOL: the next batch starts as soon as any finishes (default); WAVES: groups of `parallel` batches, for comparison',
});

export enum RerankStatusGql {
  RUNNING = 'running',
  COMPLETED = 'completed',
}
registerEnumType(RerankStatusGql, { name: 'RerankStatus' });

export enum RerankEventKindGql {
  PROGRESS = 'progress',
  COMPLETED = 'completed',
}
registerEnumType(RerankEventKindGql, { name: 'RerankEventKind' });

export enum FeedbackQualityGql {
  EXCELLENT = 'excellent',
  GOOD = 'good',
  INSUFFICIENT = 'insufficient',
  POOR = 'poor',
}
registerEnumType(FeedbackQualityGql, { name: 'FeedbackQuality' });

@InputType()
export class RerankWeightsInput {
  @Field(() => Float, { nullable: true, description: 'Weight of the retrieval score (default 0.3), >= 0' }) vector?: number;
  @Field(() => Float, { nullable: true, description: 'Weight of the reranker score (default 0.7), >= 0' }) llm?: number;
}

@InputType()
export class RerankOptionsInput {
  @Field(() => Int, { nullable: true, description: `Candidates per LLM request (default 10), ${RERANK_LIMITS.batchSize.min}..${RERANK_LIMITS.batchSize.max}` })
  batchSize?: number;
  @Field(() => Int, { nullable: true, description: `Batches in flight at once (default 5), ${RERANK_LIMITS.parallel.min}..${RERANK_LIMITS.parallel.max}` })
  parallel?: number;
  @Field(() => Float, { nullable: true, description: 'Scored hits below this reranker score are dropped (default 0), 0..1' }) minScore?: number;
  @Field({ nullable: true, description: 'Ask for query feedback and suggested searches (default false)' }) withSuggestions?: boolean;
  @Field(() => ScoreMergingGql, { nullable: true, description: 'Default WEIGHTED' }) scoreMerging?: ScoreMergingGql;
  @Field(() => RerankWeightsInput, { nullable: true }) weights?: RerankWeightsInput;
  @Field(() => Int, { nullable: true, description: 'Only the first N candidates are reranked; the rest follow unscored' }) candidateCount?: number;
  @Field(() => Int, { nullable: true, description: 'Overall deadline in ms (default RERANK_TIMEOUT_MS): then it completes with what is done' })
  timeoutMs?: number;
  @Field(() => Int, { nullable: true, description: 'Time limit of one batch in ms, retries included (default RERANK_BATCH_TIMEOUT_MS)' })
  batchTimeoutMs?: number;
  @Field(() => RerankStrategyGql, { nullable: true, description: 'Default POINTWISE' }) strategy?: RerankStrategyGql;
  @Field(() => Int, { nullable: true, description: 'Shuffle inside batches with this seed, against position bias (default: no shuffle)' })
  shuffleSeed?: number;
  @Field(() => Int, { nullable: true, description: 'Hits wanted; with no more candidates than this the LLM is skipped' }) limit?: number;
  @Field(() => RerankSchedulingGql, { nullable: true, description: 'Default POOL' }) scheduling?: RerankSchedulingGql;
}

@InputType()
export class StartRerankInput {
  @Field({ description: "The user's question the candidates should answer" }) question: string;
  @Field({ nullable: true, description: 'The query that produced the candidates, in words or as code (shown to the LLM)' }) queryDescription?: string;
  @Field(() => [ID], { description: `Scope ids in retrieval order (at most ${RERANK_LIMITS.candidates.max})` }) scopeIds: string[];
  @Field(() => [Float], { nullable: true, description: 'Retrieval scores in the order of scopeIds (default: derived from the order)' })
  retrievalScores?: number[];
  @Field(() => RerankOptionsInput, { nullable: true }) options?: RerankOptionsInput;
}

@ObjectType()
export class RerankScope {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field() qualifiedName: string;
  @Field() kind: string;
  @Field() language: string;
  @Field() path: string;
  @Field(() => String, { nullable: true }) signature: string | null;
}

@ObjectType()
export class RerankScoreBreakdown {
  @Field(() => Float, { description: 'The retrieval score as given' }) retrieval: number;
  @Field(() => Float, { description: 'The retrieval score on [0, 1], the one merged' }) retrievalNormalized: number;
  @Field(() => Int) retrievalRank: number;
  @Field(() => Float, { nullable: true, description: "The reranker's score on [0, 1]; null when unscored" }) llm: number | null;
  @Field(() => String, { nullable: true, description: "The LLM's reason; null for rerankers that give none" }) llmReasoning: string | null;
  @Field(() => Boolean, { nullable: true }) relevant: boolean | null;
  @Field(() => Float) merged: number;
  @Field() scored: boolean;
  @Field(() => RerankStrategyGql) strategy: string;
  @Field(() => ScoreMergingGql) scoreMerging: string;
  @Field({ description: 'gemini | openai | cohere | voyage | local-keyword | skipped' }) reranker: string;
  @Field(() => String, { nullable: true, description: 'Why there is no reranker score: timeout, rate-limited, malformed-output, omitted-by-llm, deadline, ...' })
  fallbackReason: string | null;
  @Field(() => Int, { nullable: true }) batch: number | null;
  @Field() cached: boolean;
}

@ObjectType()
export class RerankHit {
  @Field(() => ID) scopeId: string;
  @Field(() => Int) rank: number;
  @Field(() => Float) score: number;
  @Field(() => RerankScope) scope: RerankScope;
  @Field(() => RerankScoreBreakdown) scoreBreakdown: RerankScoreBreakdown;
}

@ObjectType()
export class SuggestedSearchFilters {
  @Field(() => String, { nullable: true }) repository: string | null;
  @Field(() => String, { nullable: true }) pathContains: string | null;
  @Field(() => String, { nullable: true }) pathGlob: string | null;
  @Field(() => [String]) languages: string[];
  @Field(() => [String]) kinds: string[];
  @Field(() => String, { nullable: true }) name: string | null;
}

@ObjectType({ description: 'A search a client can run as is (data, never code)' })
export class SuggestedSearch {
  @Field() text: string;
  @Field({ description: 'semantic | bm25 | hybrid' }) mode: string;
  @Field(() => Int, { nullable: true }) topK: number | null;
  @Field(() => SuggestedSearchFilters) filters: SuggestedSearchFilters;
}

@ObjectType()
export class QuerySuggestion {
  @Field({ description: 'add_filter | change_semantic | expand_relationships | other' }) type: string;
  @Field() description: string;
  @Field(() => SuggestedSearch, { nullable: true }) suggestedQuery: SuggestedSearch | null;
}

@ObjectType()
export class QueryFeedback {
  @Field(() => FeedbackQualityGql) quality: string;
  @Field(() => [QuerySuggestion]) suggestions: QuerySuggestion[];
}

@ObjectType()
export class RerankWeights {
  @Field(() => Float) vector: number;
  @Field(() => Float) llm: number;
}

@ObjectType()
export class RerankCacheUse {
  @Field(() => Int, { description: 'Batches answered from the cache' }) hits: number;
  @Field(() => Int, { description: 'Batches that needed the reranker' }) misses: number;
}

@ObjectType()
export class RerankResult {
  @Field(() => ID) jobId: string;
  @Field(() => RerankStatusGql) status: string;
  @Field() question: string;
  @Field(() => String, { nullable: true }) queryDescription: string | null;
  @Field({ description: 'gemini | openai | cohere | voyage | local-keyword | skipped' }) reranker: string;
  @Field(() => String, { nullable: true }) model: string | null;
  @Field(() => RerankStrategyGql) strategy: string;
  @Field(() => ScoreMergingGql) scoreMerging: string;
  @Field(() => RerankWeights) weights: RerankWeights;
  @Field(() => Int, { description: 'Batches finished' }) done: number;
  @Field(() => Int, { description: 'Batches in all' }) total: number;
  @Field(() => Int) candidates: number;
  @Field(() => Int, { description: 'Candidates sent to the reranker' }) reranked: number;
  @Field(() => [RerankHit]) hits: RerankHit[];
  @Field(() => QueryFeedback, { nullable: true }) feedback: QueryFeedback | null;
  @Field() skipped: boolean;
  @Field(() => String, { nullable: true, description: 'Why it was skipped, or how it ended: done | deadline' }) reason: string | null;
  @Field(() => RerankCacheUse) cache: RerankCacheUse;
  @Field(() => Int, { description: 'Model requests made, retries included (0 when cached)' }) llmCalls: number;
  @Field(() => Int, { description: 'Batches that fell back to retrieval order' }) fallbacks: number;
  @Field(() => Int, { description: 'Scored hits dropped by minScore' }) filteredOut: number;
  @Field(() => [String]) notes: string[];
  @Field(() => Float) createdAt: number;
  @Field(() => Float, { nullable: true }) completedAt: number | null;
  @Field(() => Int, { nullable: true }) durationMs: number | null;
  @Field(() => [FileRollup], { nullable: true, description: 'A LOCALIZE search\'s rerank: the files of the reranked functions, best first, from the new order' }) files?: FileRollup[];
}

@ObjectType()
export class RerankJob {
  @Field(() => ID) jobId: string;
  @Field(() => RerankStatusGql) status: string;
  @Field({ description: 'No reranker ran (nothing to rerank, or no more candidates than limit)' }) skipped: boolean;
  @Field(() => Int, { description: 'Batches in all' }) total: number;
  @Field(() => RerankResult, { nullable: true, description: 'Present when it completed at once (skipped, fully cached, local reranker)' })
  result: RerankResult | null;
}

@ObjectType()
export class RerankProgress {
  @Field(() => ID) jobId: string;
  @Field(() => RerankEventKindGql) kind: string;
  @Field(() => RerankStatusGql) status: string;
  @Field(() => Int) done: number;
  @Field(() => Int) total: number;
  @Field(() => [RerankHit], { description: 'The merged ranking so far' }) hits: RerankHit[];
  @Field(() => QueryFeedback, { nullable: true }) feedback: QueryFeedback | null;
  @Field(() => RerankResult, { nullable: true, description: 'On the COMPLETED event' }) result: RerankResult | null;
}

@ObjectType()
export class RerankStats {
  @Field({ description: 'The configured reranker' }) reranker: string;
  @Field() model: string;
  @Field({ description: 'llm | cross-encoder | local' }) kind: string;
  @Field(() => Int, { description: 'Batches answered from the cache, all replicas' }) cacheHits: number;
  @Field(() => Int) cacheMisses: number;
  @Field(() => Int, { description: 'Reranks answered entirely from the cache' }) cacheFullHits: number;
  @Field(() => Int) cacheTtlSeconds: number;
}
