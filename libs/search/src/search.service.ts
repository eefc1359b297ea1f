import { searchStageDuration } from '@scopegraph/observability';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EDGE_TYPES, type Provenance, REFERENCE_EDGE_TYPES } from '@scopegraph/code-model';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from '@scopegraph/llm';
import { type Clock, SYSTEM_CLOCK } from '@scopegraph/config';
import { CatalogCache, SEARCH_CLOCK } from './filters/catalog-cache';
import type { GlobMatcher } from './filters/glob';
import { chooseVectorStrategy, keywordLuceneK, listsApart, LISTS_APART_MIN_VECTORS, nextOverfetchK, postfilterK, StrategyChoice } from './filters/strategy';
import { blendScores, keywordScore, keywordTerms } from './fusion/keyword-blend';
import { rescore } from './fusion/rescore';
import { connectionList, FusedItem, RankedList, rrfFuse } from './fusion/rrf';
import { allowedEdgeTypes, EXPAND_CYPHER, expansionPattern } from './graph/expansion-cypher';
import { orderRelated, rankAnchors, type RankedAnchor } from './graph/graph-answer';
import { recogniseStructural, RELATION_SPECS, type StructuralQuestion } from './graph/structural';
import { validatePlan } from './plan';
import { CALLABLE_KINDS, commonPathWords, FILE_CALL_SHARE, FILE_SECOND_SHARE, filePrior, fileRollup, isTestPath, issueWords, localize, PER_FILE, PROSE_HITS, proseEmbedText, proseQuery, SIBLING_FILES, SIBLING_SHARE, siblingFiles, TEST_FILE_FACTOR, withSiblings } from './localize/localizer';
import { isTestScope } from './localize/priors';
import { afterFusionExplain, functionMatches, STAGE_PER_FILE, STAGE_SOURCE_CHARS, TOP_PER_SEED, TOP_SEEDS, withContractPartners, withFunctionMatches, withTopNeighbors } from './localize/function-stage';
import { extractSignals, looksLikeIssue, withoutHtmlComments } from './localize/signals';
import { buildLuceneQuery, keywordQuery, LuceneQuery, MAX_REPOSITORY_CLAUSES, phraseOnlyQuery, PROSE_FIELD_BOOSTS, queryPhrases } from './query/lucene';
import { isPlainWordsQuestion } from './fusion/query-shape';
import { semanticQueryText } from './query/query-text';
import { SEARCH_RERANKER, SearchReranker } from './search-reranker';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { CypherFilters, ExpansionRow, GraphRelatedRow, JoinableVectorList, SEARCH_CYPHER, ScoredId, SearchRepository, type VectorCoverage, withSourceChars } from './search.repository';
import {
  type Direction,
  type ExpandPlan,
  LANGUAGES,
  type ListExplain,
  type Neighbor,
  type NeighborhoodResult,
  type OverfetchAttempt,
  type PlainWordsPlan,
  SCOPE_KINDS,
  SEARCH_DEFAULTS,
  SEARCH_LIMITS,
  type ScopeRecord,
  type ScoreBreakdown,
  type SearchExplain,
  type SearchFilters,
  type SearchHit,
  type SearchPlan,
  type SearchResponse,
  type SearchTimings,
  type GraphVia,
  type StructuralExplain,
  type FileRollup,
} from './search.types';

/** How many fused candidates the graph signal looks at (connections among them). */
const GRAPH_SIGNAL_CANDIDATES = 200;
/** Source characters read per candidate for the keyword score of semantic_rerank. */
const KEYWORD_SOURCE_CHARS = 4_000;
/** Lists longer than this are shown as a count in explain output. */
const EXPLAIN_LIST_MAX = 20;
/** Related scopes read per anchor of a relationship question (before filters and de-duplication). */
const GRAPH_PER_ANCHOR_MIN = 50;
/**
 * Candidates of a relationship question's name read per lookup of graph-anchors.cypher (five
 * lookups: spelled as asked, of a fitting kind, ...) and ranked by their edges. A name defined in
 * thousands of places (`__virtual__` at 1M scopes: 20,425) cost a degree count for each: GRAPH p95
 * 836 ms. MAX_ANCHORS (8) of them are walked either way.
 */
export const ANCHOR_SCAN = 100;
/** semantic_rerank: scopes holding a phrase of the query added to its vector pool. */
const PHRASE_POOL = 10;
/** Extra hits fetched beyond the limit so that folding copies of one scope still fills the page. */
const DUPLICATE_SLACK = 10;
/** The semantic strategies whose list can run in one statement with the keyword list (one round trip, not two). */
const JOINABLE_STRATEGIES: Partial<Record<StrategyChoice['name'], JoinableVectorList>> = {
  'unfiltered-index': 'vectorIndex',
  'exact-prefilter': 'vectorExact',
  'index-filter': 'vectorIndexFiltered',
  'index-postfilter': 'vectorIndexPostfiltered',
};
/** How long a search reuses the repository ids and candidate count another search read (see CatalogCache). */
const CATALOG_TTL_MS = 2_000;
/**
 * How long past CATALOG_TTL_MS a search may use the last vector coverage while one read refreshes it
 * in the background. A repository being indexed is counted live (every scope read: 370-640 ms at 1M
 * scopes), and without this the search that found the answer expired paid that count on its own path,
 * once every TTL, for as long as the index ran. Coverage moves slowly; `explain` always reads it fresh.
 */
const COVERAGE_STALE_MS = 30_000;

/** A relationship question answered from the graph, in answer order. */
export interface StructuralAnswer {
  question: StructuralQuestion;
  anchors: RankedAnchor[];
  rows: GraphRelatedRow[];
  explain: StructuralExplain;
}

interface ResolvedFilters {
  cypher: CypherFilters;
  descriptions: string[];
  hasFilters: boolean;
  hasPostFilters: boolean;
  /** Known before searching that no scope can pass (a glob that matches no file). */
  matchesNothing: boolean;
  explainParams: Record<string, unknown>;
}

interface Prepared {
  plan: SearchPlan;
  filters: ResolvedFilters;
  strategy: StrategyChoice;
  candidateCount: SearchExplain['candidateCount'];
  lucene: LuceneQuery | null;
  explain: SearchExplain;
  /** The searched repositories' share of the vector index, when known (filters/strategy.ts). */
  indexShare: number | null;
  /** The Lucene query narrows to what the filters keep: the keyword list asks Lucene for its top k only. */
  keywordLucene: boolean;
  /** The searched repositories' share of the full-text index, when known (keywordLuceneK). */
  keywordShare: number | null;
  /** Hybrid's two lists run as two statements at once, not joined (filters/strategy.ts, listsApart). */
  listsApart: boolean;
}

type Stage = Exclude<keyof SearchTimings, 'total'>;

