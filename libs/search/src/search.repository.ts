import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService, type PlanWarmup } from '@scopegraph/graph';
import type { GraphEdgeType, Provenance } from '@scopegraph/code-model';
import { EXPAND_CYPHER, ExpansionShape, renderExpansionQuery } from './graph/expansion-cypher';
import { withinRepositories } from './query/lucene';
import { LANGUAGES, SCOPE_KINDS, type ScopeKind, type ScopeRecord } from './search.types';

/** Filter parameters shared by every filtered query in cypher/search/ (see count-candidates.cypher). */
export interface CypherFilters {
  repoIds: string[];
  kinds: string[];
  languages: string[];
  paths: string[] | null;
  pathContains: string | null;
  name: string | null;
}

export interface VectorCoverage {
  scopes: number;
  embedded: number;
  indexing: number;
  /** Vectors of the finished repositories not searched. */
  elsewhere: number;
  /** Other repositories being indexed (their vectors are not in `elsewhere`). */
  elsewhereIndexing: number;
  /** Scopes of the finished repositories not searched (the full-text index's share). */
  elsewhereScopes: number;
}

export interface ScoredId {
  id: string;
  score: number;
}

export interface GraphAnchorRow {
  id: string;
  name: string;
  qualifiedName: string;
  kind: string;
  path: string;
  inDegree: number;
  outDegree: number;
  /** Scopes carrying one of the names in all (graph-anchors.cypher reads at most `scan` of them per lookup); absent in rows made by hand. */
  definitions?: number;
}

/** What graphAnchors looks up: the names, the spelling as typed (read first) and the kinds the relation is about (read next). */
export interface AnchorLookup {
  names: string[];
  target: string;
  /** Empty: any kind fits. */
  targetKinds: string[];
  /** Candidates read per lookup of graph-anchors.cypher (its five lookups overlap). */
  scan: number;
}

export interface GraphRelatedRow {
  anchorId: string;
  anchorRank: number;
  id: string;
  kind: string;
  depth: number;
  nodeIds: string[];
  edgeTypes: GraphEdgeType[];
  /** Absent in rows made by hand (tests); the Cypher files always return it. */
  provenances?: (Provenance | null)[];
  directions: ('out' | 'in')[];
}

export interface ExpansionRow {
  fromId: string;
  seedRank: number;
  id: string;
  depth: number;
  nodeIds: string[];
  edgeTypes: GraphEdgeType[];
  /** Absent in rows made by hand (tests); the Cypher files always return it. */
  provenances?: (Provenance | null)[];
  directions: ('out' | 'in')[];
}

/**
 * A scope fetched with a longer source, cut to `chars` as scopes-by-id.cypher would have cut it:
 * Cypher's left() counts code points, not UTF-16 units; sourceTruncated as scopesById sets it.
 */
export function withSourceChars(scope: ScopeRecord, chars: number | null): ScopeRecord {
  if (chars === null || scope.source === null || scope.source.length <= chars) return scope;
  let end = 0;
  for (let n = 0; n < chars && end < scope.source.length; n++) end += scope.source.codePointAt(end)! > 0xffff ? 2 : 1;
  const source = scope.source.slice(0, end);
  return { ...scope, source, sourceTruncated: source.length < scope.sourceLength };
}

/** A list query's one row: its hits in order. */
/** The semantic list files that bothLists can run together with the keyword list. */
export type JoinableVectorList = 'vectorIndex' | 'vectorExact' | 'vectorIndexFiltered' | 'vectorIndexPostfiltered';

export interface BothListsRequest {
  vector: { list: JoinableVectorList; vector: number[]; k: number; limit: number };
  keyword: { query: string; k: number } & FullTextOptions;
}

export interface FullTextOptions {
  /**
   * Set when the Lucene query narrows to everything the filters keep (repository clauses, every kind
   * and language, no path or name filter): Lucene is asked for its top `luceneK` only
   * (fulltext-limited.cypher), and the unlimited list answers when the exact filters drop some.
   */
  luceneK?: number;
  /** With luceneK: leave the repository clause out (the searched repositories hold nearly all of the index). */
  withoutRepositoryClause?: boolean;
}

