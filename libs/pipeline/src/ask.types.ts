import type { RetrievalPlan } from './protocol/prefix';
import type { Citation, EvidenceItem, RetrievalAttempt, TraceStep } from './engine/state';

export interface AskRequest {
  question: string;
  repository: string;
  sessionId?: string | null;
  isEnglish?: boolean | null;
  pipeline?: string | null;
}

export interface AskResult {
  askId: string;
  pipeline: string;
  question: string;
  questionEn: string;
  /** In the asker's language. */
  answer: string;
  answerEn: string;
  citations: Citation[];
  /** Cited ids that were not in the evidence: dropped from the answer and counted here. */
  inventedCitations: string[];
  plan: RetrievalPlan | null;
  attempts: RetrievalAttempt[];
  loops: number;
  retries: number;
  /** What the answer still asked for when the loop guard stopped it. */
  missing: string | null;
  evidence: Array<Omit<EvidenceItem, 'text'> & { hasText: boolean }>;
  modelAvailable: boolean;
  model: string | null;
  warnings: string[];
  history: { summaryVersion: number; summaryUpTo: number; resummarized: boolean; tokens: number };
  evidenceTokens: number;
  evidenceSummarized: boolean;
  tokens: { input: number; output: number };
  modelCalls: number;
  timings: { totalMs: number; modelMs: number; overheadMs: number; firstChunkMs: number | null };
  trace: TraceStep[];
}

export type AskEvent =
  | { askId: string; seq: number; kind: 'step'; step: TraceStep }
  | { askId: string; seq: number; kind: 'chunk'; text: string }
  | { askId: string; seq: number; kind: 'final'; result: AskResult }
  | { askId: string; seq: number; kind: 'error'; message: string };

/** Distributive Omit, so each event kind keeps its own fields. */
export type AskEventBody = AskEvent extends infer E ? (E extends AskEvent ? Omit<E, 'askId' | 'seq'> : never) : never;

/** Where an ask stands, read without subscribing (polling clients, MCP tools). */
export interface AskStatus {
  askId: string;
  status: 'running' | 'completed' | 'failed';
  /** The answer text streamed so far (the whole answer once completed). */
  answerSoFar: string;
  /** Steps executed so far. */
  steps: number;
  result: AskResult | null;
  /** Why it failed. */
  message: string | null;
}