/**
 * Runs a SearchPlan: resolve filters -> choose the vector strategy -> embed -> semantic and keyword
 * lists (in parallel) -> fuse (RRF, or the semantic_rerank blend) -> optional graph signal -> trim ->
 * fetch the hits' fields -> optional graph expansion. Every Neo4j call goes through SearchRepository.
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger(SearchService.name);

  private readonly counts: CatalogCache<{ repositoryIds: string[]; n: number }>;
  private readonly repositories: CatalogCache<string[]>;
  private readonly coverage: CatalogCache<VectorCoverage>;
  private readonly files: CatalogCache<{ repoId: string; path: string }[]>;

  constructor(
    private readonly repo: SearchRepository,
    @Inject(EMBEDDING_PROVIDER) private readonly embedder: EmbeddingProvider,
    @Optional() @Inject(SEARCH_RERANKER) private readonly reranker?: SearchReranker,
    @Optional() @Inject(SEARCH_CLOCK) clock: Clock = SYSTEM_CLOCK,
  ) {
    this.counts = new CatalogCache(CATALOG_TTL_MS, () => clock.now());
    this.repositories = new CatalogCache(CATALOG_TTL_MS, () => clock.now());
    this.coverage = new CatalogCache(CATALOG_TTL_MS, () => clock.now(), undefined, COVERAGE_STALE_MS);
    this.files = new CatalogCache(CATALOG_TTL_MS, () => clock.now());
  }

  /** The plan as it would run: filters, counted candidates, strategy, Cypher files and parameters (no vectors). */
  async explain(plan: SearchPlan): Promise<SearchExplain> {
    const timings = emptyTimings();
    // Explain shows what the database holds now, never a remembered count.
    return (await this.prepare(plan, timings, true)).explain;
  }

  async execute(requested: SearchPlan): Promise<SearchResponse> {
    const { plan, chosenBy } = routeIssue(requested);
    const run = (p: SearchPlan) => (p.mode === 'localize' ? this.localizeIssue(p, chosenBy) : this.retrieve(p));
    if (!plan.rerank) return run(plan);
    if (!this.reranker) throw new DomainError(DomainErrorCode.InvalidPlan, 'reranking is not available in this process', 'rerank');
    // Retrieve deeper than the final limit so the reranker has something to reorder.
    const response = await run({ ...plan, limit: Math.max(plan.limit, plan.rerank.candidateCount) });
    const rerank = await this.reranker.rerank(plan, response);
    return { ...response, results: response.results.slice(0, plan.limit), rerank };
  }

  /**
   * LOCALIZE: the issue's signals (frames, names, quoted messages, paths, prose), each run where it
   * is strongest, fused by weighted RRF, spread over the graph; functions and methods ranked with
   * the evidence that brought each, and their files rolled up.
   */
  private async localizeIssue(plan: SearchPlan, chosenBy: string): Promise<SearchResponse> {
    const started = performance.now();
    const { glob } = validatePlan(plan);
    const timings = emptyTimings();
    const t1 = performance.now();
    // The issue's words as its page shows them (a template's comments are the same in every issue).
    const issueText = withoutHtmlComments(plan.semantic!.text);
    const signals = extractSignals(issueText);
    const signalsMs = performance.now() - t1;
    // The prose search (hybrid: its own filters, the embedding, two lists, a fetch) is the longest
    // chain: it starts first, its query embedding at once, and runs while the filters, the files
    // and the signal lists are read. Its failure is seen where it is awaited (in localize).
    const proseText = proseQuery(signals, LOCALIZE_PROSE_CHARS);
    // Its vector list embeds a bounded opening of that text (the model's cost grows with its length).
    const embedding = proseText.trim() ? this.prefetchQueryVector(proseEmbedText(signals)) : null;
    const prose = embedding ? this.retrieve(proseSubPlan(plan, proseText), embedding) : Promise.resolve(null);
    prose.catch(() => undefined);
    const t0 = performance.now();
    // With a named repository its file list is read while the filters are checked (one round trip
    // fewer); it is used only when the filters resolve to that repository alone.
    const named = plan.filters.repository !== undefined ? [plan.filters.repository] : null;
    const filesOf = (repoIds: string[]) => this.files.get(JSON.stringify(repoIds), () => this.repo.localizeFiles(repoIds));
    const early = named ? filesOf(named) : null;
    early?.catch(() => undefined);
    const { filters } = await this.resolveFilters(plan.filters, glob, null, false);
    timings.filters += round(performance.now() - t0);
    const repoIds = filters.cypher.repoIds;
    const allFiles = filters.matchesNothing ? [] : early && JSON.stringify(repoIds) === JSON.stringify(named) ? await early : await filesOf(repoIds);
    const filesMs = performance.now() - t0;
    const paths = filters.cypher.paths ? new Set(filters.cypher.paths) : null;
    const contains = filters.cypher.pathContains;
    const files = allFiles.filter((f) => (!paths || paths.has(f.path)) && (contains === null || f.path.includes(contains)));
    // The ranking's head, read with its records (the file roll-up reads deeper than the page).
    const depth = Math.max(plan.limit, LOCALIZE_ROLLUP_DEPTH) + DUPLICATE_SLACK;
    const outcome = await localize(this.repo, { signals, filters: filters.cypher, files, limit: plan.limit, prose, headDepth: depth, sourceChars: plan.sourceChars });
    const proseResponse = await prose;
    if (proseResponse) for (const [stage, ms] of Object.entries(proseResponse.timings)) if (stage !== 'total') timings[stage as Stage] += ms;
    // LOCALIZE's own time: what it took beyond the prose search it waited on.
    timings.localize = round(Math.max(0, performance.now() - t1 - (proseResponse?.timings.total ?? 0)));

    // Results are the functions and methods that pass the caller's filters.
    const inFilters = (s: ScopeRecord) => (!paths || paths.has(s.path)) && (contains === null || s.path.includes(contains)) && (!plan.filters.languages?.length || plan.filters.languages.includes(s.language));
    const head = outcome.ranked.slice(0, depth);
    const records = outcome.records;
    const words = issueWords(issueText, commonPathWords(allFiles));
    const primed = head
      .filter((r) => records.has(r.id) && CALLABLE_KINDS.includes(records.get(r.id)!.kind) && inFilters(records.get(r.id)!))
      // Priors on the file (tests and vendored code count less, files named like the issue more); the evidence says so.
      .map((r) => {
        const prior = filePrior(records.get(r.id)!.path, words, records.get(r.id)!.qualifiedName);
        if (prior.factor === 1) return r;
        const evidence = [...r.evidence, { signal: 'file-prior', detail: prior.reasons.join('; '), rank: 1, contribution: Math.round(r.score * (prior.factor - 1) * 10_000) / 10_000 }];
        return { ...r, score: r.score * prior.factor, evidence };
      })
      .sort((a, b) => b.score - a.score);
    // The best files' functions and the best functions' callees and callers, each read with its
    // record and its source (the function stage's text): one round trip.
    const t3 = performance.now();
    const sibFiles = siblingFiles(primed, (id) => records.get(id)!);
    const seeds = primed.slice(0, TOP_SEEDS);
    const stageChars = plan.sourceChars === null ? null : Math.max(plan.sourceChars, STAGE_SOURCE_CHARS);
    const [sibRows, neighborRows] = await Promise.all([
      this.repo.localizeStageFunctions(sibFiles.map(({ repoId, path }) => ({ repoId, path })), CALLABLE_KINDS, STAGE_PER_FILE, stageChars),
      this.repo.localizeStageNeighbors(seeds.map((s) => s.id), CALLABLE_KINDS, TOP_PER_SEED, stageChars),
    ]);
    const stageReadMs = performance.now() - t3;
    const t4 = performance.now();
    const stageRecords = new Map<string, ScopeRecord>();
    for (const { record } of [...sibRows, ...neighborRows]) stageRecords.set(record.id, record);
    for (const [id, rec] of stageRecords) if (!records.has(id)) records.set(id, withSourceChars(rec, plan.sourceChars));
    const topNeighbors = neighborRows.map(({ record, ...n }) => ({ ...n, id: record.id }));
    const sibKept = sibRows
      .map(({ pathIndex, record }) => ({ pathIndex, id: record.id }))
      .filter((r) => inFilters(records.get(r.id)!) && !isTestPath(records.get(r.id)!.path) && !isTestScope(records.get(r.id)!.qualifiedName));
    const withSibs = withSiblings(primed, sibFiles, sibKept);
    // The function stage: inside the best files, each function scored by the issue's words.
    const stageCandidates = sibKept.map((r) => ({ ...stageRecords.get(r.id)!, fileIndex: r.pathIndex }));
    const matched = withFunctionMatches(withSibs, sibFiles, stageCandidates, functionMatches(signals.title, issueText, stageCandidates));
    const neighbored = withTopNeighbors(matched, seeds, topNeighbors.filter((r) => inFilters(records.get(r.id)!) && !isTestPath(records.get(r.id)!.path) && !isTestScope(records.get(r.id)!.qualifiedName)));
    // Equality, hashing and ordering methods of a best function's type (read with the best files' functions).
    const kept = withContractPartners(neighbored, seeds.map((s) => ({ ...s, name: records.get(s.id)!.name, qualifiedName: records.get(s.id)!.qualifiedName })), stageCandidates);
    timings.fetch += round(performance.now() - t3);
    const stageCpuMs = performance.now() - t4;
    const results: SearchHit[] = kept.slice(0, plan.limit).map((r, i) => ({
      scope: records.get(r.id)!,
      score: Math.round(r.score * 10_000) / 10_000,
      rank: i + 1,
      scoreBreakdown: { fusion: 'localize', filtersApplied: filters.descriptions },
      evidence: r.evidence,
    }));
    const files_: FileRollup[] = fileRollup(kept.map((r) => ({ scope: records.get(r.id)!, score: r.score, evidence: r.evidence })));

    const base = proseResponse?.explain ?? this.explainOf(plan, filters, { name: 'none', reason: 'no prose to search' }, null, null);
    const explain: SearchExplain = {
      ...base,
      mode: 'localize',
      limit: plan.limit,
      filters: filters.descriptions,
      localize: { chosenBy, ...outcome.explain, afterFusion: afterFusionExplain(kept, SIBLING_FILES, SIBLING_SHARE), stages: { signals: round(signalsMs), filtersAndFiles: round(filesMs), ...outcome.explain.stages, ...proseStages(proseResponse), stage: round(stageReadMs), functionStage: round(stageCpuMs), ...(embedding?.ms !== undefined ? { queryEmbedding: round(embedding.ms) } : {}) } },
      notes: [
        ...(chosenBy.startsWith('hybrid') ? [`${chosenBy}: answered by LOCALIZE`] : []),
        ...signals.truncated.map((t) => `truncated: ${t}`),
        ...(issueText !== plan.semantic!.text ? [`the issue's HTML comments (a template's instructions, not shown on its page) left out: ${plan.semantic!.text.length - issueText.length} characters`] : []),
        `prose searched by hybrid (its lists below), fused with the signal lists by weighted RRF; results are ${CALLABLE_KINDS.join(', ')}; scopes in test files count ${TEST_FILE_FACTOR} of their score, vendored code less, files whose path shares words with the issue more (evidence file-prior); then every function of the ${SIBLING_FILES} best files gains a share of its file's best score (file-sibling) and a share by how well its name and body match the issue's words among that file's functions (function-match), and the callees and callers of the ${TOP_SEEDS} best functions a share of theirs (top-neighbor), as do the equality, hashing and ordering partners of such a best method (contract); a file ranks by its best function plus ${FILE_SECOND_SHARE} x its second and ${FILE_CALL_SHARE} x its functions' top-neighbor evidence`,
        ...base.notes,
      ],
    };
    const warnings = [...outcome.proseWarnings];
    if (signals.truncated.length > 0) warnings.push(`the issue was cut to stay within the query limits: ${signals.truncated.join('; ')}`);
    timings.total = round(performance.now() - started);
    for (const [stage, ms] of Object.entries(timings)) searchStageDuration.observe({ mode: 'localize', stage }, ms / 1000);
    return { results, timings, explain, warnings, files: files_ };
  }

  /** The query embedding of a text, started now for a search that will want it later (never rejects unobserved). */
  private prefetchQueryVector(text: string): EarlyVector {
    const started = performance.now();
    const early: EarlyVector = { vector: this.embedder.embedQuery(semanticQueryText(text)) };
    early.vector.then(
      () => (early.ms = performance.now() - started),
      () => undefined,
    );
    return early;
  }

  /** `early`: the embedding of the plan's semantic text, when the caller started it already. */
  private async retrieve(plan: SearchPlan, early?: EarlyVector): Promise<SearchResponse> {
    const queryVector = early?.vector;
    const started = performance.now();
    const timings = emptyTimings();
    const time = async <T>(stage: Stage, work: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        timings[stage] += round(performance.now() - t0);
      }
    };

    const prep = await this.prepare(plan, timings);
    const p = prep.plan;
    const semanticWanted = p.semantic ? Math.max(p.semantic.limit, p.limit, p.mode === 'semantic_rerank' ? rerankPool(p.limit) : 0) : 0;
    const bm25Wanted = p.bm25 ? Math.max(p.bm25.limit, p.limit) : 0;

    // The keyword list does not wait for the query embedding; the semantic list does.
    const runsVector = p.semantic !== undefined && prep.strategy.name !== 'empty' && prep.strategy.name !== 'none';
    const semanticExplain = prep.explain.lists.find((l) => l.list === 'semantic');
    const warnings: string[] = [];
    const coverage = prep.explain.vectorCoverage;
    if (coverage && coverage.embedded < coverage.scopes && (p.mode === 'hybrid' || p.mode === 'semantic' || p.mode === 'semantic_rerank')) warnings.push(vectorCoverageNote(coverage));
    /** The query vector, or null when hybrid goes on without it (the failure is a warning, not hidden). */
    const embed = async (): Promise<number[] | null> => {
      try {
        return await time('embed', () => queryVector ?? this.embedder.embedQuery(semanticQueryText(p.semantic!.text)));
      } catch (error) {
        // Hybrid can still answer from the keyword list; say so rather than fail or hide it.
        if (p.mode !== 'hybrid') throw error;
        const warning = `semantic list skipped: query embedding failed (${(error as Error).message})`;
        this.logger.warn(warning);
        warnings.push(warning);
        prep.explain.notes.push(warning);
        return null;
      }
    };
    const runsKeyword = !!(p.bm25 && prep.lucene?.query && !prep.filters.matchesNothing);
    const keywordOptions = prep.keywordLucene ? keywordLuceneK(bm25Wanted, prep.keywordShare) : {};
    const keywordRun = () =>
      runsKeyword ? time('bm25', () => this.repo.fullText(keywordQuery(prep.lucene!), prep.filters.cypher, bm25Wanted, keywordOptions)) : Promise.resolve([] as ScoredId[]);
    // An embedding started early and still being computed (a text new to the process) is not waited
    // for by the keyword list: it runs meanwhile and only the vector list waits (one round trip more,
    // off the critical path).
    // Over a large index the lists run apart, at once (listsApart).
    const joinable = runsVector && runsKeyword && !prep.listsApart && (early === undefined || early.ms !== undefined) ? JOINABLE_STRATEGIES[prep.strategy.name] : undefined;
    const listsRun = async (): Promise<[ScoredId[], ScoredId[]]> => {
      if (!joinable) {
        // The keyword list does not wait for the query embedding; the semantic list does.
        const semanticRun = async (): Promise<ScoredId[]> => {
          const vector = runsVector ? await embed() : null;
          return vector ? time('semantic', () => this.semanticList(vector, prep, semanticWanted, semanticExplain)) : [];
        };
        return Promise.all([semanticRun(), keywordRun()]);
      }
      // Both lists in one round trip, once the vector is there: under load a round trip costs more
      // CPU than the keyword list gains by not waiting for the embedding. Both timings show it.
      const vector = await embed();
      if (!vector) return [[], await keywordRun()];
      const t1 = performance.now();
      const k = prep.strategy.name === 'index-postfilter' ? postfilterK(semanticWanted, prep.indexShare!) : semanticWanted;
      const both = await this.repo.bothLists(
        { list: joinable, vector, k, limit: semanticWanted },
        { query: keywordQuery(prep.lucene!), k: bm25Wanted, ...keywordOptions },
        prep.filters.cypher,
      );
      const ms = round(performance.now() - t1);
      timings.semantic += ms;
      timings.bm25 += ms;
      if (prep.strategy.name === 'index-postfilter' && both.semantic.hits.length < semanticWanted && both.semantic.pool === k) {
        return [await time('semantic', () => this.postfilterFallback(vector, prep, semanticWanted, both.semantic.hits.length, semanticExplain)), both.bm25];
      }
      return [both.semantic.hits, both.bm25];
    };
    // A relationship question is answered from the graph: GRAPH mode always, hybrid when it recognises one.
    const structuralText = p.mode === 'graph' ? p.graph!.text : p.mode === 'hybrid' && p.structural !== false ? p.semantic!.text : null;
    const structuralRun =
      structuralText !== null && !prep.filters.matchesNothing
        ? time('structural', () => this.structuralAnswer(structuralText, prep.filters.cypher, p.limit))
        : Promise.resolve(null);
    const [[semanticItems, bm25Items], structural] = await Promise.all([listsRun(), structuralRun]);

    // Fuse.
    const t0 = performance.now();
    let fused: { id: string; score: number; breakdown: Omit<ScoreBreakdown, 'filtersApplied'> }[];
    const primary: RankedList[] = [];
    if (p.semantic && p.mode !== 'semantic_rerank') primary.push({ name: 'semantic', weight: p.fusion.weights.semantic, items: semanticItems });
    if (p.bm25) primary.push({ name: 'bm25', weight: p.fusion.weights.bm25, items: bm25Items });
    if (p.mode === 'semantic_rerank') {
      // Pasted text may be far from its scope in vector space: scopes holding a query phrase join the pool.
      let pool = semanticItems;
      const phrases = p.phrases === false ? [] : queryPhrases(p.semantic!.text);
      if (phrases.length > 0 && !prep.filters.matchesNothing) {
        const phraseHits = await time('bm25', () => this.repo.fullText(phraseOnlyQuery(phrases), prep.filters.cypher, PHRASE_POOL));
        const have = new Set(pool.map((i) => i.id));
        const floor = Math.min(0, ...pool.map((i) => i.score));
        pool = [...pool, ...phraseHits.filter((h) => !have.has(h.id)).map((h) => ({ id: h.id, score: floor }))];
      }
      const semanticItemsPool = pool;
      const texts = await this.repo.scopesById(semanticItemsPool.map((i) => i.id), KEYWORD_SOURCE_CHARS);
      const terms = keywordTerms(p.semantic!.text);
      const blended = blendScores(
        semanticItemsPool.filter((i) => texts.has(i.id)).map((i) => ({ id: i.id, semantic: i.score, keyword: keywordScore(terms, texts.get(i.id)!) })),
        p.keywordWeight,
      );
      fused = blended.map((b) => ({ id: b.id, score: b.score, breakdown: { fusion: 'blend', semantic: b.semantic, keyword: b.keyword } }));
    } else if (p.mode === 'hybrid') {
      fused = rrfFuse(primary, p.fusion.k).map(toFused('rrf'));
    } else if (p.mode === 'graph') {
      fused = [];
    } else {
      // A single list: its own score is the final score.
      fused = primary[0].items.map((item, i) => ({
        id: item.id,
        score: item.score,
        breakdown: { fusion: 'none', [primary[0].name]: { score: item.score, rank: i + 1, contribution: item.score } },
      }));
    }
    timings.fuse += round(performance.now() - t0);

    // Optional graph signal: one more ranked list, fused by RRF with the mode's lists.
    if (p.graphSignal && fused.length > 1) {
      const candidates = fused.slice(0, GRAPH_SIGNAL_CANDIDATES).map((f) => f.id);
      const connections = await time('graph', () => this.repo.hitConnections(candidates, p.graphSignal!.edges));
      const graph = connectionList(connections, p.graphSignal.weight);
      const candidateSet = new Set(candidates);
      const lists = primary.map((l) => ({ ...l, items: l.items.filter((i) => candidateSet.has(i.id)) }));
      fused = rrfFuse([...lists, graph], p.fusion.k).map((f) => {
        const out = toFused('rrf')(f);
        if (f.lists.graph) out.breakdown.graph = { ...f.lists.graph, connections: f.lists.graph.score };
        return out;
      });
    }

    const via = new Map<string, GraphVia>();
    if (structural) {
      prep.explain.structural = structural.explain;
      if (p.mode === 'hybrid' && structural.rows.length > 0) {
        prep.explain.notes.push(
          `structural question (${structural.question.relation} of "${structural.question.target}"): ${structural.rows.length} answers from the graph placed first, then the fused lists`,
        );
      }
      if (structural.explain.anchorNote) prep.explain.notes.push(structural.explain.anchorNote);
      const answerIds = new Set(structural.rows.map((r) => r.id));
      // Say when answers rest on name matching rather than a compiler or a SCIP index.
      const byName = structural.rows.filter((r) => (r.provenances ?? []).some(isNameOnly)).length;
      structural.explain.nameOnly = byName;
      if (byName > 0) {
        prep.explain.notes.push(`${byName} of ${structural.rows.length} answers rest on name-only edges (provenance name or heuristic: matched by name, not by a compiler or a SCIP index)`);
      }
      const anchorName = new Map(structural.anchors.map((a) => [a.id, a.qualifiedName]));
      const graphItems = structural.rows.map((r, i) => {
        via.set(r.id, {
          relation: structural.question.relation,
          anchorId: r.anchorId,
          anchorName: anchorName.get(r.anchorId) ?? r.anchorId,
          depth: r.depth,
          path: { nodeIds: r.nodeIds, edgeTypes: r.edgeTypes, directions: r.directions, provenances: r.provenances },
          nameOnly: (r.provenances ?? []).some(isNameOnly),
        });
        return { id: r.id, score: 1 / (i + 1), breakdown: { fusion: 'graph' as const } };
      });
      fused = [...graphItems, ...fused.filter((f) => !answerIds.has(f.id))];
    } else if (p.mode === 'graph') {
      const note = `not answered from the graph: the text is not a recognised relationship question ("which classes extend X", "who calls X", "what does X call", "where is X imported/used", "what overrides X")`;
      warnings.push(note);
      prep.explain.notes.push(note);
    }

    // Second stage: the fused head re-ordered by evidence read from the candidates themselves. One
    // fetch serves it and the page: the page is the graph answers, the rescored head and the fused
    // order after it, so it lies within the fused top max(depth, page) (one more fetch only for ids
    // beyond, when the head lost some to deletion meanwhile).
    const rescoreText = p.semantic?.text ?? p.bm25?.text;
    const pageSize = p.limit + DUPLICATE_SLACK;
    let fetched = new Map<string, ScopeRecord>();
    const requested = new Set<string>();
    if (p.rescore && rescoreText && fused.length > 1 && (p.mode === 'hybrid' || p.mode === 'semantic_rerank')) {
      const plan = p.rescore;
      const head = fused.slice(0, plan.depth).filter((f) => !via.has(f.id));
      for (const f of fused.slice(0, Math.max(plan.depth, pageSize))) requested.add(f.id);
      fetched = await time('fetch', () => this.repo.scopesById([...requested], widerSourceChars(p.sourceChars, KEYWORD_SOURCE_CHARS), { links: plan.linkBonus > 0 }));
      const docs = new Map(head.filter((h) => fetched.has(h.id)).map((h) => [h.id, withSourceChars(fetched.get(h.id)!, KEYWORD_SOURCE_CHARS)]));
      const t1 = performance.now();
      const byId = new Map(fused.map((f) => [f.id, f]));
      const graphFirst = fused.filter((f) => via.has(f.id));
      const rest = fused.filter((f) => !via.has(f.id));
      fused = [
        ...graphFirst,
        ...rescore(rest, docs, rescoreText, plan).map((r) => ({ id: r.id, score: r.score, breakdown: { ...byId.get(r.id)!.breakdown, rescore: r.rescore } })),
      ];
      timings.rescore += round(performance.now() - t1);
      prep.explain.rescore = { ...plan, cypher: SEARCH_CYPHER.scopesById };
    }

    const top = fused.slice(0, pageSize);
    const unfetched = top.map((t) => t.id).filter((id) => !requested.has(id));
    const more = unfetched.length > 0 ? await time('fetch', () => this.repo.scopesById(unfetched, p.sourceChars)) : new Map<string, ScopeRecord>();
    const records = new Map<string, ScopeRecord>();
    for (const { id } of top) {
      const found = more.get(id) ?? fetched.get(id);
      if (!found) continue;
      // What the second stage read of the candidates' neighbours is not part of a result.
      const { linked: _linked, ...scope } = found;
      records.set(id, more.has(id) ? scope : withSourceChars(scope, p.sourceChars));
    }
    const results: SearchHit[] = [];
    // Hits shown so far by duplicateHead; their duplicateKey (a whitespace-normalised copy of the
    // source) is computed only when another hit shares the head, which few do.
    const shown = new Map<string, { hit: SearchHit; key?: string }[]>();
    for (const item of top) {
      const scope = records.get(item.id);
      if (!scope) continue; // deleted between the list query and the fetch
      // The same declaration at several paths (vendored or copied code): shown once, with the other paths.
      const head = duplicateHead(scope);
      const sameHead = shown.get(head);
      let original: SearchHit | undefined;
      if (sameHead) {
        const key = duplicateKey(scope);
        original = sameHead.find((c) => (c.key ??= duplicateKey(c.hit.scope)) === key)?.hit;
      }
      if (original) {
        if (original.scope.path !== scope.path) (original.alsoAt ??= []).includes(scope.path) || original.alsoAt!.push(scope.path);
        continue;
      }
      if (results.length >= p.limit) continue;
      const hit: SearchHit = {
        scope,
        score: item.score,
        rank: results.length + 1,
        scoreBreakdown: { ...item.breakdown, filtersApplied: prep.filters.descriptions },
        ...(via.has(item.id) ? { via: via.get(item.id) } : {}),
      };
      if (sameHead) sameHead.push({ hit });
      else shown.set(head, [{ hit }]);
      results.push(hit);
    }

    if (p.expand && results.length > 0) {
      const neighbors = await time('expand', () => this.expandFrom(results.map((r) => r.scope.id), p.expand!, p.sourceChars));
      for (const hit of results) hit.neighbors = neighbors.filter((n) => n.fromId === hit.scope.id);
    }

    timings.total = round(performance.now() - started);
    for (const [stage, ms] of Object.entries(timings)) searchStageDuration.observe({ mode: p.mode, stage }, ms / 1000);
    this.logger.debug(`search ${p.mode} "${truncate(p.semantic?.text ?? p.bm25?.text ?? p.graph?.text ?? '', 80)}": ${results.length} hits in ${timings.total} ms (${prep.strategy.name})`);
    return { results, timings, explain: prep.explain, warnings };
  }

  /**
   * Answers a relationship question from the graph: recognise it (rules, no model), resolve the name
   * it mentions (an ambiguous name keeps every candidate, best first), walk the relation's edges in
   * its direction. Null when the text is not such a question or names no scope in the filtered
   * repositories. GRAPH mode and hybrid's structural route run this; so can a pipeline router.
   */
  async structuralAnswer(text: string, filters: CypherFilters, limit: number): Promise<StructuralAnswer | null> {
    const question = recogniseStructural(text);
    if (!question) return null;
    const spec = RELATION_SPECS[question.relation];
    const anchorRows = await this.repo.graphAnchors({ names: question.names, target: question.target, targetKinds: spec.targetKinds, scan: ANCHOR_SCAN }, filters.repoIds, spec.edges);
    const anchors = rankAnchors(question, anchorRows);
    if (anchors.length === 0) return null;
    const considered = new Set(anchorRows.map((r) => r.id)).size;
    const definitions = Math.max(considered, ...anchorRows.map((r) => r.definitions ?? 0));
    const anchorIds = anchors.map((a) => a.id);
    const perAnchor = Math.max(GRAPH_PER_ANCHOR_MIN, 3 * limit);
    const walk = { edgeTypes: spec.edges, direction: spec.direction, maxDepth: spec.maxDepth, viaFile: question.relation === 'importers' };
    const rows =
      question.relation === 'overriders'
        ? await this.repo.graphOverriders(anchorIds, filters, perAnchor)
        : await this.repo.graphRelated(anchorIds, walk, filters, perAnchor);
    const ordered = orderRelated(question, rows, anchorIds).slice(0, limit + DUPLICATE_SLACK);
    const cypher =
      question.relation === 'overriders'
        ? [SEARCH_CYPHER.graphAnchors, SEARCH_CYPHER.graphOverriders]
        : [SEARCH_CYPHER.graphAnchors, spec.direction === 'in' ? SEARCH_CYPHER.graphRelatedIn : SEARCH_CYPHER.graphRelatedOut];
    return {
      question,
      anchors,
      rows: ordered,
      explain: {
        relation: question.relation,
        target: question.target,
        rule: question.rule,
        edges: spec.edges,
        direction: spec.direction,
        maxDepth: spec.maxDepth,
        anchors: anchors.map((a) => ({ id: a.id, qualifiedName: a.qualifiedName, kind: a.kind, path: a.path, degree: a.degree })),
        definitions,
        considered,
        ...(definitions > considered
          ? {
              anchorNote:
                `"${question.target}" names ${definitions} scopes: ${considered} of them were read (at most ${ANCHOR_SCAN} per lookup: spelled as asked first, ` +
                `then of a kind the relation is about, then other spellings) and the ${anchors.length} with the most ${spec.edges.join('/')} edges ${spec.direction === 'in' ? 'pointing at them' : 'leaving them'} walked`,
            }
          : {}),
        cypher,
        answered: ordered.length,
      },
    };
  }

  /** One scope by id, or null. */
  async scope(id: string, sourceChars: number | null = null): Promise<ScopeRecord | null> {
    return (await this.repo.scopesById([id], sourceChars)).get(id) ?? null;
  }

  /** The scopes around one scope, each with the path that reached it; null when the id is unknown. */
  async neighborhood(id: string, options: Partial<ExpandPlan> = {}, sourceChars: number | null = null): Promise<NeighborhoodResult | null> {
    const expand = checkedExpand(options);
    const root = await this.scope(id, sourceChars);
    if (!root) return null;
    return { root, neighbors: await this.expandFrom([id], expand, sourceChars), cypher: EXPAND_CYPHER, pattern: expansionPattern(expand) };
  }

  /** The scopes around several seeds at once (bounded like neighborhood), each with its path. */
  async neighborsOf(seedIds: string[], options: Partial<ExpandPlan> = {}, sourceChars: number | null = null): Promise<Neighbor[]> {
    const expand = checkedExpand(options);
    return seedIds.length === 0 ? [] : this.expandFrom(seedIds, expand, sourceChars);
  }

  // ---- stages ------------------------------------------------------------------------------------

  private async prepare(requested: SearchPlan, timings: SearchTimings, fresh = false): Promise<Prepared> {
    const { glob } = validatePlan(requested);
    const plainWords = requested.mode === 'hybrid' && requested.plainWords && isPlainWordsQuestion(requested.semantic!.text) ? requested.plainWords : null;
    const plan = plainWords ? plainWordsPlan(requested, plainWords) : requested;
    const t0 = performance.now();
    // The semantic list picks its strategy by how many embedded scopes pass the filters.
    const cap = plan.semantic ? plan.exactMaxCandidates + 1 : null;
    // How much of the searched repositories' scopes the vector list sees, and their share of the
    // vector index (which may choose the strategy). Timed with the filters: a read of its own, made
    // while the filters are resolved (the searched repositories are the one named, or all), so a
    // search that refreshes both waits for one round trip, not two. Not with a glob: it may match nothing.
    const coverageRepoIds = plan.filters.repository !== undefined ? [plan.filters.repository] : null;
    const readCoverage = () => this.coverage.get(JSON.stringify(coverageRepoIds), () => this.repo.vectorCoverage(coverageRepoIds), fresh);
    const early = plan.semantic && glob === null ? readCoverage() : null;
    // An unknown repository fails the filters; the coverage read's own failure then has no reader.
    early?.catch(() => undefined);
    const { filters, count } = await this.resolveFilters(plan.filters, glob, cap, fresh);
    const candidateCount: SearchExplain['candidateCount'] = count === null ? null : { count, capped: count >= cap! };
    const coverage = plan.semantic && !filters.matchesNothing ? await (early ?? readCoverage()) : null;
    timings.filters += round(performance.now() - t0);
    const repositoriesOnly = coverageRepoIds !== null && !plan.filters.kinds?.length && !plan.filters.languages?.length && !filters.hasPostFilters;
    const indexShare =
      coverage && repositoriesOnly && coverage.indexing === 0 && coverage.elsewhereIndexing === 0 && coverage.embedded > 0
        ? coverage.embedded / (coverage.embedded + coverage.elsewhere)
        : null;

    let strategy: StrategyChoice;
    if (!plan.semantic) strategy = { name: 'none', reason: 'no semantic list in this mode' };
    else if (filters.matchesNothing) strategy = { name: 'empty', reason: 'the path glob matches no file' };
    else {
      strategy = chooseVectorStrategy({
        hasFilters: filters.hasFilters,
        hasPostFilters: filters.hasPostFilters,
        count: candidateCount === null ? null : candidateCount.count,
        exactMax: plan.exactMaxCandidates,
        choice: plan.filterStrategy,
        indexShare,
      });
    }
    const lucene = plan.bm25 ? buildLuceneQuery(plan.bm25.text) : null;
    // withinRepositories puts the repositories into the Lucene query; every other filter is then
    // at its default (all kinds, all languages, no path or name), so Lucene's top k is the list's.
    const keywordLucene =
      !plan.filters.kinds?.length &&
      !plan.filters.languages?.length &&
      !filters.hasPostFilters &&
      (filters.cypher.repoIds.length <= MAX_REPOSITORY_CLAUSES || (plan.filters.repository === undefined && plan.filters.repositoryVisible === undefined));
    const keywordShare =
      keywordLucene && coverage && coverage.indexing === 0 && coverage.elsewhereIndexing === 0 && coverage.scopes > 0 && (coverageRepoIds !== null || plan.filters.repositoryVisible === undefined)
        ? coverage.scopes / (coverage.scopes + coverage.elsewhereScopes)
        : null;
    if (lucene && plan.phrases === false) lucene.phrases = [];
    if (lucene && plainWords) lucene.boosts = PROSE_FIELD_BOOSTS;
    const explain = this.explainOf(plan, filters, strategy, candidateCount, lucene, indexShare, keywordLucene);
    if (coverage) {
      const c = coverage;
      explain.vectorCoverage = {
        scopes: c.scopes,
        embedded: c.embedded,
        share: c.scopes > 0 ? Math.round((c.embedded / c.scopes) * 1000) / 1000 : 1,
        indexing: c.indexing,
        indexShare: indexShare === null ? null : Math.round(indexShare * 1000) / 1000,
      };
      if (c.embedded < c.scopes) {
        explain.notes.push(vectorCoverageNote(c));
      }
    }
    if (plainWords) {
      explain.fusion.plainWords = true;
      explain.notes.push(
        `question in plain words (no identifier, nothing quoted): weights semantic ${plainWords.weights.semantic} / bm25 ${plainWords.weights.bm25}, keyword terms weighed towards doc comments, second-stage keyword share ${plainWords.rescoreKeywordWeight}, name-words bonus ${plainWords.rescoreNameWordsBonus}`,
      );
    }
    const apart = plan.mode === 'hybrid' && listsApart(coverage ? coverage.embedded + coverage.elsewhere : null);
    if (apart) {
      explain.notes.push(
        `the semantic and keyword lists run as two statements at once (the vector index holds at least ${LISTS_APART_MIN_VECTORS.toLocaleString('en-US')} vectors: each list costs tens of ms there)`,
      );
    }
    return { plan, filters, strategy, candidateCount, lucene, explain, indexShare, keywordLucene, keywordShare, listsApart: apart };
  }

  /**
   * The filters resolved against the graph and, with `countCap`, the embedded scopes passing them
   * counted up to it (null when nothing filters or nothing can pass). Both may come from a read
   * another search made less than CATALOG_TTL_MS ago, unless `fresh`; a repository missing from a
   * remembered list is looked up again before it is refused.
   */
  private async resolveFilters(f: SearchFilters, glob: GlobMatcher | null, countCap: number | null, fresh: boolean): Promise<{ filters: ResolvedFilters; count: number | null }> {
    const kinds = f.kinds?.length ? [...new Set(f.kinds)] : [...SCOPE_KINDS];
    const languages = f.languages?.length ? [...new Set(f.languages)] : [...LANGUAGES];
    const pathContains = f.path?.contains ?? null;
    const name = f.name ?? null;
    const visible = f.repositoryVisible;
    const filtered = visible !== undefined || f.repository !== undefined || !!f.kinds?.length || !!f.languages?.length || pathContains !== null || glob !== null || name !== null;
    const counts = countCap !== null && filtered;

    let allRepos: string[] = [];
    let count: number | null = null;
    const read = async (freshRead: boolean): Promise<void> => {
      if (counts && !glob && !visible) {
        // The repository ids come with the count: one round trip where a glob does not need the ids first.
        const countFilters = { repoIds: f.repository !== undefined ? [f.repository] : null, kinds, languages, paths: null, pathContains, name };
        const key = JSON.stringify([countFilters, countCap]);
        const counted = await this.counts.get(key, () => this.repo.countCandidates(countFilters, countCap), freshRead);
        allRepos = counted.repositoryIds;
        count = counted.n;
      } else {
        allRepos = await this.repositories.get('', () => this.repo.repositoryIds(), freshRead);
      }
    };
    await read(fresh);
    if (!fresh && f.repository !== undefined && !allRepos.includes(f.repository)) await read(true);

    const descriptions: string[] = [];
    // A scoped caller's search runs over its repositories only, so the limit is filled from them.
    if (visible) allRepos = allRepos.filter(visible);
    let repoIds = allRepos;
    if (visible && f.repository === undefined) descriptions.push(`repository in the caller's ${allRepos.length} repositories`);
    if (f.repository !== undefined) {
      if (!allRepos.includes(f.repository)) {
        throw new DomainError(DomainErrorCode.UnknownRepository, `unknown repository ${JSON.stringify(f.repository)}`, 'repository');
      }
      repoIds = [f.repository];
      descriptions.push(`repository = ${JSON.stringify(f.repository)}`);
    }
    if (f.kinds?.length) descriptions.push(`kind in [${kinds.join(', ')}]`);
    if (f.languages?.length) descriptions.push(`language in [${languages.join(', ')}]`);
    if (pathContains !== null) descriptions.push(`path contains ${JSON.stringify(pathContains)}`);
    let paths: string[] | null = null;
    if (glob) {
      const all = await this.repo.filePaths(repoIds);
      paths = all.filter((path) => glob.matches(path));
      descriptions.push(`path glob ${JSON.stringify(glob.source)} (${paths.length} of ${all.length} files)`);
    }
    if (name !== null) descriptions.push(`name = ${JSON.stringify(name)}`);

    const cypher: CypherFilters = { repoIds, kinds, languages, paths, pathContains, name };
    const matchesNothing = paths !== null && paths.length === 0;
    if (counts && (glob || visible) && !matchesNothing) count = (await this.repo.countCandidates(cypher, countCap)).n;
    const filters: ResolvedFilters = {
      cypher,
      descriptions,
      hasFilters: descriptions.length > 0,
      hasPostFilters: paths !== null || pathContains !== null || name !== null,
      matchesNothing,
      explainParams: {
        repoIds: f.repository !== undefined ? repoIds : `<all ${allRepos.length} repositories>`,
        kinds: f.kinds?.length ? kinds : `<all ${SCOPE_KINDS.length} kinds>`,
        languages: f.languages?.length ? languages : `<all ${LANGUAGES.length} languages>`,
        paths: paths === null ? null : paths.length > EXPLAIN_LIST_MAX ? `<${paths.length} paths>` : paths,
        pathContains,
        name,
      },
    };
    return { filters, count };
  }

  /** The semantic list under the chosen strategy; over-fetch rounds are recorded in `explain`. */
  private async semanticList(vector: number[], prep: Prepared, wanted: number, explain: ListExplain | undefined): Promise<ScoredId[]> {
    const f = prep.filters.cypher;
    switch (prep.strategy.name) {
      case 'unfiltered-index':
        return this.repo.vectorIndex(vector, wanted);
      case 'exact-prefilter':
        return this.repo.vectorExact(vector, f, wanted);
      case 'index-filter':
        return (await this.repo.vectorIndexFiltered(vector, f, wanted, wanted)).hits;
      case 'index-postfilter': {
        const k = postfilterK(wanted, prep.indexShare!);
        const round = await this.repo.vectorIndexPostfiltered(vector, f, k, wanted);
        if (round.hits.length < wanted && round.pool === k) return this.postfilterFallback(vector, prep, wanted, round.hits.length, explain);
        return round.hits;
      }
      case 'overfetch-postfilter': {
        const attempts: OverfetchAttempt[] = [];
        const maxK = Math.max(SEARCH_DEFAULTS.overfetchMaxK, wanted);
        let k: number | null = Math.min(wanted * SEARCH_DEFAULTS.overfetchFactor, maxK);
        let hits: ScoredId[] = [];
        while (k !== null) {
          const round = await this.repo.vectorIndexFiltered(vector, f, k, wanted);
          hits = round.hits;
          attempts.push({ k, pool: round.pool, kept: hits.length });
          k = nextOverfetchK({ k, pool: round.pool, kept: hits.length, wanted, maxK });
        }
        if (explain) explain.attempts = attempts;
        const last = attempts[attempts.length - 1];
        if (hits.length < wanted && last.pool === last.k) {
          this.logger.warn(`over-fetch stopped at k=${last.k} with ${hits.length} of ${wanted} hits`);
          prep.explain.notes.push(`over-fetch stopped at k=${last.k} with ${hits.length} of ${wanted} semantic hits`);
        }
        return hits;
      }
      default:
        return [];
    }
  }

  /** index-postfilter kept too few of what the unfiltered index returned: the filtered index answers, and explain says so. */
  private async postfilterFallback(vector: number[], prep: Prepared, wanted: number, kept: number, explain: ListExplain | undefined): Promise<ScoredId[]> {
    const note = `index-postfilter kept ${kept} of ${wanted} semantic hits: asked the filtered index (${SEARCH_CYPHER.vectorIndexFiltered}) instead`;
    prep.explain.notes.push(note);
    if (explain) explain.attempts = [{ k: postfilterK(wanted, prep.indexShare!), pool: postfilterK(wanted, prep.indexShare!), kept }];
    return (await this.repo.vectorIndexFiltered(vector, prep.filters.cypher, wanted, wanted)).hits;
  }

  private async expandFrom(seedIds: string[], expand: ExpandPlan, sourceChars: number | null): Promise<Neighbor[]> {
    const rows = await this.repo.expand(seedIds, expand, expand.maxNodes);
    // Rows come nearest first, then by the seed's rank: the first row for a node is its best path.
    const seen = new Set<string>();
    const kept: ExpansionRow[] = [];
    for (const row of rows) {
      if (seen.has(row.id) || kept.length >= expand.maxNodes) continue;
      seen.add(row.id);
      kept.push(row);
    }
    const records = await this.repo.scopesById(kept.map((r) => r.id), sourceChars);
    return kept
      .filter((r) => records.has(r.id))
      .map((r) => ({
        scope: records.get(r.id)!,
        depth: r.depth,
        fromId: r.fromId,
        path: { nodeIds: r.nodeIds, edgeTypes: r.edgeTypes, directions: r.directions, provenances: r.provenances },
      }));
  }

  private explainOf(
    plan: SearchPlan,
    filters: ResolvedFilters,
    strategy: StrategyChoice,
    candidateCount: SearchExplain['candidateCount'],
    lucene: LuceneQuery | null,
    indexShare: number | null = null,
    keywordLucene = false,
  ): SearchExplain {
    const lists: ListExplain[] = [];
    const notes: string[] = [];
    const vectorNote = `<${this.embedder.dimensions}-dimensional query vector>`;
    if (plan.semantic) {
      const wanted = Math.max(plan.semantic.limit, plan.limit, plan.mode === 'semantic_rerank' ? rerankPool(plan.limit) : 0);
      const base = { vector: vectorNote, k: wanted };
      const byStrategy: Record<string, { cypher: string; params: Record<string, unknown> }> = {
        'unfiltered-index': { cypher: SEARCH_CYPHER.vectorIndex, params: base },
        'exact-prefilter': { cypher: SEARCH_CYPHER.vectorExact, params: { ...base, ...filters.explainParams } },
        'index-filter': { cypher: SEARCH_CYPHER.vectorIndexFiltered, params: { ...base, limit: wanted, ...filters.explainParams } },
        'index-postfilter': {
          cypher: SEARCH_CYPHER.vectorIndexPostfiltered,
          params: { ...base, k: indexShare === null ? wanted : postfilterK(wanted, indexShare), limit: wanted, ...filters.explainParams },
        },
        'overfetch-postfilter': {
          cypher: SEARCH_CYPHER.vectorIndexFiltered,
          params: {
            ...base,
            k: Math.min(wanted * SEARCH_DEFAULTS.overfetchFactor, Math.max(SEARCH_DEFAULTS.overfetchMaxK, wanted)),
            limit: wanted,
            ...filters.explainParams,
          },
        },
      };
      const chosen = byStrategy[strategy.name];
      lists.push({
        list: 'semantic',
        cypher: chosen?.cypher ?? '(none)',
        strategy: strategy.name,
        reason: strategy.reason,
        params: chosen?.params ?? {},
      });
      if (plan.mode === 'semantic_rerank') notes.push(`semantic_rerank: vector pool widened to max(${SEARCH_DEFAULTS.rerankMinPool}, ${SEARCH_DEFAULTS.rerankPoolFactor} × topK) = ${wanted}`);
    }
    if (plan.bm25 && lucene) {
      const k = Math.max(plan.bm25.limit, plan.limit);
      const skipped = !lucene.query || filters.matchesNothing;
      lists.push({
        list: 'bm25',
        cypher: skipped ? '(none)' : keywordLucene ? SEARCH_CYPHER.fullTextLimited : SEARCH_CYPHER.fullText,
        strategy: skipped ? 'skipped' : keywordLucene ? 'lucene-top-k' : filters.hasFilters ? 'streamed-postfilter' : 'unfiltered',
        reason: !lucene.query
          ? 'the text holds no searchable term'
          : filters.matchesNothing
            ? 'the path glob matches no file'
            : keywordLucene
              ? `the Lucene query holds every filter (repositories; all kinds and languages): Lucene collects its top k only, the filters still apply exactly, and ${SEARCH_CYPHER.fullText} answers if they drop any`
              : filters.hasFilters
                ? 'full-text hits stream best first; filters apply as they arrive and LIMIT stops once k passed'
                : 'no filters',
        params: { query: keywordQuery(lucene), k, ...filters.explainParams },
        luceneQuery: keywordQuery(lucene),
      });
      if (lucene.dropped > 0) notes.push(`${lucene.dropped} query terms left out of the full-text query (clause budget)`);
    }
    const weights = plan.fusion.weights;
    const fusion: SearchExplain['fusion'] =
      plan.mode === 'hybrid'
        ? { method: 'rrf', k: plan.fusion.k, weights: { semantic: weights.semantic, bm25: weights.bm25, ...(plan.graphSignal ? { graph: plan.graphSignal.weight } : {}) } }
        : plan.mode === 'semantic_rerank'
          ? { method: 'blend', keywordWeight: plan.keywordWeight }
          : plan.mode === 'graph'
            ? { method: 'graph' }
          : plan.graphSignal
            ? { method: 'rrf', k: plan.fusion.k, weights: { [plan.mode]: weights[plan.mode as 'semantic' | 'bm25'], graph: plan.graphSignal.weight } }
            : { method: 'none' };
    return {
      mode: plan.mode,
      limit: plan.limit,
      filters: filters.descriptions,
      candidateCount,
      vectorStrategy: { name: strategy.name, reason: strategy.reason },
      lists,
      fusion,
      ...(plan.graphSignal ? { graphSignal: { cypher: SEARCH_CYPHER.hitConnections, weight: plan.graphSignal.weight, edges: plan.graphSignal.edges } } : {}),
      ...(plan.expand
        ? {
            expand: {
              cypher: EXPAND_CYPHER,
              pattern: expansionPattern(plan.expand),
              depth: plan.expand.depth,
              edges: plan.expand.edges,
              direction: plan.expand.direction,
              maxNodes: plan.expand.maxNodes,
            },
          }
        : {}),
      fetch: { cypher: SEARCH_CYPHER.scopesById, sourceChars: plan.sourceChars },
      notes,
    };
  }
}

