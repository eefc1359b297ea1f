import { MAX_RERANK_CANDIDATES } from './search-reranker';
import { compileGlob, GlobMatcher, GlobSyntaxError } from './filters/glob';
import { allowedEdgeTypes, expansionPattern } from './graph/expansion-cypher';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import {
  LANGUAGES,
  SCOPE_KINDS,
  SEARCH_DEFAULTS,
  SEARCH_LIMITS,
  SEARCH_MODES,
  type SearchPlan,
} from './search.types';

/**
 * Checks a plan before anything touches Neo4j or the embedder. Field names are those of the GraphQL
 * SearchInput (and of the builder's options), so an error can be shown against what the caller typed.
 * Returns the compiled glob when there is one.
 */
export function validatePlan(plan: SearchPlan): { glob: GlobMatcher | null } {
  const fail = (code: DomainErrorCode, message: string, field: string): never => {
    throw new DomainError(code, message, field);
  };

  if (!(SEARCH_MODES as readonly string[]).includes(plan.mode)) fail(DomainErrorCode.InvalidPlan, `mode must be one of ${SEARCH_MODES.join(', ')}`, 'mode');
  const needs = { semantic: plan.mode !== 'bm25' && plan.mode !== 'graph', bm25: plan.mode === 'bm25' || plan.mode === 'hybrid' };
  if (plan.mode === 'graph' && !plan.graph) fail(DomainErrorCode.InvalidPlan, 'mode graph needs a question (graph.text)', 'mode');
  if (needs.semantic && !plan.semantic) fail(DomainErrorCode.InvalidPlan, `mode ${plan.mode} needs a semantic list (semanticSearchBySource)`, 'mode');
  if (needs.bm25 && !plan.bm25) fail(DomainErrorCode.InvalidPlan, `mode ${plan.mode} needs a full-text list (fullText)`, 'mode');
  for (const list of [plan.semantic, plan.bm25, plan.graph ? { ...plan.graph, limit: plan.limit } : undefined]) {
    if (!list) continue;
    if (typeof list.text !== 'string' || list.text.trim().length === 0) fail(DomainErrorCode.InvalidText, 'text must not be empty', 'text');
    // An issue (LOCALIZE) may be long: its signals are cut to their own limits, and explain says so.
    const maxText = plan.mode === 'localize' ? SEARCH_LIMITS.maxIssueLength : SEARCH_LIMITS.maxTextLength;
    if (list.text.length > maxText) {
      fail(DomainErrorCode.InvalidText, `text must be at most ${maxText} characters${plan.mode === 'localize' ? '' : ` (up to ${SEARCH_LIMITS.maxIssueLength} for an issue: mode LOCALIZE)`}`, 'text');
    }
    checkInt(list.limit, 1, SEARCH_LIMITS.maxCandidates, 'candidates');
  }
  checkInt(plan.limit, 1, SEARCH_LIMITS.maxTopK, 'topK');
  checkInt(plan.fusion.k, 1, 10_000, 'rrfK');
  for (const key of ['semantic', 'bm25', 'graph'] as const) {
    const w = plan.fusion.weights[key];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) fail(DomainErrorCode.InvalidWeight, `weights.${key} must be a finite number >= 0`, `weights.${key}`);
  }
  if (plan.mode === 'hybrid' && plan.fusion.weights.semantic === 0 && plan.fusion.weights.bm25 === 0) {
    fail(DomainErrorCode.InvalidWeight, 'weights.semantic and weights.bm25 cannot both be 0', 'weights');
  }
  const kw = plan.keywordWeight;
  if (typeof kw !== 'number' || !Number.isFinite(kw) || kw < 0 || kw > 1) fail(DomainErrorCode.InvalidWeight, 'keywordWeight must be between 0 and 1', 'keywordWeight');
  checkInt(plan.exactMaxCandidates, 0, 1_000_000, 'exactMaxCandidates');
  if (!['auto', 'exact', 'overfetch'].includes(plan.filterStrategy)) fail(DomainErrorCode.InvalidPlan, 'filterStrategy must be auto, exact or overfetch', 'filterStrategy');
  if (plan.sourceChars !== null) checkInt(plan.sourceChars, 0, 10_000_000, 'sourceChars');

  const f = plan.filters;
  if (f.repository !== undefined) checkString(f.repository, 'repository', 200);
  if (f.name !== undefined) checkString(f.name, 'name', SEARCH_LIMITS.maxFilterLength);
  if (f.path?.contains !== undefined) checkString(f.path.contains, 'pathContains', SEARCH_LIMITS.maxFilterLength);
  for (const language of f.languages ?? []) {
    if (!(LANGUAGES as readonly string[]).includes(language)) {
      fail(DomainErrorCode.InvalidFilter, `unknown language ${JSON.stringify(language)}; known: ${LANGUAGES.join(', ')}`, 'language');
    }
  }
  for (const kind of f.kinds ?? []) {
    if (!(SCOPE_KINDS as readonly string[]).includes(kind)) {
      fail(DomainErrorCode.InvalidFilter, `unknown kind ${JSON.stringify(kind)}; known: ${SCOPE_KINDS.join(', ')}`, 'kind');
    }
  }
  let glob: GlobMatcher | null = null;
  if (f.path?.glob !== undefined) {
    checkString(f.path.glob, 'pathGlob', SEARCH_LIMITS.maxGlobLength);
    try {
      glob = compileGlob(f.path.glob);
    } catch (error) {
      if (error instanceof GlobSyntaxError) fail(DomainErrorCode.InvalidGlob, error.message, 'pathGlob');
      throw error;
    }
  }

  if (plan.graphSignal) {
    if (plan.mode === 'semantic_rerank' || plan.mode === 'graph') fail(DomainErrorCode.InvalidPlan, `the graph signal is not available in ${plan.mode} mode`, 'graphSignal');
    allowedEdgeTypes(plan.graphSignal.edges, 'graphSignal.edges');
  }
  if (plan.rerank) {
    checkString(plan.rerank.question, 'rerank.question', SEARCH_LIMITS.maxTextLength);
    if (!/\S/.test(plan.rerank.question)) fail(DomainErrorCode.InvalidText, 'rerank.question must not be empty', 'rerank.question');
    checkInt(plan.rerank.candidateCount, 1, MAX_RERANK_CANDIDATES, 'rerank.candidateCount');
  }
  if (plan.expand) {
    expansionPattern(plan.expand);
    checkInt(plan.expand.maxNodes, 1, SEARCH_LIMITS.maxExpandNodes, 'expand.maxNodes');
  }
  return { glob };

  function checkInt(value: number, min: number, max: number, field: string): void {
    if (!Number.isInteger(value) || value < min || value > max) fail(DomainErrorCode.InvalidLimit, `${field} must be an integer from ${min} to ${max}`, field);
  }
  function checkString(value: string, field: string, max: number): void {
    if (typeof value !== 'string' || value.length === 0) fail(DomainErrorCode.InvalidFilter, `${field} must not be empty`, field);
    if (value.length > max) fail(DomainErrorCode.InvalidFilter, `${field} must be at most ${max} characters`, field);
  }
}

