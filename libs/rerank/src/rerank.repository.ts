import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService } from '@scopegraph/graph';
import { RerankCandidate } from './rerank.types';

export interface CandidateRow {
  id: string;
  name: string;
  qualifiedName: string;
  kind: string;
  language: string;
  path: string;
  signature: string | null;
  docComment: string | null;
  source: string;
  contentHash: string | null;
}

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
      return r ? [{ ...toCandidate(r), retrievalScore: retrievalScores?.[position] ?? (n - position) / n, retrievalRank: position + 1 }] : [];
    });
    return { candidates, missing: ids.filter((id) => !byId.has(id)) };
  }
}

function toCandidate(r: CandidateRow): Omit<RerankCandidate, 'retrievalScore' | 'retrievalRank'> {
  return {
    id: r.id,
    name: r.name,
    qualifiedName: r.qualifiedName,
    kind: r.kind,
    language: r.language,
    path: r.path,
    signature: r.signature,
    docComment: r.docComment,
    source: r.source,
    contentHash: r.contentHash,
  };
}
