import { Injectable } from '@nestjs/common';
import { Neo4jService } from '@scopegraph/graph';
import type { HistoryTurn } from '../engine/state';

export interface LoadedHistory {
  summary: string | null;
  version: number;
  upTo: number;
  turns: HistoryTurn[];
}

export interface ConversationRecord {
  sessionId: string;
  repository: string | null;
  /** The key id that started it; null for conversations of older versions. */
  owner: string | null;
  summary: { text: string; version: number; upToSeq: number } | null;
  turns: Array<{ seq: number; questionOriginal: string; questionEn: string; answerEn: string; answer: string; createdAt: string }>;
}

/** Conversation, Turn and Summary nodes in Neo4j; one cypher/pipeline file per method. */
@Injectable()
export class HistoryRepository {
  constructor(private readonly neo4j: Neo4jService) {}

  async load(sessionId: string): Promise<LoadedHistory> {
    const [row] = await this.neo4j.read<LoadedHistory>('pipeline/load-history', { sessionId });
    return row ?? { summary: null, version: 0, upTo: 0, turns: [] };
  }

  async appendTurn(turn: { sessionId: string; repository: string; owner: string | null; turnId: string; questionOriginal: string; questionEn: string; answerEn: string; answer: string }): Promise<number> {
    const [row] = await this.neo4j.write<{ seq: number }>('pipeline/append-turn', turn);
    return row.seq;
  }

  async saveSummary(summary: { sessionId: string; repository: string; version: number; text: string; upToSeq: number; tokens: number }): Promise<void> {
    await this.neo4j.write('pipeline/save-summary', { ...summary, summaryId: `${summary.sessionId}#v${summary.version}` });
  }

  async conversation(sessionId: string): Promise<ConversationRecord | null> {
    const [row] = await this.neo4j.read<ConversationRecord>('pipeline/conversation', { sessionId });
    return row ?? null;
  }
}