/** A plan with every default filled in, for a mode and a text (GraphQL and tests start here). */
export function defaultPlan(mode: SearchPlan['mode'], text: string): SearchPlan {
  // LOCALIZE runs hybrid over the issue's prose, with hybrid's settings.
  const hybrid = mode === 'hybrid' || mode === 'localize';
  const limit = SEARCH_DEFAULTS.topK;
  return {
    mode,
    semantic: mode === 'bm25' || mode === 'graph' ? undefined : { text, limit: hybrid ? SEARCH_DEFAULTS.candidates : limit },
    bm25: mode === 'bm25' || hybrid ? { text, limit: hybrid ? SEARCH_DEFAULTS.candidates : limit } : undefined,
    fusion: { k: SEARCH_DEFAULTS.rrfK, weights: { ...SEARCH_DEFAULTS.weights } },
    keywordWeight: SEARCH_DEFAULTS.keywordWeight,
    filters: {},
    filterStrategy: 'auto',
    exactMaxCandidates: SEARCH_DEFAULTS.exactMaxCandidates,
    limit,
    sourceChars: null,
    ...(mode === 'graph' ? { graph: { text } } : {}),
    ...(hybrid || mode === 'semantic_rerank' ? { rescore: { ...SEARCH_DEFAULTS.rescore } } : {}),
    ...(hybrid ? { plainWords: { weights: { ...SEARCH_DEFAULTS.plainWords.weights }, rescoreKeywordWeight: SEARCH_DEFAULTS.plainWords.rescoreKeywordWeight, rescoreNameWordsBonus: SEARCH_DEFAULTS.plainWords.rescoreNameWordsBonus } } : {}),
  };
}
