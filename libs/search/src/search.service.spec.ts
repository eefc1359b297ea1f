import { Logger } from '@nestjs/common';
import type { EmbeddingProvider } from '@scopegraph/llm';
import { defaultPlan } from './plan';
import { RagClient } from './query-builder';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { type BothListsRequest, type CypherFilters, type ExpansionRow, type FullTextOptions, listsOneByOne, type ScoredId, type SearchRepository } from './search.repository';
import { duplicateKey, SearchService } from './search.service';
import { LISTS_APART_MIN_VECTORS, postfilterK } from './filters/strategy';
import type { ScopeRecord } from './search.types';

/**
 * SearchService against an in-memory stand-in for SearchRepository (the one class that talks to
 * Neo4j), so the stage logic — filter resolution, strategy choice, over-fetch growth, fusion, graph
 * signal, expansion — is checked without a database. The Cypher itself is exercised by the e2e tests.
 */

interface Row {
  id: string;
  repoId: string;
  kind: string;
  language: string;
  path: string;
  name: string;
  text: string;
  vector: [number, number];
  parentId?: string;
}

const cosine = (a: number[], b: number[]) => {
  const dot = a[0] * b[0] + a[1] * b[1];
  return (1 + dot / (Math.hypot(...a) * Math.hypot(...b))) / 2;
};

class FakeRepository {
  calls: string[] = [];
  /** What each keyword list asked Lucene for (FullTextOptions), in order. */
  keywordOptions: FullTextOptions[] = [];
  edges: [string, string][] = [];
  constructor(readonly rows: Row[]) {}