export interface BothListsAnswer {
  semantic: { pool: number | null; hits: ScoredId[] };
  bm25: ScoredId[];
}

/**
 * What bothLists answers, asked list by list: for a repository whose lists come from elsewhere (the
 * benches' in-memory vectors, the unit tests' fake), so they answer hybrid's joined request the way
 * they answer each list.
 */
export async function listsOneByOne(
  repo: Pick<SearchRepository, 'vectorIndex' | 'vectorExact' | 'vectorIndexFiltered' | 'vectorIndexPostfiltered' | 'fullText'>,
  { vector: v, keyword }: BothListsRequest,
  filters: CypherFilters,
): Promise<BothListsAnswer> {
  const semantic =
    v.list === 'vectorIndex'
      ? { pool: null, hits: await repo.vectorIndex(v.vector, v.k) }
      : v.list === 'vectorExact'
        ? { pool: null, hits: await repo.vectorExact(v.vector, filters, v.k) }
        : v.list === 'vectorIndexPostfiltered'
          ? await repo.vectorIndexPostfiltered(v.vector, filters, v.k, v.limit)
          : await repo.vectorIndexFiltered(v.vector, filters, v.k, v.limit);
  return { semantic, bm25: await repo.fullText(keyword.query, filters, keyword.k, { luceneK: keyword.luceneK, withoutRepositoryClause: keyword.withoutRepositoryClause }) };
}

/**
 * Two list files as one statement: each a subquery returning one row, the semantic one's columns
 * renamed `semantic<Column>` and the keyword one's `hits` renamed `bm25Hits`. Each Neo4j round trip
 * costs ~0.6 ms of the API's CPU and ~0.35 ms of Neo4j's whatever the query (a `RETURN 1`, measured
 * on this machine), a tenth of a hybrid search. The files keep working alone (explain names them and
 * their parameters do not collide: the keyword limit is $bm25K). A `CYPHER 25` line leads the
 * statement when the semantic file starts with one.
 */