/** The prose search's text limit (a query's). */
const LOCALIZE_PROSE_CHARS = 1_000;

/** The prose search's own stages, as LOCALIZE's explain shows them (prose.embed, ...). */
function proseStages(prose: SearchResponse | null): Record<string, number> {
  if (!prose) return {};
  return Object.fromEntries(Object.entries(prose.timings).filter(([stage, ms]) => stage !== 'total' && ms > 0).map(([stage, ms]) => [`prose.${stage}`, ms]));
}

/** A query embedding started before the search that uses it; `ms`, once it has arrived: how long it took. */
interface EarlyVector {
  vector: Promise<number[]>;
  ms?: number;
}

/** Ranked functions read for the file roll-up (beyond the page). */
const LOCALIZE_ROLLUP_DEPTH = 30;

/**
 * Hybrid hands text that is clearly an issue (a stack trace, several lines with code, a long
 * multi-line report) to LOCALIZE unless told not to; LOCALIZE asked for is LOCALIZE.
 */
export function routeIssue(plan: SearchPlan): { plan: SearchPlan; chosenBy: string } {
  if (plan.mode === 'localize') return { plan: withIssueRerankQuestion(plan), chosenBy: 'asked for (mode LOCALIZE)' };
  if (plan.mode !== 'hybrid' || plan.autoLocalize === false || !plan.semantic) return { plan, chosenBy: '' };
  const verdict = looksLikeIssue(plan.semantic.text.slice(0, SEARCH_LIMITS.maxIssueLength));
  if (!verdict.issue) return { plan, chosenBy: '' };
  return { plan: withIssueRerankQuestion({ ...plan, mode: 'localize' }), chosenBy: `hybrid chose LOCALIZE: the text is clearly an issue (${verdict.reason})` };
}

