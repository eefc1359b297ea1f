import { fileRollup } from '@scopegraph/search';
import {
  BatchOutcome,
  QueryFeedback,
  RerankerLabel,
  RerankHit,
  RerankOptions,
  RerankResult,
  RerankScopeSummary,
  RerankStatus,
  RerankStrategy,
} from '../rerank.types';
import { mergeScores } from './merge';

/** What the ranking needs to know about a candidate (no source: that stays with the batch input). */
export interface StoredCandidate extends RerankScopeSummary {
  repoId?: string;
  retrievalScore: number;
  retrievalNormalized: number;
  retrievalRank: number;
}

/** The immutable part of a rerank, written once when it starts. */
export interface RerankMeta {
  id: string;
  question: string;
  queryDescription: string | null;
  options: RerankOptions;
  reranker: RerankerLabel;
  model: string | null;
  /** The strategy the reranker really applies (cross-encoders and the keyword reranker only score). */
  strategy: RerankStrategy;
  /** Batches in all, and candidates sent to the reranker (the first `reranked` of them). */
  total: number;
  reranked: number;
  /** Set when no reranker runs; every hit says why. */
  skipReason: string | null;
  cache: { hits: number; misses: number };
  notes: string[];
  createdAt: number;
  deadlineAt: number;
  /** Cache key of each batch (empty when the reranker is not cached). */
  batchKeys: string[];
  /** Who started it (a key id; null: a caller without one). Absent in reranks started before owners were kept. */
  owner?: string | null;
  /** Roll the hits up to their files (a LOCALIZE search's rerank). */
  fileRollup?: boolean;
}

export interface StateView {
  status: RerankStatus;
  completedAt: number | null;
  /** `done` (every batch finished) or `deadline`. */
  finalReason: string | null;
}

/** Which batch a candidate belongs to, or null when it is beyond candidateCount. */
export function batchOf(index: number, meta: Pick<RerankMeta, 'reranked' | 'options'>): number | null {
  return index < meta.reranked ? Math.floor(index / meta.options.batchSize) : null;
}

/**
 * The ranking from whatever is known: a pure function of the rerank's state, so the worker (progress
 * events, final result), and any API replica (a late subscriber's catch-up, rerankResult) compute
 * the same thing. Scored hits get the merged score; every other hit keeps its normalised retrieval
 * score and says why (never dropped). Ties keep retrieval order. minScore drops scored hits whose
 * reranker score is below it; limit cuts the list.
 */
export function assembleResult(meta: RerankMeta, candidates: StoredCandidate[], outcomes: Map<number, BatchOutcome>, state: StateView): RerankResult {
  const { options } = meta;
  const completed = state.status === 'completed';
  let filteredOut = 0;
  const rows: RerankHit[] = [];
  candidates.forEach((c, index) => {
    const batch = meta.skipReason ? null : batchOf(index, meta);
    const outcome = batch === null ? undefined : outcomes.get(batch);
    const judged = outcome?.ok ? outcome.scores[c.id] : undefined;
    const llm = judged?.llm ?? null;
    const scored = llm !== null;
    let fallbackReason: string | null = null;
    if (!scored) {
      if (meta.skipReason) fallbackReason = `skipped: ${meta.skipReason}`;
      else if (batch === null) fallbackReason = 'not-reranked: beyond candidateCount';
      else if (!outcome) fallbackReason = completed ? (state.finalReason === 'deadline' ? 'deadline' : 'not-finished') : 'pending';
      else if (!outcome.ok) fallbackReason = outcome.fallbackReason ?? 'fallback';
      else fallbackReason = judged?.note ?? 'omitted-by-llm';
    }
    if (scored && llm < options.minScore) {
      filteredOut++;
      return;
    }
    const merged = scored ? mergeScores(options.scoreMerging, c.retrievalNormalized, llm, options.weights) : c.retrievalNormalized;
    rows.push({
      scopeId: c.id,
      rank: 0,
      score: merged,
      scope: { id: c.id, name: c.name, qualifiedName: c.qualifiedName, kind: c.kind, language: c.language, path: c.path, signature: c.signature },
      scoreBreakdown: {
        retrieval: c.retrievalScore,
        retrievalNormalized: c.retrievalNormalized,
        retrievalRank: c.retrievalRank,
        llm,
        llmReasoning: scored ? (judged?.reasoning ?? null) : null,
        relevant: judged?.relevant ?? null,
        merged,
        scored,
        strategy: outcome?.strategy ?? meta.strategy,
        scoreMerging: options.scoreMerging,
        reranker: outcome?.reranker ?? meta.reranker,
        fallbackReason,
        batch,
        cached: outcome?.cached ?? false,
      },
    });
  });
  rows.sort((a, b) => b.score - a.score || a.scoreBreakdown.retrievalRank - b.scoreBreakdown.retrievalRank);
  const hits = (options.limit === null ? rows : rows.slice(0, options.limit)).map((h, i) => ({ ...h, rank: i + 1 }));
  // The roll-up reads every reranked candidate (as LOCALIZE's reads deeper than its page), in the new order.
  const repoOf = new Map(candidates.map((c) => [c.id, c.repoId ?? '']));
  const files = meta.fileRollup ? fileRollup(rows.map((h) => ({ scope: { repoId: repoOf.get(h.scopeId) ?? '', path: h.scope.path, qualifiedName: h.scope.qualifiedName }, score: h.score }))) : undefined;
  const all = [...outcomes.values()];
  return {
    jobId: meta.id,
    status: state.status,
    question: meta.question,
    queryDescription: meta.queryDescription,
    reranker: meta.reranker,
    model: meta.model,
    strategy: meta.strategy,
    scoreMerging: options.scoreMerging,
    weights: options.weights,
    done: all.length,
    total: meta.total,
    candidates: candidates.length,
    reranked: meta.reranked,
    hits,
    feedback: feedbackOf(outcomes),
    skipped: meta.skipReason !== null,
    reason: meta.skipReason ?? (completed ? state.finalReason : null),
    cache: meta.cache,
    llmCalls: all.reduce((n, o) => n + o.calls, 0),
    fallbacks: all.filter((o) => !o.ok).length,
    filteredOut,
    notes: meta.notes,
    createdAt: meta.createdAt,
    completedAt: state.completedAt,
    durationMs: state.completedAt === null ? null : state.completedAt - meta.createdAt,
    ...(files ? { files } : {}),
  };
}

/** Feedback is asked of the first batch only (one opinion per rerank is enough and saves tokens); any batch that sent one is accepted. */
function feedbackOf(outcomes: Map<number, BatchOutcome>): QueryFeedback | null {
  const first = outcomes.get(0)?.feedback;
  if (first) return first;
  for (const o of outcomes.values()) if (o.feedback) return o.feedback;
  return null;
}
