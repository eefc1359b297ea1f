import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService } from '@scopegraph/graph';
import { RerankCandidate, RerankResult } from './rerank.types';

/** A scope as cypher/rerank/candidates-by-id.cypher returns it: a candidate before retrieval facts. */
export type CandidateRow = Omit<RerankCandidate, 'retrievalScore' | 'retrievalRank'>;

/** The Neo4j side of reranking: loading the scopes a client names, recording finished runs (cypher/rerank/*.cypher). */
@Injectable()
export class RerankRepository {
  constructor(private readonly neo4j: Neo4jService) {}

  /**
   * Candidates in the order of `ids`, with retrieval scores given by the caller or, without them,
   * derived from the order (1 for the first down to 1/n for the last). Returns the ids not found.
   */
  async candidatesById(ids: string[], sourceChars: number, retrievalScores?: number[] | null): Promise<{ candidates: RerankCandidate[]; missing: string[] }> {
    if (ids.length === 0) return { candidates: [], missing: [] };
    const rows = await this.neo4j.read<CandidateRow>('rerank/candidates-by-id', { ids, sourceChars: cypherInt(sourceChars) });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const n = ids.length;
    const candidates = ids.flatMap((id, position) => {
      const r = byId.get(id);
      return r ? [{ ...r, retrievalScore: retrievalScores?.[position] ?? (n - position) / n, retrievalRank: position + 1 }] : [];
    });
    return { candidates, missing: ids.filter((id) => !byId.has(id)) };
  }

  /**
   * Records a finished rerank's decisions as (:RerankRun)-[:RANKED]->(:Scope), then keeps only the
   * `keep` most recent runs, so people can explore them in Neo4j Browser beside the code they judged.
   */
  async recordRun(result: RerankResult, keep: number): Promise<number> {
    const run = {
      id: result.jobId,
      question: result.question,
      queryDescription: result.queryDescription,
      reranker: result.reranker,
      model: result.model,
      strategy: result.strategy,
      scoreMerging: result.scoreMerging,
      reason: result.reason,
      candidates: cypherInt(result.candidates),
      reranked: cypherInt(result.reranked),
      llmCalls: cypherInt(result.llmCalls),
      fallbacks: cypherInt(result.fallbacks),
      cacheHits: cypherInt(result.cache.hits),
      feedbackQuality: result.feedback?.quality ?? null,
    };
    const hits = result.hits.map((h) => ({
      scopeId: h.scopeId,
      decision: {
        rank: cypherInt(h.rank),
        score: h.score,
        llm: h.scoreBreakdown.llm,
        reasoning: h.scoreBreakdown.llmReasoning,
        relevant: h.scoreBreakdown.relevant,
        retrievalRank: cypherInt(h.scoreBreakdown.retrievalRank),
        scored: h.scoreBreakdown.scored,
        batch: h.scoreBreakdown.batch === null ? null : cypherInt(h.scoreBreakdown.batch),
        cached: h.scoreBreakdown.cached,
        fallbackReason: h.scoreBreakdown.fallbackReason,
      },
    }));
    const completedAt = result.completedAt ?? result.createdAt;
    const [row] = await this.neo4j.write<{ linked: number }>('rerank/record-run', { run, hits, createdAt: cypherInt(result.createdAt), completedAt: cypherInt(completedAt) });
    await this.neo4j.write('rerank/prune-runs', { keep: cypherInt(keep) });
    return Number(row?.linked ?? 0);
  }
}
