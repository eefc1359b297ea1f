import type { AskJobData } from '@scopegraph/queue';
import type { RetrievalPlan } from '../protocol/prefix';

/** The run's input is the job's data as enqueued. */
export type AskInput = AskJobData;

export interface HistoryTurn {
  seq: number;
  questionEn: string;
  answerEn: string;
}

export interface EvidenceItem {
  id: string;
  qualifiedName: string;
  kind: string;
  path: string;
  startLine: number | null;
  endLine: number | null;
  signature: string | null;
  /** Retrieval score (hits), null for graph neighbours. */
  score: number | null;
  origin: 'hit' | 'neighbor' | 'graph-root';
  /** How a neighbour was reached: `<- CALLS - <from id>`. */
  via: string | null;
  /** The body or snippet fetched by id (fetch_node_texts). */
  text: string | null;
}

export interface RetrievalAttempt {
  query: string;
  mode: string;
  hits: number;
  bestScore: number;
  reformulated: boolean;
}

export interface Citation {
  id: string;
  path: string;
  startLine: number | null;
  endLine: number | null;
  qualifiedName: string;
}

/** Everything a run knows; every action reads and writes this, nothing else. */
export interface PipelineState {
  input: AskInput;
  questionOriginal: string;
  questionEn: string;
  history: {
    summary: string | null;
    summaryVersion: number;
    /** Last turn seq the summary covers (0: none). */
    summaryUpTo: number;
    /** Raw turns newer than the summary. */
    turns: HistoryTurn[];
    forPrompt: string;
    tokens: number;
    resummarized: boolean;
  };
  plan: RetrievalPlan | null;
  /** What the answer asked for in its last `[Requesting data on:]`. */
  request: string | null;
  evidence: EvidenceItem[];
  evidenceForPrompt: string;
  evidenceTokens: number;
  evidenceSummarized: boolean;
  attempts: RetrievalAttempt[];
  /** Output of the last call_model, null when no model is configured. */
  lastOutput: string | null;
  lastPrompt: string | null;
  /** Why the last model call failed (null: it did not). */
  lastError: string | null;
  counters: { loops: number; modelCalls: number; retries: number; steps: number };
  tokens: { input: number; output: number };
  answerEn: string | null;
  answer: string | null;
  citations: Citation[];
  inventedCitations: string[];
  missing: string | null;
  warnings: string[];
  modelAvailable: boolean;
}

export function initialState(input: AskInput, modelAvailable: boolean): PipelineState {
  return {
    input,
    questionOriginal: input.question,
    questionEn: input.question,
    history: { summary: null, summaryVersion: 0, summaryUpTo: 0, turns: [], forPrompt: '', tokens: 0, resummarized: false },
    plan: null,
    request: null,
    evidence: [],
    evidenceForPrompt: '',
    evidenceTokens: 0,
    evidenceSummarized: false,
    attempts: [],
    lastOutput: null,
    lastPrompt: null,
    lastError: null,
    counters: { loops: 0, modelCalls: 0, retries: 0, steps: 0 },
    tokens: { input: 0, output: 0 },
    answerEn: null,
    answer: null,
    citations: [],
    inventedCitations: [],
    missing: null,
    warnings: [],
    modelAvailable,
  };
}

export interface TraceStep {
  stepId: string;
  action: string;
  outcome: string;
  startedMs: number;
  ms: number;
  /** Time spent waiting on the model inside this step. */
  modelMs: number;
  modelCalls: number;
  /** HTTP attempts behind those calls (retries under the shared policy show as attempts > calls). */
  modelAttempts: number;
  inputTokens: number;
  outputTokens: number;
  detail: Record<string, unknown>;
}
