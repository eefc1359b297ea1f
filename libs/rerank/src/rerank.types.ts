import type { FileRollup } from '@scopegraph/search';
/**
 * Types of an LLM rerank (batching, parallelism, prompt, query feedback, score merging, strategies,
 * fallbacks, skip rules, cache). Field names are those of the GraphQL API.
 */

/** One retrieval result to rerank, in the order retrieval ranked it. */
export interface RerankCandidate {
  /** The scope id (`<repo>:<path>#<qualifiedName>|<kind>`). */
  id: string;
  /** Its repository (read from the graph; a file roll-up groups by repository and path). */
  repoId?: string;
  name: string;
  qualifiedName: string;
  kind: string;
  language: string;
  path: string;
  signature: string | null;
  docComment?: string | null;
  /** May already be truncated; the prompt cuts it to RERANK_SOURCE_CHARS anyway. */
  source: string | null;
  /** The scope's content hash from the graph: part of the cache key, so an edited scope is judged again. */
  contentHash: string | null;
  /** The retrieval score (cosine, RRF, BM25, ...). Scores outside [0, 1] are scaled by the list's best. */
  retrievalScore: number;
  /** 1-based rank in the retrieval list. */
  retrievalRank: number;
}

export const RERANK_STRATEGIES = ['pointwise', 'listwise'] as const;
/** pointwise: a score per candidate; listwise: the batch ordered best first (cheaper output, relative judgements). */
export type RerankStrategy = (typeof RERANK_STRATEGIES)[number];

export const SCORE_MERGINGS = ['weighted', 'multiplicative', 'llm-override'] as const;
export type ScoreMerging = (typeof SCORE_MERGINGS)[number];

export const SCHEDULINGS = ['pool', 'waves'] as const;
/**
 * pool: the next batch starts as soon as any batch finishes (the default);
 * waves: the next `parallel` batches start only when the whole previous group finished (the naive
 * scheme, kept to measure the difference in bench/rerank).
 */
export type Scheduling = (typeof SCHEDULINGS)[number];

export interface MergeWeights {
  vector: number;
  llm: number;
}

/** What a caller may set; every field has a default (see RERANK_DEFAULTS). */
export interface RerankOptionsInput {
  batchSize?: number;
  parallel?: number;
  minScore?: number;
  withSuggestions?: boolean;
  scoreMerging?: ScoreMerging;
  weights?: Partial<MergeWeights>;
  /** Only the first N candidates go to the reranker; the rest follow unscored, never dropped. */
  candidateCount?: number | null;
  /** Overall deadline: when it passes, the rerank completes with what is done. */
  timeoutMs?: number;
  /** Time limit of one batch, retries included. */
  batchTimeoutMs?: number;
  strategy?: RerankStrategy;
  /** Shuffles candidates inside each batch (seeded, repeatable) to counter position bias. */
  shuffleSeed?: number | null;
  /** Results wanted; with no more candidates than this, the LLM is skipped: there is nothing to choose between. */
  limit?: number | null;
  scheduling?: Scheduling;
}

export interface RerankOptions {
  batchSize: number;
  parallel: number;
  minScore: number;
  withSuggestions: boolean;
  scoreMerging: ScoreMerging;
  weights: MergeWeights;
  candidateCount: number | null;
  timeoutMs: number;
  batchTimeoutMs: number;
  strategy: RerankStrategy;
  shuffleSeed: number | null;
  limit: number | null;
  scheduling: Scheduling;
}

export const RERANK_DEFAULTS = {
  batchSize: 10,
  parallel: 5,
  minScore: 0,
  withSuggestions: false,
  scoreMerging: 'weighted' as ScoreMerging,
  weights: { vector: 0.3, llm: 0.7 },
  strategy: 'pointwise' as RerankStrategy,
  scheduling: 'pool' as Scheduling,
} as const;

export const RERANK_LIMITS = {
  batchSize: { min: 1, max: 50 },
  parallel: { min: 1, max: 20 },
  candidates: { max: 500 },
  questionChars: 2_000,
  queryDescriptionChars: 4_000,
  timeoutMs: { min: 100, max: 600_000 },
  batchTimeoutMs: { min: 100, max: 600_000 },
  limit: { min: 1, max: 500 },
} as const;

export type RerankerName = 'gemini' | 'openai' | 'cohere' | 'voyage' | 'local-keyword';
/** `skipped`: no reranker ran (no more candidates than the limit, or nothing to rerank). */
export type RerankerLabel = RerankerName | 'skipped';

export const FEEDBACK_QUALITIES = ['excellent', 'good', 'insufficient', 'poor'] as const;
export type FeedbackQuality = (typeof FEEDBACK_QUALITIES)[number];
export const SUGGESTION_TYPES = ['add_filter', 'change_semantic', 'expand_relationships', 'other'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];
export const SUGGESTED_MODES = ['semantic', 'bm25', 'hybrid'] as const;

/**
 * A search a client can run as is: the shape of the search API's input (text, mode, topK, filters).
 * Data only: code for the client to eval is deliberately not offered, since model output must never run.
 */