  private passesIndex(r: Row, f: CypherFilters) {
    return f.repoIds.includes(r.repoId) && f.kinds.includes(r.kind) && f.languages.includes(r.language);
  }
  private passesPost(r: Row, f: CypherFilters) {
    return (f.paths === null || f.paths.includes(r.path)) && (f.pathContains === null || r.path.includes(f.pathContains)) && (f.name === null || r.name === f.name);
  }
  private ranked(rows: Row[], vector: number[]): ScoredId[] {
    return rows.map((r) => ({ id: r.id, score: cosine(r.vector, vector) })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  async repositoryIds() {
    this.calls.push('repositoryIds');
    return [...new Set(this.rows.map((r) => r.repoId))].sort();
  }
  async filePaths(repoIds: string[]) {
    this.calls.push('filePaths');
    return [...new Set(this.rows.filter((r) => repoIds.includes(r.repoId)).map((r) => r.path))];
  }
  /** Not recorded in `calls`: the tests of call order are about filters and lists. */
  async vectorCoverage(repoIds: string[] | null) {
    const rows = this.rows.filter((r) => !repoIds || repoIds.includes(r.repoId));
    const elsewhere = this.rows.filter((r) => repoIds && !repoIds.includes(r.repoId) && r.vector).length;
    const elsewhereScopes = this.rows.filter((r) => repoIds && !repoIds.includes(r.repoId)).length;
    return { scopes: rows.length, embedded: rows.filter((r) => r.vector).length, indexing: 0, elsewhere, elsewhereIndexing: 0, elsewhereScopes };
  }
  async countCandidates(counted: Omit<CypherFilters, 'repoIds'> & { repoIds: string[] | null }, cap: number) {
    this.calls.push('countCandidates');
    const repositoryIds = [...new Set(this.rows.map((r) => r.repoId))].sort();
    const f = { ...counted, repoIds: counted.repoIds ?? repositoryIds };
    return { repositoryIds, n: Math.min(cap, this.rows.filter((r) => this.passesIndex(r, f) && this.passesPost(r, f)).length) };
  }
  async vectorIndex(vector: number[], k: number) {
    this.calls.push(`vectorIndex:${k}`);
    return this.ranked(this.rows, vector).slice(0, k);
  }
  async vectorExact(vector: number[], f: CypherFilters, k: number) {
    this.calls.push(`vectorExact:${k}`);
    return this.ranked(this.rows.filter((r) => this.passesIndex(r, f) && this.passesPost(r, f)), vector).slice(0, k);
  }
  async vectorIndexFiltered(vector: number[], f: CypherFilters, k: number, limit: number) {
    this.calls.push(`vectorIndexFiltered:${k}`);
    const pool = this.ranked(this.rows.filter((r) => this.passesIndex(r, f)), vector).slice(0, k);
    const byId = new Map(this.rows.map((r) => [r.id, r]));
    return { pool: pool.length, hits: pool.filter((h) => this.passesPost(byId.get(h.id)!, f)).slice(0, limit) };
  }
  async vectorIndexPostfiltered(vector: number[], f: CypherFilters, k: number, limit: number) {
    this.calls.push(`vectorIndexPostfiltered:${k}`);
    const pool = this.ranked(this.rows, vector).slice(0, k);
    const byId = new Map(this.rows.map((r) => [r.id, r]));
    return { pool: pool.length, hits: pool.filter((h) => this.passesIndex(byId.get(h.id)!, f) && this.passesPost(byId.get(h.id)!, f)).slice(0, limit) };
  }
  /** The two lists of one round trip: the calls are recorded as the single-list ones would be, under `bothLists`. */
  async bothLists(vector: BothListsRequest['vector'], keyword: BothListsRequest['keyword'], f: CypherFilters) {
    this.calls.push(`bothLists:${vector.list}`);
    return listsOneByOne(this, { vector, keyword }, f);
  }
  async fullText(query: string, f: CypherFilters, k: number, options: FullTextOptions = {}) {
    this.keywordOptions.push(options);
    // The service sends the field-boosted form; the fake matches on its (flat) term group.
    const flat = /^nameTokens:\((.*?)\)\^/.exec(query)?.[1];
    if (flat === undefined) throw new Error(`unexpected full-text query shape: ${query}`);
    this.calls.push(`fullText:${flat}`);
    const terms = flat.split(' ');
    return this.rows
      .filter((r) => this.passesIndex(r, f) && this.passesPost(r, f))
      .map((r) => ({ id: r.id, score: terms.filter((t) => r.text.includes(t)).length }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, k);
  }
  async scopesById(ids: string[], sourceChars: number | null) {
    const byId = new Map(this.rows.map((r) => [r.id, r]));
    return new Map(
      ids
        .filter((id) => byId.has(id))
        .map((id): [string, ScopeRecord] => {
          const r = byId.get(id)!;
          const source = sourceChars === null ? r.text : r.text.slice(0, sourceChars);
          return [
            id,
            {
              id, repoId: r.repoId, name: r.name, qualifiedName: r.name, kind: r.kind, language: r.language, path: r.path, parentId: r.parentId ?? null,
              startLine: 1, endLine: 2, signature: null, docComment: null, source, sourceLength: r.text.length, sourceTruncated: source.length < r.text.length,
            },
          ];
        }),
    );
  }
  async hitConnections(ids: string[]) {
    this.calls.push('hitConnections');
    return new Map(ids.map((id) => [id, new Set(this.edges.filter(([a, b]) => (a === id && ids.includes(b)) || (b === id && ids.includes(a))).map(([a, b]) => (a === id ? b : a))).size]));
  }
  async expand(seedIds: string[], _shape: unknown, perSeed: number): Promise<ExpansionRow[]> {
    this.calls.push('expand');
    const rows: ExpansionRow[] = [];
    seedIds.forEach((seed, seedRank) => {
      this.edges
        .filter(([a]) => a === seed)
        .slice(0, perSeed)
        .forEach(([, b]) => rows.push({ fromId: seed, seedRank, id: b, depth: 1, nodeIds: [seed, b], edgeTypes: ['CALLS'], directions: ['out'] }));
    });
    return rows.sort((x, y) => x.depth - y.depth || x.seedRank - y.seedRank || (x.id < y.id ? -1 : 1));
  }
}

const embedder = (vector: [number, number]): EmbeddingProvider & { texts: string[] } => {
  const texts: string[] = [];
  return { name: 'hash', model: 'fake', dimensions: 2, texts, embedDocuments: async () => [], embedQuery: async (t: string) => (texts.push(t), vector) };
};

function row(id: string, over: Partial<Row> = {}): Row {
  return { id, repoId: 'r1', kind: 'function', language: 'typescript', path: `src/${id}.ts`, name: id, text: id, vector: [1, 0], ...over };
}

function setup(rows: Row[], vector: [number, number] = [1, 0]) {
  const repo = new FakeRepository(rows);
  const emb = embedder(vector);
  const clock = { t: 0, now: () => clock.t };
  const service = new SearchService(repo as unknown as SearchRepository, emb, undefined, clock);
  return { repo, emb, service, clock, rag: new RagClient(service) };
}

describe('SearchService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  it('refuses an unknown repository naming the field, before any list runs', async () => {
    const { rag, repo, emb } = setup([row('a')]);
    const error = await rag.scope().inRepository('nope').semanticSearchBySource('x').execute().catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: DomainErrorCode.UnknownRepository, field: 'repository' });
    // The repository ids arrive with the candidate count, in one round trip; a repository missing
    // from that answer is looked up once more, since it may be newer than a remembered answer.
    expect(repo.calls).toEqual(['countCandidates', 'countCandidates']);
    expect(emb.texts).toEqual([]);
  });

  it('reuses the repository ids and candidate count of a search made less than 2 s before', async () => {
    const { rag, repo, clock } = setup([row('a'), row('b')]);
    const search = () => rag.scope().inRepository('r1').semanticSearchBySource('q').execute();
    await Promise.all([search(), search()]);
    clock.t += 1_999;
    await search();
    expect(repo.calls.filter((c) => c === 'countCandidates')).toHaveLength(1);
    clock.t += 1;
    await search();
    expect(repo.calls.filter((c) => c === 'countCandidates')).toHaveLength(2);
    // Other filters are another count.
    await rag.scope().inRepository('r1').whereKind('method').semanticSearchBySource('q').execute();
    expect(repo.calls.filter((c) => c === 'countCandidates')).toHaveLength(3);
  });

  it('shows a scope copied at several paths once, with the other paths, whitespace aside', async () => {
    const { rag } = setup([
      row('a', { name: 'leash', path: 'src/parks/leash.ts', text: 'function leash() {\n  return 1;\n}', vector: [1, 0] }),
      row('b', { name: 'leash', path: 'dist/leash.js', text: '    function leash() { return 1; }', vector: [0.99, 0.1] }),
      row('c', { name: 'leash', path: 'src/walks/leash.ts', text: 'function leash() { return 2; }', vector: [0.98, 0.2] }),
      row('d', { name: 'other', path: 'src/other.ts', text: 'function leash() { return 1; }', vector: [0.97, 0.3] }),
    ]);
    const { results } = await rag.scope().semanticSearchBySource('q').execute();
    expect(results.map((r) => [r.scope.id, r.alsoAt ?? []])).toEqual([
      ['a', ['dist/leash.js']],
      ['c', []],
      ['d', []],
    ]);
  });

  it('finds a repository indexed after the remembered answer, and explains from a fresh count', async () => {
    const { rag, repo } = setup([row('a')]);
    await rag.scope().inRepository('r1').semanticSearchBySource('q').execute();
    repo.rows.push(row('b', { repoId: 'r2' }));
    const { results } = await rag.scope().inRepository('r2').semanticSearchBySource('q').execute();
    expect(results.map((r) => r.scope.id)).toEqual(['b']);
    repo.rows.push(row('c'));
    const explain = await rag.scope().inRepository('r1').semanticSearchBySource('q').explain();
    expect(explain.candidateCount).toEqual({ count: 2, capped: false });
  });

  it('searches only the repositories a caller may see: filtered before the limit, counted alone in explain', async () => {
    const { service } = setup([row('a', { repoId: 'hidden', vector: [1, 0] }), row('b', { repoId: 'hidden', vector: [0.99, 0.1] }), row('c', { repoId: 'mine', vector: [0.5, 0.5] })]);
    const plan = defaultPlan('semantic', 'q');
    plan.limit = 1;
    plan.filters = { repositoryVisible: (id) => id === 'mine' };
    const { results, explain } = await service.execute(plan);
    expect(results.map((r) => r.scope.id)).toEqual(['c']);
    expect(JSON.stringify(explain)).toContain('<all 1 repositories>');
    expect(JSON.stringify(explain)).not.toContain('hidden');
  });

  it('refuses a malformed glob before touching the repository', async () => {
    const { rag, repo } = setup([row('a')]);
    await expect(rag.scope().whereFile({ glob: 'src/[ab' }).fullText('a').execute()).rejects.toMatchObject({ field: 'pathGlob', code: DomainErrorCode.InvalidGlob });
    expect(repo.calls).toEqual([]);
  });

  it('fuses hybrid lists by weighted RRF and reports each list in the breakdown', async () => {
    // Vector order: a (cos 1), b, c. Keyword "beta": only b and c contain it, c twice as often.
    const { rag } = setup([
      row('a', { vector: [1, 0], text: 'alpha' }),
      row('b', { vector: [1, 0.5], text: 'beta' }),
      row('c', { vector: [1, 1], text: 'beta gamma beta' }),
    ]);
    const { results, explain } = await rag.scope().semanticSearchBySource('q').fullText('beta').hybrid({ weights: { semantic: 1, bm25: 1 } }).limit(3).execute();
    // RRF k 10 (the default): a: 1/11; b: 1/12 + 1/11; c: 1/13 + 1/12 (bm25 ties b/c on score 1 -> id order b, c).
    expect(results.map((r) => r.scope.id)).toEqual(['b', 'c', 'a']);
    expect(results[0].score).toBeCloseTo(1 / 12 + 1 / 11, 12);
    expect(results[0].scoreBreakdown).toMatchObject({
      fusion: 'rrf',
      semantic: { rank: 2, contribution: 1 / 12 },
      bm25: { rank: 1, contribution: 1 / 11 },
      filtersApplied: [],
    });
    expect(results[2].scoreBreakdown.bm25).toBeUndefined();
    expect(explain.fusion).toEqual({ method: 'rrf', k: 10, weights: { semantic: 1, bm25: 1 } });
    expect(explain.vectorStrategy.name).toBe('unfiltered-index');
  });

  it('pre-filters exactly when few scopes pass the filters', async () => {
    const { rag, repo } = setup([row('a'), row('b', { repoId: 'r2' })]);
    const { results, explain } = await rag.scope().inRepository('r2').semanticSearchBySource('q').execute();
    expect(results.map((r) => r.scope.id)).toEqual(['b']);
    expect(explain.vectorStrategy.name).toBe('exact-prefilter');
    expect(explain.lists[0].cypher).toBe('search/vector-exact');
    expect(explain.candidateCount).toEqual({ count: 1, capped: false });
    expect(repo.calls).toContain('vectorExact:10');
    expect(results[0].scoreBreakdown.filtersApplied).toEqual(['repository = "r2"']);
  });

  it('over-fetches and grows k until topK scopes survive a path filter', async () => {
    // 60 scopes nearest the query are outside "keep/"; 5 of the farther ones are inside it.
    const rows = [
      ...Array.from({ length: 60 }, (_, i) => row(`near${String(i).padStart(2, '0')}`, { vector: [1, i / 1000], path: 'other/x.ts' })),
      ...Array.from({ length: 5 }, (_, i) => row(`far${i}`, { vector: [1, 1 + i], path: `keep/f${i}.ts` })),
    ];
    const { rag, repo } = setup(rows);
    const response = await rag
      .scope()
      .whereFile({ contains: 'keep/' })
      .semanticSearchBySource('q')
      .filterStrategy('auto', { exactMaxCandidates: 2 })
      .limit(5)
      .execute();
    expect(response.results.map((r) => r.scope.id)).toEqual(['far0', 'far1', 'far2', 'far3', 'far4']);
    expect(response.explain.vectorStrategy.name).toBe('overfetch-postfilter');
    expect(response.explain.lists[0].attempts).toEqual([
      { k: 20, pool: 20, kept: 0 },
      { k: 40, pool: 40, kept: 0 },
      { k: 80, pool: 65, kept: 5 },
    ]);
    expect(repo.calls.filter((c) => c.startsWith('vectorIndexFiltered'))).toEqual(['vectorIndexFiltered:20', 'vectorIndexFiltered:40', 'vectorIndexFiltered:80']);
  });

  it('filters inside the index when only index properties are filtered and many pass', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(`s${i}`, { kind: i % 2 ? 'method' : 'class' }));
    const { rag } = setup(rows);
    const { results, explain } = await rag.scope().whereKind('method').semanticSearchBySource('q').filterStrategy('auto', { exactMaxCandidates: 1 }).execute();
    expect(explain.vectorStrategy.name).toBe('index-filter');
    expect(results.every((r) => r.scope.kind === 'method')).toBe(true);
    expect(results).toHaveLength(5);
  });

  it('asks Lucene for its top k, without the repository clause only when the repository holds nearly all scopes', async () => {
    const { rag, repo } = setup([...Array.from({ length: 40 }, (_, i) => row(`a${i}`)), row('other', { repoId: 'r2' })]);
    await rag.scope().inRepository('r1').semanticSearchBySource('a1').fullText('a1').limit(5).execute();
    expect(repo.keywordOptions.pop()).toEqual({ luceneK: postfilterK(150, 40 / 41), withoutRepositoryClause: true });
    await rag.scope().inRepository('r2').fullText('a1').semanticSearchBySource('a1').limit(5).execute();
    expect(repo.keywordOptions.pop()).toEqual({ luceneK: 150, withoutRepositoryClause: false });
    // A kind filter is not in the Lucene query: the full list.
    await rag.scope().inRepository('r1').whereKind('function').semanticSearchBySource('a1').fullText('a1').limit(5).execute();
    expect(repo.keywordOptions.pop()).toEqual({});
  });

  it('asks the unfiltered index and post-filters when the repository holds nearly all vectors', async () => {
    const rows = [...Array.from({ length: 40 }, (_, i) => row(`a${i}`)), row('other', { repoId: 'r2', vector: [0, 1] })];
    const { rag, repo } = setup(rows);
    const { results, explain } = await rag.scope().inRepository('r1').semanticSearchBySource('q').filterStrategy('auto', { exactMaxCandidates: 1 }).limit(5).execute();
    expect(explain.vectorStrategy.name).toBe('index-postfilter');
    expect(explain.vectorCoverage?.indexShare).toBeCloseTo(40 / 41, 3);
    expect(explain.lists[0].params.k).toBe(postfilterK(5, 40 / 41));
    expect(repo.calls).toContain(`vectorIndexPostfiltered:${postfilterK(5, 40 / 41)}`);
    expect(repo.calls.some((c) => c.startsWith('vectorIndexFiltered'))).toBe(false);
    expect(results).toHaveLength(5);
    expect(results.every((r) => r.scope.repoId === 'r1')).toBe(true);
    // A kind filter: the repository's share says nothing about what passes it.
    const kinds = await rag.scope().inRepository('r1').whereKind('function').semanticSearchBySource('q').filterStrategy('auto', { exactMaxCandidates: 1 }).execute();
    expect(kinds.explain.vectorStrategy.name).toBe('index-filter');
  });

  it('filters inside the index when other repositories hold more of it, and falls back when the post-filter kept too few', async () => {
    // 40 of 49 vectors (0.82) in r1, but the nine of r2 are the nearest: the post-filter keeps none of k.
    const rows = [...Array.from({ length: 40 }, (_, i) => row(`a${i}`, { vector: [0, 1] })), ...Array.from({ length: 9 }, (_, i) => row(`b${i}`, { repoId: 'r2' }))];
    const { rag, repo } = setup(rows);
    const res = await rag.scope().inRepository('r1').semanticSearchBySource('q').filterStrategy('auto', { exactMaxCandidates: 1 }).limit(5).execute();
    expect(res.explain.vectorStrategy.name).toBe('index-postfilter');
    expect(repo.calls.filter((c) => c.startsWith('vector'))).toEqual([expect.stringMatching(/^vectorIndexPostfiltered:/), expect.stringMatching(/^vectorIndexFiltered:/)]);
    expect(res.explain.notes.join(' ')).toMatch(/index-postfilter kept 0 of \d+ semantic hits/);
    expect(res.results).toHaveLength(5);
    expect(res.results.every((r) => r.scope.repoId === 'r1')).toBe(true);
    // r2 with 19 vectors: r1's 40 are 0.68 of the index, below INDEX_SHARE_MIN.
    const more = setup([...rows, ...Array.from({ length: 10 }, (_, i) => row(`c${i}`, { repoId: 'r2' }))]);
    const filtered = await more.rag.scope().inRepository('r1').semanticSearchBySource('q').filterStrategy('auto', { exactMaxCandidates: 1 }).limit(5).execute();
    expect(filtered.explain.vectorStrategy.name).toBe('index-filter');
  });

  it('matches a glob in TypeScript and passes the matching paths to both lists', async () => {
    const { rag, repo } = setup([row('a', { path: 'src/a.ts', text: 'x' }), row('b', { path: 'src/b.py', text: 'x' })]);
    const { results, explain } = await rag.scope().whereFile({ glob: '**/*.py' }).semanticSearchBySource('x').fullText('x').execute();
    expect(results.map((r) => r.scope.id)).toEqual(['b']);
    expect(explain.filters).toEqual(['path glob "**/*.py" (1 of 2 files)']);
    expect(results[0].scoreBreakdown.semantic?.rank).toBe(1);
    expect(results[0].scoreBreakdown.bm25?.rank).toBe(1);
    // The glob needs the repository ids first; the count then sees the matching paths.
    expect(repo.calls.slice(0, 3)).toEqual(['repositoryIds', 'filePaths', 'countCandidates']);
  });

  it('skips both lists when the glob matches no file', async () => {
    const { rag, repo, emb } = setup([row('a')]);
    const { results, explain } = await rag.scope().whereFile({ glob: 'nothing/**' }).semanticSearchBySource('x').fullText('x').execute();
    expect(results).toEqual([]);
    expect(explain.vectorStrategy.name).toBe('empty');
    expect(emb.texts).toEqual([]);
    expect(repo.calls).toEqual(['repositoryIds', 'filePaths']);
  });

  it('skips the keyword list when the text holds no searchable term', async () => {
    const { rag, repo } = setup([row('a')]);
    const { results, explain } = await rag.scope().fullText('&& || !!').execute();
    expect(results).toEqual([]);
    expect(explain.lists[0]).toMatchObject({ list: 'bm25', strategy: 'skipped' });
    expect(repo.calls.some((c) => c.startsWith('fullText'))).toBe(false);
  });

  it('sends the escaped, identifier-split query to the full-text list and the split words to the embedder', async () => {
    const { rag, repo, emb } = setup([row('a')]);
    await rag.scope().semanticSearchBySource('parseFile(x)').fullText('parseFile(x) AND y').execute();
    expect(repo.calls).toContain('fullText:parsefile\\(x\\) parse file x y');
    expect(emb.texts).toEqual(['parseFile(x) (parse file x)']);
  });

  it('widens the vector pool for semantic_rerank and lets keywords re-order it', async () => {
    const { rag, repo } = setup([
      row('a', { vector: [1, 0], text: 'nothing here' }),
      row('b', { vector: [1, 0.2], name: 'createInvoice', text: 'createInvoice' }),
    ]);
    const { results, explain } = await rag.scope().semanticRerank('create invoice', { keywordWeight: 0.5 }).limit(2).execute();
    expect(repo.calls).toContain('vectorIndex:50');
    expect(results.map((r) => r.scope.id)).toEqual(['b', 'a']);
    expect(results[0].scoreBreakdown).toMatchObject({ fusion: 'blend', keyword: { raw: 1, score: 1, contribution: 0.5 }, semantic: { rank: 2 } });
    expect(explain.fusion).toEqual({ method: 'blend', keywordWeight: 0.5 });
  });

  it('adds the graph signal as an RRF list when asked', async () => {
    const { rag, repo } = setup([row('a', { vector: [1, 0] }), row('b', { vector: [1, 0.3] }), row('c', { vector: [1, 0.6] })]);
    repo.edges = [['c', 'b'], ['c', 'a']];
    const plain = await rag.scope().semanticSearchBySource('q').execute();
    expect(plain.results.map((r) => r.scope.id)).toEqual(['a', 'b', 'c']);
    const boosted = await rag.scope().semanticSearchBySource('q').graphSignal({ weight: 5 }).execute();
    // RRF k 10: c: 2/13 + 5/11 (2 connections, graph rank 1) beats a: 2/11 + 5/12.
    expect(boosted.results[0].scope.id).toBe('c');
    expect(boosted.results[0].scoreBreakdown.graph).toMatchObject({ connections: 2, rank: 1, contribution: 5 / 11 });
    expect(boosted.explain.graphSignal).toEqual({ cypher: 'search/hit-connections', weight: 5, edges: ['CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'] });
  });

  it('attaches expanded neighbors to the hit that reached them, de-duplicated and capped', async () => {
    const { rag, repo } = setup([row('a'), row('b', { vector: [1, 0.1] }), row('x', { vector: [0, 1] }), row('y', { vector: [0, 1] })]);
    repo.edges = [['a', 'x'], ['b', 'x'], ['b', 'y']];
    const { results } = await rag.scope().semanticSearchBySource('q').limit(2).expand({ depth: 1, edges: ['CALLS'], maxNodes: 5 }).execute();
    expect(results.map((r) => r.scope.id)).toEqual(['a', 'b']);
    expect(results[0].neighbors!.map((n) => [n.scope.id, n.path.nodeIds])).toEqual([['x', ['a', 'x']]]);
    expect(results[1].neighbors!.map((n) => n.scope.id)).toEqual(['y']);
    const capped = await rag.scope().semanticSearchBySource('q').limit(2).expand({ edges: ['CALLS'], maxNodes: 1 }).execute();
    expect(capped.results.flatMap((r) => r.neighbors!.map((n) => n.scope.id))).toEqual(['x']);
  });

  it('truncates sources on request and says so', async () => {
    const { rag } = setup([row('a', { text: 'x'.repeat(100) })]);
    const { results } = await rag.scope().semanticSearchBySource('q').truncateSource(10).execute();
    expect(results[0].scope).toMatchObject({ source: 'x'.repeat(10), sourceLength: 100, sourceTruncated: true });
  });

  it('explains without embedding or searching', async () => {
    const { rag, repo, emb } = setup([row('a')]);
    const explain = await rag.scope().inRepository('r1').semanticSearchBySource('q').fullText('q').expand({ depth: 2, edges: ['CALLS'], direction: 'in' }).explain();
    expect(emb.texts).toEqual([]);
    expect(repo.calls).toEqual(['countCandidates']);
    expect(explain.lists.map((l) => [l.list, l.cypher])).toEqual([
      ['semantic', 'search/vector-exact'],
      ['bm25', 'search/fulltext-limited'],
    ]);
    expect(explain.lists[0].params.vector).toBe('<2-dimensional query vector>');
    expect(explain.expand?.pattern).toBe('(seed)((:Scope)<-[:CALLS]-(:Scope)){1,2}(n)');
  });

  it('answers a hybrid query from the keyword list when embedding fails, and says so', async () => {
    const { rag, emb } = setup([row('a', { text: 'hello' })]);
    emb.embedQuery = async () => {
      throw new Error('model unavailable');
    };
    const { results, warnings, explain } = await rag.scope().semanticSearchBySource('hello').fullText('hello').execute();
    expect(results.map((r) => r.scope.id)).toEqual(['a']);
    expect(warnings).toEqual(['semantic list skipped: query embedding failed (model unavailable)']);
    expect(explain.notes).toContain(warnings[0]);
    await expect(rag.scope().semanticSearchBySource('hello').execute()).rejects.toThrow('model unavailable');
  });

  it('runs the two lists of a hybrid search in one round trip, except an over-fetched semantic list', async () => {
    const { rag, repo } = setup([row('a', { text: 'alpha' }), row('b', { text: 'beta' })]);
    await rag.scope().inRepository('r1').semanticSearchBySource('q').fullText('beta').hybrid().execute();
    expect(repo.calls).toEqual(['countCandidates', 'bothLists:vectorExact', expect.stringMatching(/^vectorExact:\d+$/), 'fullText:beta']);
    repo.calls.length = 0;
    await rag.scope().semanticSearchBySource('q').fullText('beta').hybrid().execute();
    expect(repo.calls.slice(0, 2)).toEqual(['repositoryIds', 'bothLists:vectorIndex']);
    repo.calls.length = 0;
    // A path filter the index cannot apply: rounds of a growing k, so the lists run apart.
    await rag.scope().whereFile({ contains: 'src/' }).semanticSearchBySource('q').fullText('beta').hybrid().filterStrategy('overfetch').execute();
    expect(repo.calls.filter((c) => c.startsWith('bothLists'))).toEqual([]);
    expect(repo.calls).toEqual(expect.arrayContaining(['fullText:beta', expect.stringMatching(/^vectorIndexFiltered:/)]));
  });

  it('reads the vector coverage while it counts the candidates, and not for a glob that matches nothing', async () => {
    const { rag, repo } = setup([row('a', { text: 'alpha' }), row('b', { text: 'beta' })]);
    const log: string[] = [];
    for (const name of ['countCandidates', 'vectorCoverage'] as const) {
      const read = repo[name].bind(repo) as (...args: unknown[]) => Promise<unknown>;
      (repo as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
        log.push(`${name} starts`);
        await new Promise((r) => setImmediate(r));
        log.push(`${name} ends`);
        return read(...args);
      };
    }
    const { explain } = await rag.scope().inRepository('r1').semanticSearchBySource('q').fullText('beta').hybrid().execute();
    expect(log.slice(0, 2).sort()).toEqual(['countCandidates starts', 'vectorCoverage starts']);
    expect(explain.vectorCoverage).toMatchObject({ scopes: 2, embedded: 2 });
    // An unknown repository is refused as before; its coverage read fails nothing.
    await expect(rag.scope().inRepository('nope').semanticSearchBySource('q').execute()).rejects.toMatchObject({ code: DomainErrorCode.UnknownRepository });
    log.length = 0;
    const none = await rag.scope().whereFile({ glob: 'nothing/**' }).semanticSearchBySource('q').fullText('beta').hybrid().execute();
    expect(log.filter((l) => l.startsWith('vectorCoverage'))).toEqual([]);
    expect(none.explain.vectorCoverage).toBeUndefined();
  });

  it('runs the two lists of a hybrid search apart and at once over an index of LISTS_APART_MIN_VECTORS vectors, with the same results', async () => {
    const { rag, repo, clock } = setup([row('a', { text: 'alpha' }), row('b', { text: 'beta' }), row('c', { text: 'beta gamma', vector: [0, 1] })]);
    const search = () => rag.scope().inRepository('r1').semanticSearchBySource('q').fullText('beta').hybrid().execute();
    const joined = await search();
    expect(repo.calls).toContain('bothLists:vectorExact');
    expect(joined.explain.notes.join(' ')).not.toMatch(/two statements at once/);
    // The same repository in an index holding LISTS_APART_MIN_VECTORS vectors (the others elsewhere).
    const coverage = repo.vectorCoverage.bind(repo);
    repo.vectorCoverage = async (ids) => ({ ...(await coverage(ids)), elsewhere: LISTS_APART_MIN_VECTORS });
    let inFlight = 0;
    let most = 0;
    for (const name of ['vectorExact', 'fullText'] as const) {
      const list = repo[name].bind(repo) as (...args: unknown[]) => Promise<ScoredId[]>;
      (repo as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return list(...args);
      };
    }
    clock.t += 40_000; // past the coverage's TTL and its stale window: this search reads it again
    repo.calls.length = 0;
    const apart = await search();
    expect(repo.calls.filter((c) => c.startsWith('bothLists'))).toEqual([]);
    expect(repo.calls).toEqual(expect.arrayContaining([expect.stringMatching(/^vectorExact:/), 'fullText:beta']));
    expect(most).toBe(2);
    expect(apart.explain.notes.join(' ')).toMatch(/two statements at once/);
    expect(apart.results.map((r) => [r.scope.id, r.score])).toEqual(joined.results.map((r) => [r.scope.id, r.score]));
    // One vector fewer: joined again.
    repo.vectorCoverage = async (ids) => ({ ...(await coverage(ids)), elsewhere: LISTS_APART_MIN_VECTORS - 4 });
    clock.t += 40_000;
    repo.calls.length = 0;
    await search();
    expect(repo.calls).toContain('bothLists:vectorExact');
  });

  it('does not wait on a vector coverage read past its TTL: the last coverage serves while one read replaces it', async () => {
    const { rag, repo, clock } = setup([row('a', { text: 'alpha' }), row('b', { text: 'beta' })]);
    const search = () => rag.scope().inRepository('r1').semanticSearchBySource('q').fullText('beta').hybrid().execute();
    expect((await search()).explain.vectorCoverage).toMatchObject({ scopes: 2, embedded: 2 });
    // A repository being indexed: its live count is slow (held here until released) and has moved.
    const read = repo.vectorCoverage.bind(repo);
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    repo.vectorCoverage = async (ids) => {
      reads++;
      await gate;
      return { ...(await read(ids)), scopes: 4, indexing: 1 };
    };
    clock.t += 2_500;
    const during = await search();
    expect(during.explain.vectorCoverage).toMatchObject({ scopes: 2, embedded: 2 });
    await search();
    expect(reads).toBe(1);
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    const after = await search();
    expect(after.explain.vectorCoverage).toMatchObject({ scopes: 4, embedded: 2, indexing: 1 });
    expect(after.warnings.join(' ')).toMatch(/covered 2 of 4 scopes/);
    expect(reads).toBe(1);
    // explain reads it fresh, whatever is remembered.
    await rag.scope().inRepository('r1').semanticSearchBySource('q').fullText('beta').hybrid().explain();
    expect(reads).toBe(2);
  });

  it('runs a plan made without the builder', async () => {
    const { service } = setup([row('a', { text: 'hello' })]);
    const plan = { ...defaultPlan('bm25', 'hello'), limit: 1 };
    const { results } = await service.execute(plan);
    expect(results.map((r) => [r.scope.id, r.scoreBreakdown.fusion])).toEqual([['a', 'none']]);
  });
});