/** The reranker's question for an issue: which of these must change to fix it (within the question limit). */
function withIssueRerankQuestion(plan: SearchPlan): SearchPlan {
  if (!plan.rerank || plan.rerank.question !== plan.semantic?.text) return plan;
  const signals = extractSignals(plan.semantic.text);
  const head = 'Which of these functions must change to fix this issue? ';
  const body = [signals.title, signals.prose.slice(0, 600), signals.strings.slice(0, 2).join(' | '), signals.frames.slice(0, 3).map((f) => `${f.path}:${f.line} ${f.function ?? ''}`).join('; ')].filter(Boolean).join('\n');
  return { ...plan, rerank: { ...plan.rerank, question: (head + body).slice(0, SEARCH_LIMITS.maxTextLength) } };
}

/** The hybrid search LOCALIZE runs over an issue's prose: no rerank, expansion or structural route, no source. */
function proseSubPlan(plan: SearchPlan, text: string): SearchPlan {
  const candidates = plan.semantic!.limit;
  return {
    ...plan,
    mode: 'hybrid',
    semantic: { text, limit: candidates },
    bm25: { text, limit: candidates },
    limit: PROSE_HITS,
    sourceChars: 0,
    rerank: undefined,
    expand: undefined,
    graphSignal: undefined,
    structural: false,
    autoLocalize: false,
    // The issue's quoted messages and code lines are LOCALIZE's own phrase lists; phrase clauses over
    // its sentences cost the keyword list time (the larger share of a 1,000-character query's) and
    // gave nothing on the dev set (bench/localize/README.md, latency section).
    phrases: false,
    rescore: plan.rescore === undefined ? { ...SEARCH_DEFAULTS.rescore } : plan.rescore,
  };
}