export interface SuggestedSearch {
  text: string;
  mode: (typeof SUGGESTED_MODES)[number];
  topK: number | null;
  filters: {
    repository: string | null;
    pathContains: string | null;
    pathGlob: string | null;
    languages: string[];
    kinds: string[];
    name: string | null;
  };
}

export interface QuerySuggestion {
  type: SuggestionType;
  description: string;
  suggestedQuery: SuggestedSearch | null;
}

export interface QueryFeedback {
  quality: FeedbackQuality;
  suggestions: QuerySuggestion[];
}

/** One candidate's judgement inside a batch outcome. */
export interface CandidateScore {
  /** The reranker's score in [0, 1]; null when it gave none we could read. */
  llm: number | null;
  relevant: boolean | null;
  reasoning: string | null;
  /** Why llm is null: `omitted-by-llm`, `unreadable-score: "..."`. */
  note: string | null;
}

/** What one batch produced: stored in the rerank's state, cached when ok. */
export interface BatchOutcome {
  batch: number;
  /** false: the whole batch fell back to retrieval order (fallbackReason says why). */
  ok: boolean;
  reranker: RerankerName;
  model: string;
  strategy: RerankStrategy;
  fallbackReason: string | null;
  detail: string | null;
  /** By scope id; candidates the reranker omitted have no entry. */
  scores: Record<string, CandidateScore>;
  feedback: QueryFeedback | null;
  ignored: { duplicates: number; invented: number };
  /** Requests made to the model for this batch (retries included; 0 when cached). */
  calls: number;
  durationMs: number;
  cached: boolean;
}

/** What a result shows of each scope: the candidate's identity, without source or scores. */
export type RerankScopeSummary = Pick<RerankCandidate, 'id' | 'name' | 'qualifiedName' | 'kind' | 'language' | 'path' | 'signature'>;

export interface RerankScoreBreakdown {
  /** The retrieval score as given. */
  retrieval: number;
  /** The retrieval score on [0, 1], the one merged. */
  retrievalNormalized: number;
  retrievalRank: number;
  /** The reranker's score (an LLM's, a cross-encoder's or the keyword overlap); null when unscored. */
  llm: number | null;
  /** The LLM's reason; null for rerankers that give none (never invented). */
  llmReasoning: string | null;
  relevant: boolean | null;
  /** The final score: merged when scored, the normalised retrieval score otherwise. */
  merged: number;
  scored: boolean;
  strategy: RerankStrategy;
  scoreMerging: ScoreMerging;
  reranker: RerankerLabel;
  /** Why this hit has no reranker score (batch fallback, omitted, skipped, deadline, ...). */
  fallbackReason: string | null;
  /** Batch it was judged in (null when it was not sent). */
  batch: number | null;
  cached: boolean;
}

export interface RerankHit {
  scopeId: string;
  /** 1-based rank after reranking. */
  rank: number;
  score: number;
  scope: RerankScopeSummary;
  scoreBreakdown: RerankScoreBreakdown;
}

export type RerankStatus = 'running' | 'completed';

export interface RerankResult {
  jobId: string;
  status: RerankStatus;
  question: string;
  queryDescription: string | null;
  reranker: RerankerLabel;
  model: string | null;
  strategy: RerankStrategy;
  scoreMerging: ScoreMerging;
  weights: MergeWeights;
  /** Batches finished (scored, fallen back or cached) and in all. */
  done: number;
  total: number;
  candidates: number;
  /** Candidates sent to the reranker (candidateCount). */
  reranked: number;
  hits: RerankHit[];
  feedback: QueryFeedback | null;
  skipped: boolean;
  /** Why it was skipped, or how it ended (`done`, `deadline`). */
  reason: string | null;
  cache: { hits: number; misses: number };
  /** Model requests made (retries included). */
  llmCalls: number;
  /** Batches that fell back to retrieval order. */
  fallbacks: number;
  /** Scored hits dropped by minScore. */
  filteredOut: number;
  notes: string[];
  createdAt: number;
  completedAt: number | null;
  durationMs: number | null;
  /**
   * A LOCALIZE rerank: the files of the reranked functions, best first, derived from the new order as
   * LOCALIZE derives its own (absent for other reranks).
   */
  files?: FileRollup[];
}

export interface RerankProgressEvent {
  jobId: string;
  kind: 'progress' | 'completed';
  status: RerankStatus;
  done: number;
  total: number;
  /** The merged ranking so far (pending batches keep retrieval order). */
  hits: RerankHit[];
  feedback: QueryFeedback | null;
  /** On the final event. */
  result: RerankResult | null;
}

export interface StartRerankRequest {
  question: string;
  /** The query that produced the candidates, described for the LLM (what search ran, so it can suggest a better one). */
  queryDescription?: string | null;
  candidates: RerankCandidate[];
  options?: RerankOptionsInput;
  /** Who starts it (a key id), so another caller's lookup can be answered like an unknown id. */
  owner?: string | null;
  /** Also roll the reranked functions up to their files (a LOCALIZE search's rerank). */
  fileRollup?: boolean;
}

export interface StartRerankResponse {
  jobId: string;
  status: RerankStatus;
  skipped?: true;
  /** Present when the rerank completed at once (skipped, fully cached, local reranker). */
  result?: RerankResult;
  total: number;
}