describe('duplicateKey (one scope at several paths is shown once)', () => {
  const scope = (path: string, source: string | null, sourceLength = source?.length ?? 0): ScopeRecord => ({
    id: path,
    repoId: 'r',
    name: 'f',
    qualifiedName: 'f',
    kind: 'function',
    language: 'javascript',
    path,
    parentId: null,
    startLine: 1,
    endLine: 3,
    signature: null,
    docComment: null,
    source,
    sourceLength,
    sourceTruncated: (source?.length ?? 0) < sourceLength,
  });

  it('takes a copy re-indented by a bundle wrapper for the same scope', () => {
    expect(duplicateKey(scope('dist/a.umd.js', '  function f(x) {\n    return x + 1;\n  }'))).toBe(duplicateKey(scope('dist/a.cjs.js', 'function f(x) {\n  return x + 1;\n}')));
  });

  it('keeps different code, and truncated sources of different lengths, apart', () => {
    expect(duplicateKey(scope('a.js', 'function f(x) { return x + 1; }'))).not.toBe(duplicateKey(scope('b.js', 'function f(x) { return x + 2; }')));
    expect(duplicateKey(scope('a.js', 'function f(x) {', 40))).not.toBe(duplicateKey(scope('b.js', 'function f(x) {', 44)));
  });
});