/** The plan as run for a question in plain words: its fusion weights and second-stage keyword share. */
function plainWordsPlan(plan: SearchPlan, plain: PlainWordsPlan): SearchPlan {
  return {
    ...plan,
    fusion: { ...plan.fusion, weights: { ...plan.fusion.weights, ...plain.weights } },
    rescore: plan.rescore ? { ...plan.rescore, keywordWeight: plain.rescoreKeywordWeight, nameWordsBonus: plain.rescoreNameWordsBonus } : plan.rescore,
  };
}

/** The semantic_rerank pool: deep enough that the keyword score can lift a hit from well below topK. */
export function rerankPool(topK: number): number {
  return Math.max(SEARCH_DEFAULTS.rerankMinPool, SEARCH_DEFAULTS.rerankPoolFactor * topK);
}

/** A hop made by the name-based resolver (a unique name, or a pick among several candidates). */
function isNameOnly(p: Provenance | null): boolean {
  return p === 'name' || p === 'heuristic';
}

/** Expansion options with defaults: depth 1, both directions, every edge type, 50 nodes. */
/** Defaults filled and bounds checked (edge allow-list, depth, node cap) before any query runs. */
function checkedExpand(options: Partial<ExpandPlan>): ExpandPlan {
    const expand = expandDefaults(options);
    expansionPattern(expand);
    if (!Number.isInteger(expand.maxNodes) || expand.maxNodes < 1 || expand.maxNodes > SEARCH_LIMITS.maxExpandNodes) {
      throw new DomainError(DomainErrorCode.InvalidLimit, `maxNodes must be an integer from 1 to ${SEARCH_LIMITS.maxExpandNodes}`, 'maxNodes');
    }
  return expand;
}

