import type { Access } from '../auth/access';
import { CurrentAccess, maySee, scoped } from '../auth/scope';
import { refusalError, roleAllows, roleRefusal } from '../auth/api-key.guard';
import { Args, ID, Int, Query, Resolver } from '@nestjs/graphql';
import { defaultPlan, defaultRerankCandidates, EDGE_TYPES, expandDefaults, type GraphEdgeType, graphSignalDefaults, LANGUAGES, SCOPE_KINDS, type SearchPlan, SearchService } from '@scopegraph/search';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { RerankService } from '@scopegraph/rerank';
import { DEFAULT_SOURCE_CHARS, DirectionEnum, EdgeTypeEnum, Neighborhood, Scope, SearchInput, SearchModeEnum, SearchResponse, SearchVocabulary } from './search.model';
import { neighborhoodCost, searchCost } from '../graphql/cost';

/** SearchInput -> SearchPlan. Field names of its DomainErrors are those of SearchInput. */
export function planFromInput(input: SearchInput): SearchPlan {
  const mode = input.mode ?? SearchModeEnum.HYBRID;
  const plan = defaultPlan(mode, input.text);
  plan.limit = input.topK ?? plan.limit;
  if (mode === SearchModeEnum.HYBRID || mode === SearchModeEnum.LOCALIZE) {
    const candidates = input.candidates ?? plan.semantic!.limit;
    plan.semantic!.limit = candidates;
    plan.bm25!.limit = candidates;
  } else {
    for (const list of [plan.semantic, plan.bm25]) if (list) list.limit = Math.max(input.candidates ?? 0, plan.limit);
  }
  plan.fusion.k = input.rrfK ?? plan.fusion.k;
  plan.fusion.weights = { ...plan.fusion.weights, ...definedOnly(input.weights ?? {}) };
  // Weights the caller chose are used as given, whatever the question looks like.
  if (input.weights && (input.weights.semantic != null || input.weights.bm25 != null)) plan.plainWords = null;
  plan.keywordWeight = input.keywordWeight ?? plan.keywordWeight;
  plan.filters = {
    ...(input.repository !== undefined && input.repository !== null ? { repository: input.repository } : {}),
    ...(input.pathContains || input.pathGlob
      ? { path: { ...(input.pathContains ? { contains: input.pathContains } : {}), ...(input.pathGlob ? { glob: input.pathGlob } : {}) } }
      : {}),
    ...(input.language ? { languages: [input.language] } : {}),
    ...(input.kind ? { kinds: [input.kind] } : {}),
    ...(input.name !== undefined && input.name !== null ? { name: input.name } : {}),
  };
  if (input.structural === false) plan.structural = false;
  if (input.autoLocalize === false) plan.autoLocalize = false;
  if (input.rescore === false) plan.rescore = null;
  if (input.graphSignal) plan.graphSignal = graphSignalDefaults({ weight: plan.fusion.weights.graph });
  if (input.expand) plan.expand = expandDefaults(definedOnly(input.expand));
  plan.sourceChars = input.sourceChars === undefined ? DEFAULT_SOURCE_CHARS : input.sourceChars;
  if (input.rerank) {
    const { question, candidateCount, ...options } = input.rerank;
    plan.rerank = {
      question: question ?? input.text,
      options: definedOnly(options) as Record<string, unknown>,
      candidateCount: candidateCount ?? defaultRerankCandidates(plan.limit),
    };
  }
  return plan;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/** Library errors name fields as the library spells them; renames them for a transport that spells them differently. */
async function renamingFields<T>(work: () => Promise<T>, field: (name: string) => string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw error.withField(error.field && field(error.field));
    throw error;
  }
}

@Resolver()
export class SearchResolver {
  constructor(
    private readonly searchService: SearchService,
    private readonly reranks: RerankService,
  ) {}

