// Shapes of the answers to ./operations.ts (enum values as the API spells them: upper case). They
// restate the API's types because the console may import no server code (.dependency-cruiser.cjs).

export interface Scope {
  id: string;
  repoId: string;
  name: string;
  qualifiedName: string;
  kind: string;
  language: string;
  path: string;
  startLine: number | null;
  endLine: number | null;
  signature: string | null;
  docComment: string | null;
  source: string | null;
  sourceLength: number;
  sourceTruncated: boolean;
}

export type ScopeRef = Pick<Scope, 'id' | 'name' | 'qualifiedName' | 'kind' | 'path'> & { startLine?: number | null };

export interface ListScore {
  rank: number;
  score: number;
  contribution: number;
}

export interface ScoreBreakdown {
  fusion: string;
  filtersApplied: string[];
  semantic: ListScore | null;
  bm25: ListScore | null;
  keyword: (ListScore & { raw: number }) | null;
  graph: (ListScore & { connections: number }) | null;
  rescore: { fused: number; keyword: number; phrase: number; name: number; container: number; link: number } | null;
}

export interface GraphPath {
  nodeIds: string[];
  edgeTypes: string[];
  directions: string[];
  /** compiler | scip | name | heuristic per hop; null for containment and IMPORTS (absent from older servers). */
  provenances?: (string | null)[] | null;
}

export interface GraphVia {
  relation: string;
  anchorId: string;
  anchorName: string;
  depth: number;
  path: GraphPath;
  /** The answer rests on name matching (a hop made by the name-based resolver). */
  nameOnly?: boolean | null;
}

export interface SearchHit {
  rank: number;
  score: number;
  alsoAt: string[] | null;
  scope: Scope;
  scoreBreakdown: ScoreBreakdown;
  via: GraphVia | null;
}

export interface SearchTimings {
  embed: number;
  semantic: number;
  bm25: number;
  fuse: number;
  structural: number;
  rescore: number;
  fetch: number;
  total: number;
}

export interface SearchResponse {
  strategy: string;
  warnings: string[];
  explain: unknown;
  timings: SearchTimings;
  results: SearchHit[];
}

export type SearchMode = 'HYBRID' | 'SEMANTIC' | 'BM25' | 'SEMANTIC_RERANK' | 'GRAPH';

export interface SearchForm {
  text: string;
  mode: SearchMode;
  repository: string;
  topK: number;
  pathContains: string;
  pathGlob: string;
  kind: string;
  language: string;
}

export interface Repository {
  id: string;
  name: string;
  /** Null for keys below admin: server paths are for admins only. */
  rootPath: string | null;
  files: number | null;
  scopes: number | null;
  edges: number | null;
  embedded: number | null;
  indexedAt: string | null;
  include: string[];
  exclude: string[];
  /** FAILED: the last run did not finish (half-written); re-indexing completes it. */
  indexStatus: 'INDEXING' | 'INDEXED' | 'FAILED';
  indexError: string | null;
  /** While INDEXING: scopes written and embedded so far. */
  indexRun?: { phase: string; scopesWritten: number; embedded: number; toEmbed: number } | null;
}

export interface Vocabulary {
  kinds: string[];
  languages: string[];
  edgeTypes: string[];
}

export interface RerankHit {
  scopeId: string;
  rank: number;
  score: number;
  scope: ScopeRef;
  scoreBreakdown: {
    retrieval: number;
    retrievalRank: number;
    llm: number | null;
    llmReasoning: string | null;
    relevant: boolean | null;
    merged: number;
    scored: boolean;
    reranker: string;
    fallbackReason: string | null;
    batch: number | null;
    cached: boolean;
  };
}

export interface SuggestedSearch {
  text: string;
  mode: string;
  topK: number | null;
  filters: { repository: string | null; pathContains: string | null; pathGlob: string | null; languages: string[]; kinds: string[]; name: string | null };
}

export interface QueryFeedback {
  quality: string;
  suggestions: Array<{ type: string; description: string; suggestedQuery: SuggestedSearch | null }>;
}

export interface RerankSummary {
  reranker: string;
  model: string | null;
  reason: string | null;
  llmCalls: number;
  fallbacks: number;
  durationMs: number | null;
  cache: { hits: number; misses: number };
  notes: string[];
}

export interface RerankProgress {
  kind: 'PROGRESS' | 'COMPLETED';
  status: 'RUNNING' | 'COMPLETED';
  done: number;
  total: number;
  hits: RerankHit[];
  feedback: QueryFeedback | null;
  result: RerankSummary | null;
}

export interface RerankJob {
  jobId: string;
  status: 'RUNNING' | 'COMPLETED';
  skipped: boolean;
  total: number;
  result: { jobId: string } | null;
}

export interface RerankResult extends RerankSummary {
  status: 'RUNNING' | 'COMPLETED';
  done: number;
  total: number;
  hits: RerankHit[];
  feedback: QueryFeedback | null;
}

export interface Neighbor {
  depth: number;
  fromId: string;
  scope: ScopeRef;
  path: GraphPath;
}

export interface Neighborhood {
  pattern: string;
  root: ScopeRef;
  neighbors: Neighbor[];
}

export interface AskStep {
  stepId: string;
  action: string;
  outcome: string;
  startedMs: number;
  ms: number;
  modelMs: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  detail: unknown;
}

export interface AskCitation {
  id: string;
  path: string;
  startLine: number | null;
  endLine: number | null;
  qualifiedName: string;
}

export interface AskResult {
  answer: string;
  question: string;
  pipeline: string;
  modelAvailable: boolean;
  model: string | null;
  warnings: string[];
  missing: string | null;
  loops: number;
  retries: number;
  evidenceTokens: number;
  modelCalls: number;
  citations: AskCitation[];
  plan: { mode: string; query: string; fallback: string | null } | null;
  timings: { totalMs: number; modelMs: number; overheadMs: number; firstChunkMs: number | null };
  trace: AskStep[];
}

export interface AskEvent {
  seq: number;
  kind: 'STEP' | 'CHUNK' | 'FINAL' | 'ERROR';
  text: string | null;
  message: string | null;
  step: AskStep | null;
  result: AskResult | null;
}

export interface ConversationTurn {
  seq: number;
  questionOriginal: string;
  answer: string;
  createdAt: string;
}

export interface IndexProgress {
  phase: string;
  filesTotal: number;
  filesParsed: number;
  filesReused: number;
  scopes: number;
  edges: number;
  embedded: number;
  toEmbed: number;
  etaSeconds: number | null;
  errors: number;
  failedReason: string | null;
  result: unknown;
  recentErrors: Array<{ path: string; message: string }>;
}