export function bothListsStatement(semanticFile: string, keywordFile: string, semanticColumns: string[], keywordColumns: string[] = ['hits']): string {
  const body = (text: string) =>
    text
      .split('\n')
      .filter((line) => !/^\s*\/\//.test(line))
      .join('\n')
      .trim();
  let semantic = body(semanticFile);
  const version = /^CYPHER\s+\d+\s*\n/.exec(semantic);
  if (version) semantic = semantic.slice(version[0].length);
  const names = semanticColumns.map((c) => `semantic${c[0].toUpperCase()}${c.slice(1)}`);
  const keywordNames = keywordColumns.map((c) => `${c} AS bm25${c[0].toUpperCase()}${c.slice(1)}`);
  return [
    version ? version[0].trim() : null,
    'CALL () {',
    semantic,
    '}',
    `WITH ${semanticColumns.map((c, i) => `${c} AS ${names[i]}`).join(', ')}`,
    'CALL () {',
    body(keywordFile),
    '}',
    `RETURN ${[...names, ...keywordNames].join(', ')}`,
  ]
    .filter((line) => line !== null)
    .join('\n');
}

interface HitsRow {
  hits: ScoredId[];
}

/** Lucene's top k (fulltext-limited.cypher) lost some to the exact filters: the unlimited list must answer. */
function keywordShort(kept: number, pool: number, k: number, luceneK: number): boolean {
  return kept < k && pool >= luceneK;
}

/** The hits of a list query, as plain {id, score} (Neo4j returns map keys in an order of its own). */
function hitsOf(rows: HitsRow[]): ScoredId[] {
  return (rows[0]?.hits ?? []).map((h) => ({ id: h.id, score: h.score }));
}

/** The Cypher file each method runs, for explain output. */
export const SEARCH_CYPHER = {
  repositoryIds: 'search/repository-ids',
  filePaths: 'search/file-paths',
  countCandidates: 'search/count-candidates',
  vectorCoverage: 'search/vector-coverage',
  vectorIndex: 'search/vector-index',
  vectorIndexFiltered: 'search/vector-index-filtered',
  vectorIndexPostfiltered: 'search/vector-index-postfiltered',
  vectorExact: 'search/vector-exact',
  fullText: 'search/fulltext',
  fullTextLimited: 'search/fulltext-limited',
  scopesById: 'search/scopes-by-id',
  hitConnections: 'search/hit-connections',
  expand: EXPAND_CYPHER,
  graphAnchors: 'search/graph-anchors',
  graphRelatedIn: 'search/graph-related-in',
  graphRelatedOut: 'search/graph-related-out',
  graphOverriders: 'search/graph-overriders',
  localizeFrameScopes: 'search/localize-frame-scopes',
  localizeNames: 'search/localize-names',
  localizeMembers: 'search/localize-members',
  localizeNeighbors: 'search/localize-neighbors',
  localizeFileScopes: 'search/localize-file-scopes',
  localizeFiles: 'search/localize-files',
  localizeStageFunctions: 'search/localize-stage-functions',
  localizeStageNeighbors: 'search/localize-stage-neighbors',
  localizeMemberRecords: 'search/localize-member-records',
} as const;

/**
 * Every Neo4j read of search; each method runs the cypher/search file of its name with $parameters.
 * The one exception is expand(), whose relationship pattern is generated from allow-listed
 * constants (graph/expansion-cypher.ts).
 */
@Injectable()
export class SearchRepository {
  private readonly bothListsStatements = new Map<string, string>();

  constructor(private readonly neo4j: Neo4jService) {}

  async repositoryIds(): Promise<string[]> {
    return (await this.neo4j.read<{ id: string }>(SEARCH_CYPHER.repositoryIds)).map((r) => r.id);
  }

  async filePaths(repoIds: string[]): Promise<string[]> {
    return (await this.neo4j.read<{ path: string }>(SEARCH_CYPHER.filePaths, { repoIds })).map((r) => r.path);
  }

  /**
   * Embedded scopes passing the filters, counted up to `cap` (`repoIds` null: every repository), and
   * the ids of every repository, in one round trip.
   */
  async countCandidates(filters: Omit<CypherFilters, 'repoIds'> & { repoIds: string[] | null }, cap: number): Promise<{ repositoryIds: string[]; n: number }> {
    const [row] = await this.neo4j.read<{ repositoryIds: string[]; n: number }>(SEARCH_CYPHER.countCandidates, { ...filters, cap: cypherInt(cap) });
    return row ?? { repositoryIds: [], n: 0 };
  }

  /**
   * Scopes and embedded scopes of the repositories (all when null), how many of them are being
   * indexed, and the vectors of the other repositories (`elsewhere`: finished ones;
   * `elsewhereIndexing`: how many others are being indexed, their vectors not counted).
   */
  async vectorCoverage(repoIds: string[] | null): Promise<VectorCoverage> {
    const [row] = await this.neo4j.read<{ scopes: number | null; embedded: number | null; indexing: number; elsewhere: number | null; elsewhereIndexing: number | null; elsewhereScopes: number | null }>(
      SEARCH_CYPHER.vectorCoverage,
      { repoIds },
    );
    return { scopes: row?.scopes ?? 0, embedded: row?.embedded ?? 0, indexing: row?.indexing ?? 0, elsewhere: row?.elsewhere ?? 0, elsewhereIndexing: row?.elsewhereIndexing ?? 0, elsewhereScopes: row?.elsewhereScopes ?? 0 };
  }

  async vectorIndex(vector: number[], k: number): Promise<ScoredId[]> {
    return hitsOf(await this.neo4j.read<HitsRow>(SEARCH_CYPHER.vectorIndex, { vector, k: cypherInt(k) }));
  }

  async vectorExact(vector: number[], filters: CypherFilters, k: number): Promise<ScoredId[]> {
    return hitsOf(await this.neo4j.read<HitsRow>(SEARCH_CYPHER.vectorExact, { vector, ...filters, k: cypherInt(k) }));
  }

  /** `pool`: how many the index returned for `k`; `hits`: those passing the post-filters, at most `limit`. */
  vectorIndexFiltered(vector: number[], filters: CypherFilters, k: number, limit: number): Promise<{ pool: number; hits: ScoredId[] }> {
    return this.vectorPool(SEARCH_CYPHER.vectorIndexFiltered, vector, filters, k, limit);
  }

  /** As vectorIndexFiltered, from the unfiltered index with the filters applied after (vector-index-postfiltered.cypher). */
  vectorIndexPostfiltered(vector: number[], filters: CypherFilters, k: number, limit: number): Promise<{ pool: number; hits: ScoredId[] }> {
    return this.vectorPool(SEARCH_CYPHER.vectorIndexPostfiltered, vector, filters, k, limit);
  }

  private async vectorPool(statement: string, vector: number[], filters: CypherFilters, k: number, limit: number): Promise<{ pool: number; hits: ScoredId[] }> {
    const [row] = await this.neo4j.read<{ pool: number; hits: ScoredId[] }>(statement, { vector, ...filters, k: cypherInt(k), limit: cypherInt(limit) });
    return row ?? { pool: 0, hits: [] };
  }

  async fullText(query: string, filters: CypherFilters, k: number, options: FullTextOptions = {}): Promise<ScoredId[]> {
    const params = { query: withinRepositories(query, filters.repoIds), ...filters, bm25K: cypherInt(k) };
    if (options.luceneK !== undefined) {
      const luceneK = Math.max(k, options.luceneK);
      const [row] = await this.neo4j.read<{ pool: number; hits: ScoredId[] }>(SEARCH_CYPHER.fullTextLimited, {
        ...params,
        query: options.withoutRepositoryClause ? query : params.query,
        luceneK: cypherInt(luceneK),
      });
      const hits = hitsOf(row ? [row] : []);
      if (!keywordShort(hits.length, row?.pool ?? 0, k, luceneK)) return hits;
    }
    return hitsOf(await this.neo4j.read<HitsRow>(SEARCH_CYPHER.fullText, params));
  }

  /**
   * The semantic list (`vector`: which of its files, as vectorIndex/vectorExact/vectorIndexFiltered
   * take it) and the keyword list (as fullText) in one round trip. `pool` is set for
   * vectorIndexFiltered and vectorIndexPostfiltered only.
   */
  async bothLists(vector: BothListsRequest['vector'], keyword: BothListsRequest['keyword'], filters: CypherFilters): Promise<BothListsAnswer> {
    const limited = keyword.luceneK !== undefined;
    const luceneK = Math.max(keyword.k, keyword.luceneK ?? 0);
    const key = `${vector.list}${limited ? ':limited' : ''}`;
    let statement = this.bothListsStatements.get(key);
    if (!statement) {
      const pooled = vector.list === 'vectorIndexFiltered' || vector.list === 'vectorIndexPostfiltered';
      statement = limited
        ? bothListsStatement(this.neo4j.text(SEARCH_CYPHER[vector.list]), this.neo4j.text(SEARCH_CYPHER.fullTextLimited), pooled ? ['pool', 'hits'] : ['hits'], ['pool', 'hits'])
        : bothListsStatement(this.neo4j.text(SEARCH_CYPHER[vector.list]), this.neo4j.text(SEARCH_CYPHER.fullText), pooled ? ['pool', 'hits'] : ['hits']);
      this.bothListsStatements.set(key, statement);
    }
    const [row] = await this.neo4j.readRendered<{ semanticPool?: number; semanticHits: ScoredId[]; bm25Hits: ScoredId[]; bm25Pool?: number }>(statement, {
      vector: vector.vector,
      ...filters,
      k: cypherInt(vector.k),
      limit: cypherInt(vector.limit),
      query: limited && keyword.withoutRepositoryClause ? keyword.query : withinRepositories(keyword.query, filters.repoIds),
      bm25K: cypherInt(keyword.k),
      luceneK: cypherInt(luceneK),
    });
    let bm25 = (row?.bm25Hits ?? []).map((h) => ({ id: h.id, score: h.score }));
    if (limited && keywordShort(bm25.length, row?.bm25Pool ?? 0, keyword.k, luceneK)) bm25 = await this.fullText(keyword.query, filters, keyword.k);
    return {
      semantic: { pool: row?.semanticPool ?? null, hits: row?.semanticHits ?? [] },
      bm25,
    };
  }

  /** The scopes' fields; with `links`, also `linked`: which of the other ids each has a code edge with, either way. */
  async scopesById(ids: string[], sourceChars: number | null, options: { links?: boolean } = {}): Promise<Map<string, ScopeRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await this.neo4j.read<Omit<ScopeRecord, 'sourceTruncated' | 'linked'> & { linked: string[] | null }>(SEARCH_CYPHER.scopesById, {
      ids,
      sourceChars: sourceChars === null ? null : cypherInt(sourceChars),
      links: options.links === true,
    });
    return new Map(
      rows.map(({ linked, ...r }) => [r.id, { ...r, ...(linked ? { linked: [...new Set(linked)] } : {}), sourceTruncated: (r.source?.length ?? 0) < r.sourceLength }]),
    );
  }

  async hitConnections(ids: string[], edgeTypes: GraphEdgeType[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.neo4j.read<{ id: string; connections: number }>(SEARCH_CYPHER.hitConnections, { ids, edgeTypes });
    return new Map(rows.map((r) => [r.id, r.connections]));
  }

  /** Scopes named by one of `names` (name or qualified name), at most `scan` per lookup, with their degree over `edgeTypes`. */
  graphAnchors(lookup: AnchorLookup, repoIds: string[], edgeTypes: GraphEdgeType[]): Promise<GraphAnchorRow[]> {
    const { names, target, targetKinds, scan } = lookup;
    return this.neo4j.read<GraphAnchorRow>(SEARCH_CYPHER.graphAnchors, {
      names,
      target,
      targetKinds: targetKinds.length > 0 ? targetKinds : null,
      scan: cypherInt(scan),
      repoIds,
      edgeTypes,
    });
  }

  /** Scopes related to each anchor over `edgeTypes`, nearest first, filtered like the other lists. */
  graphRelated(
    anchorIds: string[],
    walk: { edgeTypes: GraphEdgeType[]; direction: 'in' | 'out'; maxDepth: number; viaFile: boolean },
    filters: CypherFilters,
    perAnchor: number,
  ): Promise<GraphRelatedRow[]> {
    if (anchorIds.length === 0) return Promise.resolve([]);
    return this.neo4j.read<GraphRelatedRow>(walk.direction === 'in' ? SEARCH_CYPHER.graphRelatedIn : SEARCH_CYPHER.graphRelatedOut, {
      anchorIds,
      edgeTypes: walk.edgeTypes,
      maxDepth: cypherInt(walk.maxDepth),
      viaFile: walk.viaFile,
      ...filters,
      perAnchor: cypherInt(perAnchor),
    });
  }

  /** Methods of the same name in the classes below each anchor method's class. */
  graphOverriders(anchorIds: string[], filters: CypherFilters, perAnchor: number): Promise<GraphRelatedRow[]> {
    if (anchorIds.length === 0) return Promise.resolve([]);
    return this.neo4j.read<GraphRelatedRow>(SEARCH_CYPHER.graphOverriders, { anchorIds, ...filters, perAnchor: cypherInt(perAnchor) });
  }

  // ---- LOCALIZE (libs/search/src/localize) -----------------------------------------------------

  /** Every file of the repositories, with its repository. */
  localizeFiles(repoIds: string[]): Promise<{ repoId: string; path: string }[]> {
    return this.neo4j.read(SEARCH_CYPHER.localizeFiles, { repoIds });
  }

  /** The innermost scope of `kinds` at each frame's line (or of its name, without a line). */
  async localizeFrameScopes(frames: { frame: number; repoId: string; path: string; line: number | null; name: string | null }[], kinds: string[]): Promise<{ frame: number; id: string; qualifiedName: string }[]> {
    if (frames.length === 0) return [];
    return this.neo4j.read(SEARCH_CYPHER.localizeFrameScopes, { frames: frames.map((f) => ({ ...f, line: f.line === null ? null : cypherInt(f.line) })), kinds });
  }

  /** Scopes named (name or qualified name) by each of `names`, at most `perName` each, with how many there were. */
  async localizeNames(names: string[], repoIds: string[], kinds: string[], perName: number): Promise<{ nameIndex: number; total: number; id: string; kind: string; qualifiedName: string }[]> {
    if (names.length === 0) return [];
    return this.neo4j.read(SEARCH_CYPHER.localizeNames, { names, repoIds, kinds, perName: cypherInt(perName) });
  }

  /** Members of `kinds` of each class, in declaration order. */
  async localizeMembers(classIds: string[], kinds: string[], perClass: number): Promise<{ classIndex: number; fromName: string; id: string }[]> {
    if (classIds.length === 0) return [];
    return this.neo4j.read(SEARCH_CYPHER.localizeMembers, { classIds, kinds, perClass: cypherInt(perClass) });
  }

  /** Callees and callers of each seed over CALLS. */
  async localizeNeighbors(seedIds: string[], kinds: string[], perSeed: number): Promise<{ seedIndex: number; fromName: string; id: string; direction: 'in' | 'out' }[]> {
    if (seedIds.length === 0) return [];
    return this.neo4j.read(SEARCH_CYPHER.localizeNeighbors, { seedIds, kinds, perSeed: cypherInt(perSeed) });
  }

  /** Scopes of `kinds` declared in each file. */
  async localizeFileScopes(paths: { repoId: string; path: string }[], kinds: string[], perFile: number): Promise<{ pathIndex: number; id: string }[]> {
    if (paths.length === 0) return [];
    return this.neo4j.read(SEARCH_CYPHER.localizeFileScopes, { paths, kinds, perFile: cypherInt(perFile) });
  }

  /** As localizeFileScopes, each with its record (source cut to `sourceChars`): one read instead of two. */
  async localizeStageFunctions(paths: { repoId: string; path: string }[], kinds: string[], perFile: number, sourceChars: number | null): Promise<{ pathIndex: number; record: ScopeRecord }[]> {
    if (paths.length === 0) return [];
    const rows = await this.neo4j.read<RecordRow & { pathIndex: number }>(SEARCH_CYPHER.localizeStageFunctions, { paths, kinds, perFile: cypherInt(perFile), sourceChars: sourceCharsParam(sourceChars) });
    return rows.map(({ pathIndex, ...r }) => ({ pathIndex, record: toScopeRecord(r) }));
  }

  /** As localizeNeighbors, each with its record (source cut to `sourceChars`). */
  async localizeStageNeighbors(seedIds: string[], kinds: string[], perSeed: number, sourceChars: number | null): Promise<{ seedIndex: number; fromName: string; direction: 'in' | 'out'; record: ScopeRecord }[]> {
    if (seedIds.length === 0) return [];
    const rows = await this.neo4j.read<RecordRow & { seedIndex: number; fromName: string; direction: 'in' | 'out' }>(SEARCH_CYPHER.localizeStageNeighbors, {
      seedIds,
      kinds,
      perSeed: cypherInt(perSeed),
      sourceChars: sourceCharsParam(sourceChars),
    });
    return rows.map(({ seedIndex, fromName, direction, ...r }) => ({ seedIndex, fromName, direction, record: toScopeRecord(r) }));
  }

  /** As localizeMembers, each with its record (source cut to `sourceChars`). */
  async localizeMemberRecords(classIds: string[], kinds: string[], perClass: number, sourceChars: number | null): Promise<{ classIndex: number; fromName: string; record: ScopeRecord }[]> {
    if (classIds.length === 0) return [];
    const rows = await this.neo4j.read<RecordRow & { classIndex: number; fromName: string }>(SEARCH_CYPHER.localizeMemberRecords, {
      classIds,
      kinds,
      perClass: cypherInt(perClass),
      sourceChars: sourceCharsParam(sourceChars),
    });
    return rows.map(({ classIndex, fromName, ...r }) => ({ classIndex, fromName, record: toScopeRecord(r) }));
  }

  /** Neighbors of each seed, nearest first; see cypher/search/expand.cypher. */
  async expand(seedIds: string[], shape: ExpansionShape, perSeed: number): Promise<ExpansionRow[]> {
    if (seedIds.length === 0) return [];
    const query = renderExpansionQuery(this.neo4j.cypher.get(SEARCH_CYPHER.expand), shape);
    return this.neo4j.readRendered<ExpansionRow>(query, { seedIds, perSeed: cypherInt(perSeed) });
  }
}

/** A row of the queries returning scopes-by-id.cypher's fields. */
type RecordRow = Omit<ScopeRecord, 'sourceTruncated' | 'linked'>;

function toScopeRecord(r: RecordRow): ScopeRecord {
  return { ...r, sourceTruncated: (r.source?.length ?? 0) < r.sourceLength };
}

function sourceCharsParam(sourceChars: number | null) {
  return sourceChars === null ? null : cypherInt(sourceChars);
}

/**
 * Search's statements for warmQueryPlans at the API's start, run with parameters that match nothing
 * (repository ''), each list parameter at every size class its real calls use: Neo4j caches a plan
 * per statement and size class of each list (1, 2-10, 11-...), and an EXPLAIN did not warm a real
 * run. A first plan cost 50-600 ms on this machine, GRAPH's walk the most: at a million scopes the
 * GRAPH p95 over 100 questions was set by the first question of each anchor count and direction.
 * The parameters are recorded from the repository's own methods, not restated, so they cannot drift
 * from the real calls' types.
 */
export async function searchPlanWarmups(neo4j: Pick<Neo4jService, 'text'>, dimensions: number): Promise<PlanWarmup[]> {
  const warmups: PlanWarmup[] = [];
  const record = (name: string, params: Record<string, unknown>, text?: string) => {
    warmups.push({ name, params, run: true, ...(text === undefined ? {} : { text }) });
    return Promise.resolve([]);
  };
  const recorder = {
    text: (name: string) => neo4j.text(name),
    read: (name: string, params: Record<string, unknown>) => record(name, params),
    readRendered: (text: string, params: Record<string, unknown>) => record(`search/both-lists#${warmups.length}`, params, text),
  };
  const repo = new SearchRepository(recorder as unknown as Neo4jService);
  const none = '';
  const filters: CypherFilters = { repoIds: [none], kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null };
  const sized = (n: number) => Array.from({ length: n }, () => none);
  // A unit vector of the index's size: the vector index refuses another length.
  const vector = Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0));
  await repo.vectorCoverage([none]);
  await repo.vectorCoverage(null);
  for (const names of [1, 2]) {
    for (const targetKinds of [['function', 'method'], []] as ScopeKind[][]) await repo.graphAnchors({ names: sized(names), target: none, targetKinds, scan: 1 }, [none], ['CALLS', 'REFERENCES']);
  }
  for (const direction of ['in', 'out'] as const) {
    for (const anchors of [1, 2]) await repo.graphRelated(sized(anchors), { edgeTypes: ['CALLS', 'REFERENCES'], direction, maxDepth: 1, viaFile: false }, filters, 1);
  }
  // Hybrid's statement (the post-filtered or the in-index semantic list, joined with Lucene's top k) and BM25 mode's list.
  for (const list of ['vectorIndexPostfiltered', 'vectorIndexFiltered'] as const) await repo.bothLists({ list, vector, k: 1, limit: 1 }, { query: 'x', k: 1, luceneK: 1 }, filters);
  await repo.fullText('x', filters, 1, { luceneK: 1 });
  // Hybrid's lists run apart over a large index (filters/strategy.ts, listsApart): each semantic file alone.
  await repo.vectorIndexPostfiltered(vector, filters, 1, 1);
  await repo.vectorIndexFiltered(vector, filters, 1, 1);
  for (const ids of [1, 2, 11]) for (const links of [false, true]) await repo.scopesById(sized(ids), 1, { links });
  return warmups;
}