  @Query(() => SearchResponse, { complexity: searchCost, description: 'Semantic, keyword (BM25), hybrid (RRF) or semantic_rerank search over scopes, with filters and graph expansion' })
  async search(@Args('input') input: SearchInput, @CurrentAccess() access?: Access): Promise<SearchResponse> {
    // Rerank options are checked before anything runs, so a bad one names its field (rerank.*).
    // Reranking is a write (it spends model calls): refused to a read key word for word as startRerank
    // is, rather than dropped with a warning the caller may never read.
    if (input.rerank && access && !roleAllows(access.role, 'write')) throw refusalError(roleRefusal('write'));
    if (input.rerank) this.reranks.options(input.rerank, 'rerank');
    const plan = planFromInput(input);
    if (scoped(access)) plan.filters.repositoryVisible = (repoId) => maySee(access, repoId);
    if (plan.rerank) plan.rerank.owner = access?.keyId ?? null;
    const response = await this.searchService.execute(plan);
    const rerank = response.rerank ? { ...response.rerank, result: response.rerank.result ?? null } : null;
    // A key scoped to some repositories, searching all: hits from the others are dropped (a named
    // repository outside the scope never gets here: the guard answers it as unknown).
    if (scoped(access) && input.repository === undefined) response.results = response.results.filter((hit) => maySee(access, hit.scope.repoId)) as typeof response.results;
    return { ...response, rerank, strategy: response.explain.vectorStrategy.name, explain: response.explain } as SearchResponse;
  }

  @Query(() => SearchVocabulary, { description: 'Scope kinds and languages the filters accept, and the edge types neighborhood follows' })
  searchVocabulary(): SearchVocabulary {
    return { kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], edgeTypes: [...EDGE_TYPES] };
  }

  @Query(() => Scope, { nullable: true, description: 'One scope by id' })
  scope(
    @Args('id', { type: () => ID }) id: string,
    @Args('sourceChars', { type: () => Int, nullable: true, description: 'Cut the source to this many characters' }) sourceChars?: number | null,
    @CurrentAccess() access?: Access,
  ): Promise<Scope | null> {
    if (!maySeeScopeId(access, id)) return Promise.resolve(null);
    return this.searchService.scope(id, checkSourceChars(sourceChars));
  }

  @Query(() => Neighborhood, { nullable: true, complexity: neighborhoodCost, description: 'Scopes around one scope within depth (1-3), each with the path that reached it; null for an unknown id' })
  neighborhood(
    @Args('id', { type: () => ID }) id: string,
    @Args('depth', { type: () => Int, nullable: true }) depth?: number,
    @Args('edges', { type: () => [EdgeTypeEnum], nullable: true }) edges?: GraphEdgeType[],
    @Args('direction', { type: () => DirectionEnum, nullable: true }) direction?: DirectionEnum,
    @Args('maxNodes', { type: () => Int, nullable: true }) maxNodes?: number,
    @Args('sourceChars', { type: () => Int, nullable: true, defaultValue: DEFAULT_SOURCE_CHARS, description: 'null for whole sources' }) sourceChars?: number | null,
    @CurrentAccess() access?: Access,
  ): Promise<Neighborhood | null> {
    if (!maySeeScopeId(access, id)) return Promise.resolve(null);
    return renamingFields(
      () => this.searchService.neighborhood(id, { depth: depth ?? undefined, edges: edges ?? undefined, direction: direction ?? undefined, maxNodes: maxNodes ?? undefined }, checkSourceChars(sourceChars)),
      // The library names expansion fields as in SearchInput.expand; here they are plain arguments.
      (name) => name.replace(/^expand\./, ''),
    );
  }
}

/** Scope ids start with their repository's id (graphId): another repository's scope answers like an unknown id. */
function maySeeScopeId(access: Access | undefined, id: string): boolean {
  return !scoped(access) || maySee(access, id.slice(0, Math.max(0, id.indexOf(':'))));
}

function checkSourceChars(n: number | null | undefined): number | null {
  if (n === undefined || n === null) return null;
  if (!Number.isInteger(n) || n < 0) throw new DomainError(DomainErrorCode.InvalidLimit, 'sourceChars must be an integer >= 0', 'sourceChars');
  return n;
}
