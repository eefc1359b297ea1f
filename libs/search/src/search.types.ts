import { EDGE_TYPES, type GraphEdgeType, LANGUAGES, type Provenance, SCOPE_KINDS, type ScopeKind } from '@scopegraph/code-model';

/**
 * Retrieval modes (DIRECT is the pipeline's business, not a search). `graph` answers relationship
 * questions ("which classes extend X", "who calls X") from the graph alone; hybrid does the same
 * automatically when it recognises one.
 */
export const SEARCH_MODES = ['semantic', 'bm25', 'hybrid', 'semantic_rerank', 'graph', 'localize'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const DIRECTIONS = ['out', 'in', 'both'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export { EDGE_TYPES, LANGUAGES, SCOPE_KINDS };
export type { GraphEdgeType, ScopeKind };

// ---- Limits and defaults, in one place ------------------------------------------------------------

export const SEARCH_LIMITS = {
  maxTextLength: 1000,
  /** LOCALIZE (and hybrid text that is clearly an issue): a pasted issue, log or trace; cut further by its signals' limits. */
  maxIssueLength: 64_000,
  maxTopK: 200,
  maxCandidates: 1000,
  maxDepth: 3,
  maxExpandNodes: 200,
  maxGlobLength: 300,
  maxFilterLength: 500,
} as const;

export const SEARCH_DEFAULTS = {
  topK: 10,
  /** Per-list candidate limit in hybrid mode: how deep the vector and the full-text list each go before fusion. */
  candidates: 150,
  /**
   * RRF smoothing constant; larger flattens the lead of top ranks. 10 rather than the RRF paper's 60:
   * measured on the union of both dev sets (bench/search/fusion-replay), a list's first hits must
   * count clearly more than its 30th, on every question type and on both halves.
   */
  rrfK: 10,
  /** Code search: exact identifiers matter more than paraphrases, so keywords weigh more. */
  weights: { semantic: 2, bm25: 3, graph: 1 },
  /** semantic_rerank: final = (1 - w) * semantic + w * keyword_norm. */
  keywordWeight: 0.3,
  rerankMinPool: 50,
  rerankPoolFactor: 3,
  /**
   * Filtered vector search: brute-force cosine when at most this many embedded scopes pass the filters.
   * Measured (bench/search, 100k-scope index): brute force costs ~8 µs per candidate on top of a
   * round trip (917 candidates: 12 ms) while SEARCH ... WHERE answers in ~4.5 ms at any of these
   * sizes with 0.99 of the exact top 10; and counting candidates reads up to this many + 1 scopes on
   * every filtered query (2001 rows: ~4 ms at 100k). 500 keeps exact answers for small sets cheap.
   */
  exactMaxCandidates: 500,
  /** Over-fetch: first k = factor × wanted, doubled while too few survive the post-filter. */
  overfetchFactor: 4,
  overfetchMaxK: 4096,
  expand: { depth: 1, direction: 'both' as Direction, maxNodes: 50 },
  /**
   * Second stage over the fused head (fusion/rescore.ts). Measured on the union of both dev sets
   * (bench/search/quality-tune, fusion-replay): a name bonus of 0.3 cost semantic questions 0.06
   * nDCG@10, so it is 0; comparing words by their stem gains on descriptions and costs nothing elsewhere.
   * A candidate whose container (class, enclosing function, file) is a candidate too gets 0.15: +0.024
   * nDCG@10 over the union, a gain in every question type and on both halves; 0.08-0.3 all gain, the
   * curve is flat from 0.15. A code edge with another candidate gets 0.1: +0.010 on the union,
   * +0.023 on behaviour questions, every group gains (0.15 costs exact strings). bench/search/README.md,
   * "Fourth measurement". The pool BM25 scores a candidate shorter than the pool's average as an
   * average one (shortAsAverage): a one-line helper holding the query's words no longer outranks the
   * code that does what the question says (issue 24, "Fifth measurement").
   */
  rescore: { depth: 30, keywordWeight: 0.5, phraseBonus: 1, nameBonus: 0, nameWordsBonus: 0, containerBonus: 0.15, linkBonus: 0.1, stemming: true, shortAsAverage: true },
  /**
   * Hybrid, for a question in plain words (fusion/query-shape.ts: a sentence with no identifier and
   * nothing quoted). Its words rarely name the code that answers it, so the vector list leads the
   * fusion, the keyword query looks for the words in doc comments rather than in names, and the
   * second stage gives the candidates' keywords a smaller share. Pasted messages still come first:
   * the phrase bonus of the second stage does not depend on these. A candidate named by two or more
   * of the question's words (`loadConfig` for "load the config from disk") gets 0.2 in the
   * second stage: +0.02 nDCG@10 on the dev set's behaviour questions, both halves; 0.25 and more cost
   * lexical questions (bench/search/README.md, "Fifth measurement").
   */
  plainWords: { weights: { semantic: 2, bm25: 1 }, rescoreKeywordWeight: 0.3, rescoreNameWordsBonus: 0.2 },
} as const;

// ---- The plan: what the fluent builder and the GraphQL resolver both produce -----------------------

export interface PathFilter {
  /** Substring of the repo-relative path (case-sensitive). */
  contains?: string;
  /** Glob on the whole repo-relative path: `**` any directories, `*` / `?` within one segment, `[a-z]`, `{a,b}`. */
  glob?: string;
}

export interface SearchFilters {
  repository?: string;
  path?: PathFilter;
  languages?: string[];
  kinds?: string[];
  /** Exact name or qualified name (`create` or `InvoiceService.create`). */
  name?: string;
  /**
   * The repositories a caller may see (a key scoped to some): the others are filtered out before
   * ranking and limiting, and never counted in explain. Undefined: every repository.
   */
  repositoryVisible?: (repoId: string) => boolean;
}

export type FilterStrategyChoice = 'auto' | 'exact' | 'overfetch';

export interface ListPlan {
  text: string;
  /** Candidates this list contributes (hybrid: per-list limit; single list: at least the final limit). */
  limit: number;
}

export interface FusionWeights {
  semantic: number;
  bm25: number;
  graph: number;
}

export interface GraphSignalPlan {
  weight: number;
  edges: GraphEdgeType[];
}

export interface RescorePlan {
  depth: number;
  keywordWeight: number;
  phraseBonus: number;
  nameBonus: number;
  /** Added when the candidate's name is made of two or more words of the query (set for plain-words questions). */
  nameWordsBonus: number;
  /** Added when the candidate's container (class, enclosing function, file) is among the re-ordered candidates too. */
  containerBonus: number;
  /** Added when the candidate calls, references, extends, implements or overrides another re-ordered candidate, or is called... by one. */
  linkBonus: number;
  /** Compare words by their English stem. */
  stemming: boolean;
  /** Pool BM25: a candidate shorter than the pool's average counts as average-length. */
  shortAsAverage: boolean;
}

/** Hybrid settings for a question in plain words (see SEARCH_DEFAULTS.plainWords). */
export interface PlainWordsPlan {
  weights: { semantic: number; bm25: number };
  rescoreKeywordWeight: number;
  /** Second-stage bonus for a candidate whose name is made of the question's words (fusion/rescore.ts). */
  rescoreNameWordsBonus: number;
}

export interface ExpandPlan {
  depth: number;
  edges: GraphEdgeType[];
  direction: Direction;
  maxNodes: number;
}

export interface SearchPlan {
  mode: SearchMode;
  semantic?: ListPlan;
  bm25?: ListPlan;
  fusion: { k: number; weights: FusionWeights };
  /** semantic_rerank only. */
  keywordWeight: number;
  filters: SearchFilters;
  filterStrategy: FilterStrategyChoice;
  exactMaxCandidates: number;
  graphSignal?: GraphSignalPlan;
  expand?: ExpandPlan;
  limit: number;
  /** Truncate each returned source to this many characters (null: whole source). */
  sourceChars: number | null;
  /** Rerank the retrieved hits with an LLM (libs/rerank) after retrieval. */
  rerank?: SearchRerankRequest;
  /** graph mode: the relationship question. */
  graph?: { text: string };
  /** hybrid: answer a recognised relationship question from the graph first (default true). */
  structural?: boolean;
  /** Phrase clauses for pasted text in the keyword query (default true; off only to measure their gain). */
  phrases?: boolean;
  /** Hybrid: hand text that is clearly an issue (a trace, several lines with code) to LOCALIZE (default true). */
  autoLocalize?: boolean;
  /** Second stage over the fused top candidates (hybrid and semantic_rerank); null: off. */
  rescore?: RescorePlan | null;
  /** Hybrid: what changes for a question in plain words; null: nothing (explicit weights, or off). */
  plainWords?: PlainWordsPlan | null;
}

// ---- Results -----------------------------------------------------------------------------------------

export interface ScopeRecord {
  id: string;
  repoId: string;
  name: string;
  qualifiedName: string;
  kind: string;
  language: string;
  path: string;
  /** The enclosing scope (class, function, file); null for a file. */
  parentId: string | null;
  /** Only when asked (scopesById's `links`): the other requested scopes this one calls, references, extends, implements or overrides, or is called... by. */
  linked?: string[];
  startLine: number | null;
  endLine: number | null;
  signature: string | null;
  docComment: string | null;
  source: string | null;
  /** Length of the whole source, so a client can tell that `source` was truncated. */
  sourceLength: number;
  sourceTruncated: boolean;
}

export interface ListScore {
  /** The list's own score: cosine similarity in [0, 1] (semantic) or Lucene BM25 (bm25). */
  score: number;
  /** 1-based rank in the list after filters. */
  rank: number;
  /** What this list added to the final score (RRF: weight / (k + rank); blend: weight × score). */
  contribution: number;
}

export interface ScoreBreakdown {
  semantic?: ListScore;
  bm25?: ListScore;
  /** semantic_rerank: keyword overlap on the widened pool; score is normalised by the pool's best. */
  keyword?: ListScore & { raw: number };
  /** Graph signal: how many other candidates this scope is directly connected to. */
  graph?: ListScore & { connections: number };
  /** Second stage: what each piece of evidence added (fused share, pool keyword share, phrase, name, container and link bonuses). */
  rescore?: { fused: number; keyword: number; phrase: number; name: number; container: number; link: number };
  fusion: 'none' | 'rrf' | 'blend' | 'graph' | 'localize';
  filtersApplied: string[];
}

/** LOCALIZE: one piece of evidence that brought a hit, and the edge it travelled when it was spread over the graph. */
export interface LocalizeEvidence {
  /**
   * frame | frame-neighbor | name | name-neighbor | member | overrider | phrase | code | path | prose (the lists);
   * file-prior (test, vendored or issue-named file), file-sibling (in one of the best files), function-match
   * (its name and body hold the issue's words, within the best files), top-neighbor (calls or is called by
   * one of the best functions), contract (an equality, hashing or ordering partner of one of the best methods): the
   * stages after the fusion.
   */
  signal: string;
  /** What the signal was: the frame (`sessions.py:456 in request`), the name, the quoted message... */
  detail: string;
  /** The list's 1-based rank of this hit and what it added to the fused score. */
  rank: number;
  contribution: number;
  /** When spread over the graph: the edge and the scope it came from. */
  edge?: string;
  from?: string;
}

/** LOCALIZE: a file of the ranked functions, scored by them. */
export interface FileRollup {
  repoId: string;
  path: string;
  score: number;
  rank: number;
  /** Qualified names of its ranked functions, best first. */
  functions: string[];
}

/** How a GRAPH answer is connected to the scope the question named. */
export interface GraphVia {
  relation: string;
  /** The scope the question named (the path starts there). */
  anchorId: string;
  anchorName: string;
  depth: number;
  path: PathStep;
  /** The path has a hop the name-based resolver made (provenance name or heuristic): the answer rests on name matching. */
  nameOnly?: boolean;
}

export interface PathStep {
  /** Node ids from the hit to the neighbor, both included. */
  nodeIds: string[];
  /** Edge types along the path, one per hop. */
  edgeTypes: GraphEdgeType[];
  /** How each hop was walked: `out` follows the edge, `in` walks it backwards. */
  directions: ('out' | 'in')[];
  /** How each hop's edge was made (compiler, scip, name, heuristic); null for containment and IMPORTS. */
  provenances?: (Provenance | null)[];
}

export interface Neighbor {
  scope: ScopeRecord;
  depth: number;
  /** The hit the neighbor was reached from (first by depth, then by hit rank). */
  fromId: string;
  path: PathStep;
}

export interface SearchHit {
  scope: ScopeRecord;
  score: number;
  rank: number;
  scoreBreakdown: ScoreBreakdown;
  neighbors?: Neighbor[];
  /** GRAPH answers: the relation and the path from the named scope. */
  via?: GraphVia;
  /** The same scope (same kind, name and source) found at other paths: shown once, with these paths. */
  alsoAt?: string[];
  /** LOCALIZE: why this hit, one entry per signal that brought it. */
  evidence?: LocalizeEvidence[];
}

export interface SearchTimings {
  filters: number;
  embed: number;
  semantic: number;
  bm25: number;
  fuse: number;
  graph: number;
  structural: number;
  rescore: number;
  fetch: number;
  expand: number;
  /** LOCALIZE: signal extraction and the signal lists (frames, names, spreading). */
  localize: number;
  total: number;
}

export type VectorStrategyName = 'none' | 'unfiltered-index' | 'exact-prefilter' | 'index-filter' | 'overfetch-postfilter' | 'empty';

export interface OverfetchAttempt {
  k: number;
  pool: number;
  kept: number;
}

export interface ListExplain {
  list: 'semantic' | 'bm25';
  cypher: string;
  strategy: string;
  reason: string;
  params: Record<string, unknown>;
  /** bm25: the escaped Lucene query actually sent. */
  luceneQuery?: string;
  attempts?: OverfetchAttempt[];
}

export interface SearchExplain {
  mode: SearchMode;
  limit: number;
  filters: string[];
  /**
   * Embedded scopes passing every filter, counted up to exactMaxCandidates + 1; `capped` means the
   * count stopped there ("more than exactMaxCandidates"). Null: not counted (no filters, no semantic list).
   */
  candidateCount: { count: number; capped: boolean } | null;
  vectorStrategy: { name: VectorStrategyName; reason: string };
  lists: ListExplain[];
  fusion: { method: 'none' | 'rrf' | 'blend' | 'graph'; k?: number; weights?: Partial<FusionWeights>; keywordWeight?: number; plainWords?: boolean };
  graphSignal?: { cypher: string; weight: number; edges: string[] };
  expand?: { cypher: string; pattern: string; depth: number; edges: string[]; direction: Direction; maxNodes: number };
  fetch: { cypher: string; sourceChars: number | null };
  rescore?: RescorePlan & { cypher: string };
  /** A relationship question recognised (graph mode, or hybrid's structural route). */
  structural?: StructuralExplain;
  /**
   * With a semantic list: the searched repositories' scopes and how many of them have a vector, i.e.
   * the share the vector list could see (below 1 while an index is still embedding: keyword, exact
   * and graph lists already see every written scope). `indexing`: repositories counted live.
   */
  vectorCoverage?: { scopes: number; embedded: number; share: number; indexing: number };
  /** LOCALIZE: the signals read from the issue, the lists they ran and what was cut. */
  localize?: LocalizeExplain;
  notes: string[];
}

export interface LocalizeExplain {
  /** Why LOCALIZE ran: asked for, or chosen by hybrid (and why). */
  chosenBy: string;
  signals: { frames: number; framesInRepository: number; identifiers: string[]; strings: string[]; codeSpans: number; paths: string[]; proseChars: number };
  /** Per list: its weight, how many scopes it ranked and the Cypher file it ran. */
  lists: { name: string; weight: number; hits: number; cypher: string }[];
  /** What was cut to stay within the limits (frames, identifiers, characters). */
  truncated: string[];
  /** The hybrid search run over the prose (its own explain is summarised here). */
  /** `embedded`: the shorter text its vector list embeds (the keyword list reads `text`). */
  prose: { text: string; embedded: string; luceneQuery?: string };
  /**
   * Milliseconds: each list's query (the lists of a phase run at once), and the phases that add up
   * (prepare: signals to queries; lists; spread: the graph; fuse; then the service's fetch).
   */
  stages: Record<string, number>;
  /** After the fusion, in order: each stage's evidence signal, how many hits it touched and its rule. */
  afterFusion?: { signal: string; hits: number; rule: string }[];
}

export interface StructuralExplain {
  relation: string;
  target: string;
  rule: string;
  edges: string[];
  direction: 'in' | 'out';
  maxDepth: number;
  anchors: { id: string; qualifiedName: string; kind: string; path: string; degree: number }[];
  cypher: string[];
  /** Hits answered from the graph (placed first). */
  answered: number;
  /** Of those, answers whose path has a name-only hop (provenance name or heuristic). */
  nameOnly?: number;
}

export interface SearchResponse {
  results: SearchHit[];
  timings: SearchTimings;
  explain: SearchExplain;
  /** Degradations the caller should know about (e.g. a hybrid query answered by its keyword list alone). */
  warnings: string[];
  /** With a rerank request: the started rerank (watch it with rerankProgress). */
  rerank?: SearchRerankHandle;
  /** LOCALIZE: the files of the ranked functions, best first. */
  files?: FileRollup[];
}

export interface NeighborhoodResult {
  root: ScopeRecord;
  neighbors: Neighbor[];
  cypher: string;
  pattern: string;
}

/** What a search asks of a reranker: the question the hits should answer and its options. */
export interface SearchRerankRequest {
  question: string;
  /** Options as the reranker defines them (batchSize, parallel, strategy, scoreMerging, ...). */
  options: Record<string, unknown>;
  /** How many retrieved hits go to the reranker (the final list keeps `limit`). */
  candidateCount: number;
  /** Who started it (a key id): only they (and admins) may read it back. */
  owner?: string | null;
}

/** A started rerank: its job id to watch (rerankProgress) and, when it finished at once, its result. */
export interface SearchRerankHandle {
  jobId: string;
  status: string;
  skipped: boolean;
  total: number;
  result?: unknown;
}