export function expandDefaults(options: Partial<ExpandPlan> = {}): ExpandPlan {
  return {
    depth: options.depth ?? SEARCH_DEFAULTS.expand.depth,
    direction: options.direction ?? (SEARCH_DEFAULTS.expand.direction as Direction),
    edges: options.edges?.length ? allowedEdgeTypes(options.edges) : [...EDGE_TYPES],
    maxNodes: options.maxNodes ?? SEARCH_DEFAULTS.expand.maxNodes,
  };
}

/** Graph signal defaults: weight 1 over reference edges (containment would link every member to its class). */
export function graphSignalDefaults(options: { weight?: number; edges?: string[] } = {}): { weight: number; edges: (typeof EDGE_TYPES)[number][] } {
  return {
    weight: options.weight ?? SEARCH_DEFAULTS.weights.graph,
    edges: options.edges?.length ? allowedEdgeTypes(options.edges, 'graphSignal.edges') : [...REFERENCE_EDGE_TYPES],
  };
}

function toFused(fusion: 'rrf') {
  return (f: FusedItem) => ({
    id: f.id,
    score: f.score,
    breakdown: { fusion, ...(f.lists.semantic ? { semantic: f.lists.semantic } : {}), ...(f.lists.bm25 ? { bm25: f.lists.bm25 } : {}) } as Omit<
      ScoreBreakdown,
      'filtersApplied'
    >,
  });
}

