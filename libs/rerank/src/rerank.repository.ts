import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService } from '@scopegraph/graph';
import { RerankCandidate } from './rerank.types';

/** A scope as cypher/rerank/candidates-by-id.cypher returns it: a candidate before retrieval facts. */
export type CandidateRow = Omit<RerankCandidate, 'retrievalScore' | 'retrievalRank'>;

/** The Neo4j side of reranking: loading the scopes a client names (cypher/rerank/*.cypher). */
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
}