function emptyTimings(): SearchTimings {
  return { filters: 0, embed: 0, semantic: 0, bm25: 0, fuse: 0, graph: 0, structural: 0, rescore: 0, fetch: 0, expand: 0, localize: 0, total: 0 };
}

/** What two copies of one scope share before their sources are compared. */
function duplicateHead(scope: ScopeRecord): string {
  return `${scope.repoId}\u0000${scope.kind}\u0000${scope.qualifiedName}`;
}

/**
 * Two hits are one scope when kind, qualified name and source agree (a vendored copy, the same file
 * in two packages, one function in several bundles). A whole source is compared whitespace aside (a
 * bundle's wrapper re-indents its copy); a truncated one as fetched, with its full length.
 */
export function duplicateKey(scope: ScopeRecord): string {
  const head = duplicateHead(scope);
  if (scope.source !== null && !scope.sourceTruncated && scope.sourceLength > 0) return `${head}\u0000=${scope.source.replace(/\s+/g, ' ').trim()}`;
  return `${head}\u0000${scope.sourceLength}\u0000${scope.source ?? ''}`;
}

/** Source characters to fetch so that both `a` and `b` can be cut from it (null: the whole source). */
function widerSourceChars(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.max(a, b);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function truncate(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

/** Said in explain and in a search's warnings when the vector list cannot see every scope. */
function vectorCoverageNote(c: { scopes: number; embedded: number; indexing: number }): string {
  const pct = c.scopes > 0 ? Math.floor((c.embedded / c.scopes) * 100) : 100;
  const why = c.indexing > 0 ? 'an index is still embedding' : 'some scopes have no vector (an embedding error, or embedding skipped)';
  return `the semantic list covered ${c.embedded} of ${c.scopes} scopes (${pct}%): ${why}; keyword, exact-string and graph lists see every scope written`;
}
