import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, cypherInt, MigrationService, Neo4jService } from '@scopegraph/graph';
import { EmbeddingCache, IngestRepository, IngestService, ParseCache, ParserService, ReferenceResolver } from '@scopegraph/ingest';
import { createEmbeddingProvider, EmbeddingProvider } from '@scopegraph/llm';
import { QueueService } from '@scopegraph/queue';
import { defaultPlan, fieldBoostedQuery, LANGUAGES, RagClient, SCOPE_KINDS, SearchHit, SearchRepository, SearchService, withSourceChars } from '@scopegraph/search';
import { collectInjectionFailures, INJECTION_STRINGS, LUCENE_STRINGS } from './injection-strings';
import { gql } from '../support/graphql-client';
import { pollUntil } from '../support/poll';
import { expectEqualWhileStill } from '../support/settled';
import { API_READY, freePort, ROOT, runId, RunningApp, startApp } from '../support/processes';

// Against the real Neo4j (and, for the GraphQL part, the built API process). The polyglot fixture is
// indexed once under this run's own repository id; only that repository is deleted afterwards.
const FIXTURE = path.join(ROOT, 'test/fixtures/polyglot-repo');

const names = (hits: SearchHit[]) => hits.map((h) => h.scope.qualifiedName);

// Per-query debug lines would bury the test output.
Logger.overrideLogger(['error', 'warn']);

describe('search over an indexed repository (real Neo4j)', () => {
  // The real Redis-backed parse and embedding caches, under this run's own key prefix (deleted after).
  const config = { ...loadConfig(), queue: { prefix: runId('searchkeys') } };
  const neo4j = new Neo4jService(config, new CypherFiles());
  const queues = new QueueService(config);
  const ingestRepo = new IngestRepository(neo4j);
  const repoId = runId('search');
  let embedder: EmbeddingProvider;
  let rag: RagClient;
  let service: SearchService;

  /** Nodes and relationships of this run's repository: the sentinel the injection tests watch. */
  const sentinel = async () => {
    const rows = await neo4j.runStatement<{ nodes: number; rels: number }>(
      'MATCH (n {repoId: $repoId}) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS nodes, count(r) AS rels',
      { repoId },
    );
    return rows[0];
  };

  const keysMatching = async (pattern: string): Promise<string[]> => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, page] = await queues.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      keys.push(...page);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  };

  beforeAll(async () => {
    await neo4j.waitUntilReady();
    await new MigrationService(neo4j, config).migrate();
    embedder = createEmbeddingProvider({ provider: 'local', dimensions: config.embedding.dimensions, modelsDir: config.embedding.modelsDir });
    const parser = new ParserService();
    await parser.init();
    await queues.onModuleInit();
    const ingest = new IngestService(ingestRepo, parser, new ParseCache(queues), new ReferenceResolver(config), new EmbeddingCache(queues), embedder, config);
    const result = await ingest.index({ path: FIXTURE, name: repoId });
    expect(result.embedded).toBeGreaterThan(50);
    // The run went through both caches under this run's prefix: every parsed file, and every vector the
    // model computed (vectors copied from a repository with the same content, which a spec running beside
    // this one may hold, are not cached again).
    expect((await keysMatching(`${config.queue.prefix}:parse:*`)).length).toBeGreaterThan(0);
    expect((await keysMatching(`${config.queue.prefix}:emb:*`)).length).toBe(result.embedding!.computed);
    service = new SearchService(new SearchRepository(neo4j), embedder);
    rag = new RagClient(service);
    // The full-text index is eventually consistent: wait until it serves this repository.
    await pollUntil('the full-text index to serve usp_CreateInvoice', async () => (await rag.scope().inRepository(repoId).fullText('usp_CreateInvoice').limit(1).execute()).results.length > 0);
  });

  afterAll(async () => {
    await ingestRepo.deleteRepository(repoId);
    const keys = await keysMatching(`${config.queue.prefix}:*`);
    if (keys.length > 0) await queues.redis.del(...keys);
    await queues.onModuleDestroy();
    await embedder?.close?.();
    await neo4j.onModuleDestroy();
  });

  describe('modes', () => {
    it('semantic finds the code that creates an invoice', async () => {
      const { results, explain } = await rag.scope().inRepository(repoId).semanticSearchBySource('create an invoice').limit(5).execute();
      expect(names(results)).toEqual(expect.arrayContaining(['InvoiceService.create']));
      expect(results.every((r) => r.scope.repoId === repoId)).toBe(true);
      expect(results[0].scoreBreakdown.semantic).toMatchObject({ rank: 1 });
      expect(results[0].score).toBeGreaterThan(0.5);
      expect(results[0].score).toBeLessThanOrEqual(1);
      expect(explain.vectorStrategy.name).toBe('exact-prefilter');
    });

    it('bm25 finds an identifier through its sub-tokens', async () => {
      const exact = await rag.scope().inRepository(repoId).fullText('usp_CreateInvoice').limit(3).execute();
      expect(exact.results[0].scope.qualifiedName).toBe('dbo.usp_CreateInvoice');
      // "create invoice" matches CreateInvoice only through the nameTokens sub-tokens.
      const split = await rag.scope().inRepository(repoId).fullText('CreateInvoice').whereLanguage('csharp').limit(3).execute();
      expect(names(split.results)).toContain('MyApp.Services.InvoiceService.CreateInvoice');
      expect(split.explain.lists[0].luceneQuery).toBe(fieldBoostedQuery('createinvoice create invoice'));
    });

    it('hybrid fuses both lists by weighted RRF', async () => {
      const { results, explain } = await rag.scope().inRepository(repoId).semanticSearchBySource('create an invoice').fullText('create an invoice').limit(5).execute();
      expect(names(results).some((n) => n === 'InvoiceService.create' || n.endsWith('.CreateInvoice'))).toBe(true);
      const both = results.find((r) => r.scoreBreakdown.semantic && r.scoreBreakdown.bm25)!;
      const { semantic, bm25 } = both.scoreBreakdown;
      expect(semantic!.contribution).toBeCloseTo(2 / (10 + semantic!.rank), 12);
      expect(bm25!.contribution).toBeCloseTo(3 / (10 + bm25!.rank), 12);
      expect(both.score).toBeCloseTo(semantic!.contribution + bm25!.contribution, 12);
      expect(explain.fusion).toEqual({ method: 'rrf', k: 10, weights: { semantic: 2, bm25: 3 } });
      expect(results.map((r) => r.score)).toEqual([...results.map((r) => r.score)].sort((a, b) => b - a));
    });

    it('semantic_rerank widens the pool and blends in a keyword score', async () => {
      const { results, explain } = await rag.scope().inRepository(repoId).semanticRerank('create invoice').limit(5).execute();
      expect(results).toHaveLength(5);
      expect(results[0].scoreBreakdown.fusion).toBe('blend');
      expect(results[0].scoreBreakdown.keyword!.score).toBeGreaterThan(0);
      expect(explain.lists[0].params.k).toBe(50);
    });

    it('searches every repository without filters through the vector index', async () => {
      const { results, explain } = await rag.scope().semanticSearchBySource('compute the tax due on an amount').limit(3).execute();
      expect(explain.vectorStrategy.name).toBe('unfiltered-index');
      expect(results).toHaveLength(3);
    });
  });

  describe('both lists in one round trip', () => {
    it('returns what the semantic and keyword files return alone, for every joinable semantic list', async () => {
      const repository = new SearchRepository(neo4j);
      const vector = await embedder.embedQuery('compute the tax of an invoice');
      const query = fieldBoostedQuery('invoice tax');
      const all = { repoIds: [repoId], kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null };
      const methods = { ...all, kinds: ['method'] };
      for (const [list, filters, k] of [
        ['vectorExact', all, 7],
        ['vectorIndex', all, 9],
        ['vectorIndexFiltered', methods, 5],
      ] as const) {
        // vectorIndex searches every repository, and BM25 scores move with the whole index: both are
        // compared while no spec beside this one writes.
        const both = await expectEqualWhileStill(
          async () => {
            const { semantic, bm25 } = await repository.bothLists({ list, vector, k, limit: k }, { query, k: 4 }, filters);
            return { semantic, bm25 };
          },
          async () => ({
            semantic:
              list === 'vectorExact'
                ? { pool: null, hits: await repository.vectorExact(vector, filters, k) }
                : list === 'vectorIndex'
                  ? { pool: null, hits: await repository.vectorIndex(vector, k) }
                  : await repository.vectorIndexFiltered(vector, filters, k, k),
            bm25: await repository.fullText(query, filters, 4),
          }),
        );
        expect(both.semantic.hits.length).toBeGreaterThan(0);
        expect(both.bm25).toHaveLength(4);
      }
    });
  });

  describe('fetching the hits', () => {
    it('reads the second stage and the page in one fetch, with the fields and cuts of a fetch of its own', async () => {
      const repository = new SearchRepository(neo4j);
      const fetches: (number | null)[] = [];
      const counting = Object.assign(Object.create(repository) as SearchRepository, {
        scopesById: (ids: string[], chars: number | null, options?: { links?: boolean }) => {
          fetches.push(chars);
          return repository.scopesById(ids, chars, options);
        },
      });
      const counted = new SearchService(counting, embedder);
      for (const sourceChars of [null, 0, 40, 2_000, 5_000]) {
        fetches.length = 0;
        const { results, explain } = await counted.execute({ ...defaultPlan('hybrid', 'create an invoice'), filters: { repository: repoId }, sourceChars });
        expect(explain.rescore).toBeDefined();
        expect(results.length).toBe(10);
        expect(fetches).toHaveLength(1);
        const own = await repository.scopesById(results.map((r) => r.scope.id), sourceChars);
        expect(results.map((r) => r.scope)).toEqual(results.map((r) => own.get(r.scope.id)));
      }
    });

    it('reads, when asked, which of the requested scopes each one has a code edge with, either way', async () => {
      const [edge] = await neo4j.runStatement<{ from: string; to: string }>(
        'MATCH (a:Scope {repoId: $repoId})-[:CALLS]->(b:Scope {repoId: $repoId}) WHERE a <> b RETURN a.id AS from, b.id AS to LIMIT 1',
        { repoId },
      );
      expect(edge).toBeDefined();
      const [unrelated] = await neo4j.runStatement<{ id: string }>(
        'MATCH (c:Scope {repoId: $repoId}) WHERE NOT (c)-[:CALLS|REFERENCES|EXTENDS|IMPLEMENTS|OVERRIDES]-(:Scope {id: $from}) AND NOT (c)-[:CALLS|REFERENCES|EXTENDS|IMPLEMENTS|OVERRIDES]-(:Scope {id: $to}) AND c.id <> $from AND c.id <> $to RETURN c.id AS id LIMIT 1',
        { repoId, from: edge.from, to: edge.to },
      );
      const repository = new SearchRepository(neo4j);
      const ids = [edge.from, edge.to, unrelated.id];
      const linked = await repository.scopesById(ids, 0, { links: true });
      expect(linked.get(edge.from)!.linked).toContain(edge.to);
      expect(linked.get(edge.to)!.linked).toContain(edge.from);
      expect(linked.get(unrelated.id)!.linked).not.toContain(edge.from);
      expect(linked.get(unrelated.id)!.linked).not.toContain(edge.to);
      // Only neighbours among the requested ids, and nothing when not asked.
      expect([...linked.values()].every((s) => s.linked!.every((id) => ids.includes(id)))).toBe(true);
      expect([...(await repository.scopesById(ids, 0)).values()].every((s) => s.linked === undefined)).toBe(true);
      // A hybrid hit shows what its links added, and no `linked` list.
      const { results } = await service.execute({ ...defaultPlan('hybrid', 'create an invoice'), filters: { repository: repoId } });
      expect(results.map((r) => [typeof r.scoreBreakdown.rescore?.link, 'linked' in r.scope])).toEqual(results.map(() => ['number', false]));
    });

    it("cuts a longer fetched source as Cypher's left() does (code points, not UTF-16 units)", async () => {
      const [scope] = (await new SearchRepository(neo4j).scopesById([(await rag.scope().inRepository(repoId).fullText('invoice').limit(1).execute()).results[0].scope.id], null)).values();
      for (const source of ['a\u{1F600}bc\u00e9\u0301d', '\u{1F600}\u{1F600}\u{1F600}', 'plain', '']) {
        for (const chars of [0, 1, 2, 3, 5, 100]) {
          const [cypher] = await neo4j.runStatement<{ cut: string; length: number }>('RETURN left($source, $chars) AS cut, size($source) AS length', { source, chars: cypherInt(chars) });
          const full = { ...scope, source, sourceLength: cypher.length, sourceTruncated: false };
          expect(withSourceChars(full, chars)).toEqual({ ...full, source: cypher.cut, sourceTruncated: cypher.cut.length < cypher.length });
        }
      }
    });
  });

  describe('filters', () => {
    it('restrict both lists of a hybrid query', async () => {
      const { results, explain } = await rag
        .scope()
        .inRepository(repoId)
        .whereLanguage('python')
        .semanticSearchBySource('invoice total with tax')
        .fullText('invoice total tax')
        .limit(20)
        .execute();
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.scope.language === 'python')).toBe(true);
      expect(results.some((r) => r.scoreBreakdown.semantic) && results.some((r) => r.scoreBreakdown.bm25)).toBe(true);
      for (const list of explain.lists) expect(list.params.languages).toEqual(['python']);
      expect(results[0].scoreBreakdown.filtersApplied).toEqual([`repository = "${repoId}"`, 'language in [python]']);
    });

    it('apply path contains, glob, kind and name', async () => {
      const q = () => rag.scope().inRepository(repoId).semanticSearchBySource('invoice').fullText('invoice').limit(50);
      const sql = await q().whereFile({ contains: 'sql/' }).execute();
      expect(sql.results.length).toBeGreaterThan(0);
      expect(sql.results.every((r) => r.scope.path.includes('sql/'))).toBe(true);
      const cs = await q().whereFile({ glob: 'cs/**/*.cs' }).execute();
      expect(new Set(cs.results.map((r) => r.scope.language))).toEqual(new Set(['csharp']));
      expect(cs.explain.filters).toEqual([`repository = "${repoId}"`, expect.stringMatching(/^path glob "cs\/\*\*\/\*\.cs" \(\d+ of \d+ files\)$/)]);
      const methods = await q().whereKind('method').execute();
      expect(methods.results.every((r) => r.scope.kind === 'method')).toBe(true);
      const named = await q().whereName('create').execute();
      // the TypeScript service and its Java twin in the polyglot fixture, nothing else named `create`
      expect(named.results.map((r) => `${r.scope.qualifiedName} ${r.scope.path}`).sort()).toEqual([
        'InvoiceService.create java/src/main/java/com/acme/billing/service/InvoiceService.java',
        'InvoiceService.create ts/src/services/invoice-service.ts',
      ]);
      const qualified = await q().whereName('MyApp.Services.InvoiceService.CreateInvoice').execute();
      expect(qualified.results).toHaveLength(1);
    });

    it('return topK hits when they exist, whichever vector strategy runs', async () => {
      const [{ n: tsScopes }] = await neo4j.runStatement<{ n: number }>(
        "MATCH (s:Scope {repoId: $repoId}) WHERE s.path CONTAINS 'ts/' AND s.embedding IS NOT NULL RETURN count(s) AS n",
        { repoId },
      );
      expect(tsScopes).toBeGreaterThanOrEqual(15);
      // Forced over-fetch: SEARCH ... WHERE filters the repository inside the index, path after.
      const semantic = await rag.scope().inRepository(repoId).whereFile({ contains: 'ts/' }).semanticSearchBySource('SQL stored procedure for customers').filterStrategy('overfetch').limit(15).execute();
      expect(semantic.explain.vectorStrategy.name).toBe('overfetch-postfilter');
      expect(semantic.results).toHaveLength(15);
      expect(semantic.results.every((r) => r.scope.path.includes('ts/'))).toBe(true);
      expect(semantic.explain.lists[0].attempts!.length).toBeGreaterThanOrEqual(1);
      // The same query pre-filtered exactly returns the same scopes.
      const exact = await rag.scope().inRepository(repoId).whereFile({ contains: 'ts/' }).semanticSearchBySource('SQL stored procedure for customers').filterStrategy('exact').limit(15).execute();
      expect(names(exact.results).sort()).toEqual(names(semantic.results).sort());

      const hybrid = await rag
        .scope()
        .inRepository(repoId)
        .whereFile({ contains: 'ts/' })
        .semanticSearchBySource('SQL stored procedure for customers')
        .fullText('procedure customer')
        .filterStrategy('overfetch')
        .limit(10)
        .execute();
      expect(hybrid.results).toHaveLength(10);
      expect(hybrid.results.every((r) => r.scope.path.includes('ts/'))).toBe(true);

      // Index-only filters (repository + kind) run inside the vector index.
      const methods = await rag.scope().inRepository(repoId).whereKind('method').semanticSearchBySource('tax').filterStrategy('overfetch').limit(12).execute();
      expect(methods.explain.vectorStrategy.name).toBe('index-filter');
      expect(methods.results).toHaveLength(12);
      expect(methods.results.every((r) => r.scope.kind === 'method' && r.scope.repoId === repoId)).toBe(true);
    });

    it('refuses an unknown repository and a malformed glob', async () => {
      await expect(rag.scope().inRepository(`${repoId}-missing`).fullText('x').execute()).rejects.toMatchObject({ field: 'repository' });
      await expect(rag.scope().whereFile({ glob: 'src/{a' }).fullText('x').execute()).rejects.toMatchObject({ field: 'pathGlob' });
    });
  });

  describe('graph', () => {
    it('expands a hit to its callers, with the path that reached them', async () => {
      const { results, explain } = await rag
        .scope()
        .inRepository(repoId)
        .whereName('InvoiceService.create')
        .fullText('create')
        .expand({ depth: 1, edges: ['CALLS'], direction: 'in' })
        .execute();
      expect(explain.expand?.pattern).toBe('(seed)((:Scope)<-[:CALLS]-(:Scope)){1,1}(n)');
      const [hit] = results;
      expect(hit.scope.qualifiedName).toBe('InvoiceService.create');
      expect(hit.neighbors!.map((n) => n.scope.qualifiedName)).toEqual(['main']);
      // The hop says how its edge was made: `service.create()` on a `new`-initialised local, pinned by name.
      expect(hit.neighbors![0].path).toEqual({ nodeIds: [hit.scope.id, hit.neighbors![0].scope.id], edgeTypes: ['CALLS'], directions: ['in'], provenances: ['name'] });
    });

    it('walks deeper paths and keeps each path consistent', async () => {
      const [proc] = (await rag.scope().inRepository(repoId).whereName('dbo.usp_CreateInvoice').fullText('usp_CreateInvoice').execute()).results;
      const around = await service.neighborhood(proc.scope.id, { depth: 2, edges: ['CALLS', 'REFERENCES'], direction: 'in' });
      expect(around!.neighbors.map((n) => n.scope.qualifiedName)).toContain('MyApp.Data.SqlInvoiceRepository.Create');
      for (const n of around!.neighbors) {
        expect(n.path.nodeIds[0]).toBe(proc.scope.id);
        expect(n.path.nodeIds[n.path.nodeIds.length - 1]).toBe(n.scope.id);
        expect(n.path.edgeTypes).toHaveLength(n.depth);
        expect(n.path.directions).toEqual(Array(n.depth).fill('in'));
        expect(n.path.provenances).toHaveLength(n.depth);
        for (const p of n.path.provenances!) expect(['compiler', 'scip', 'name', 'heuristic']).toContain(p);
      }
      expect(await service.neighborhood(`${repoId}:no-such-scope`)).toBeNull();
    });

    it('can rank up hits connected to other hits (graph signal)', async () => {
      const { results, explain } = await rag.scope().inRepository(repoId).fullText('invoice').graphSignal({ weight: 1, edges: ['CALLS', 'REFERENCES'] }).limit(20).execute();
      expect(explain.graphSignal?.cypher).toBe('search/hit-connections');
      const connected = results.filter((r) => r.scoreBreakdown.graph);
      expect(connected.length).toBeGreaterThan(0);
      expect(connected.every((r) => r.scoreBreakdown.graph!.connections > 0)).toBe(true);
    });
  });

  describe('code-safe query text', () => {
    it('never lets Lucene syntax in user text fail or change a query', async () => {
      const before = await sentinel();
      for (const text of [...LUCENE_STRINGS, ...INJECTION_STRINGS]) {
        const { results } = await rag.scope().inRepository(repoId).fullText(text).limit(3).execute();
        expect(Array.isArray(results)).toBe(true);
      }
      // "AND" is a word, not an operator: "invoice AND zzzz" still finds invoices.
      const and = await rag.scope().inRepository(repoId).fullText('invoice AND zzzznothing').limit(3).execute();
      expect(and.results.length).toBe(3);
      // "-x" is a word, not a prohibition.
      const not = await rag.scope().inRepository(repoId).fullText('-invoice').limit(3).execute();
      expect(not.results.length).toBe(3);
      // A field prefix is text, not a field: "name:invoice" is not narrowed to the name property.
      const field = await rag.scope().inRepository(repoId).fullText('name:invoice').limit(20).execute();
      expect(field.results.some((r) => !/invoice/i.test(r.scope.name))).toBe(true);
      expect(await sentinel()).toEqual(before);
    });
  });

  describe('code-safe query text, sampled', () => {
    // The unit spec checks 2,000 such strings against a Lucene lexer of the project's own; this seeded
    // sample goes through Neo4j's real full-text query parser, where an escaping slip is an error.
    const SAMPLE = 200;
    it(`never fails a full-text query for ${SAMPLE} seeded random strings of Lucene syntax, words and phrases`, async () => {
      let seed = 2027;
      const next = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      const alphabet = [...'+-&|!(){}[]^"~*?:\\/ \t\n\u3000aAzZ09_.,;<>=$`\'#@%“”', 'AND', 'OR', 'NOT', 'TO', 'é', '中', ' invoice ', ' create the tax ', 'x y z'];
      const failures: string[] = [];
      let reachedIndex = 0;
      for (let n = 0; n < SAMPLE; n++) {
        const length = 1 + Math.floor(next() * 40);
        let text = '';
        for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
        try {
          const { explain } = await rag.scope().inRepository(repoId).fullText(text).limit(1).execute();
          if (explain.lists.some((l) => l.luceneQuery)) reachedIndex++;
        } catch (error) {
          failures.push(`${JSON.stringify(text)}: ${(error as Error).message.slice(0, 200)}`);
        }
      }
      expect({ failed: failures.length, first: failures.slice(0, 3) }).toEqual({ failed: 0, first: [] });
      // Most of the sample has a searchable word, so it reached the index rather than stopping early.
      expect(reachedIndex).toBeGreaterThan(SAMPLE / 2);
    });
  });

  describe('GraphQL API', () => {
    let api: RunningApp;
    let url: string;
    const SEARCH = `query($input: SearchInput!) { search(input: $input) {
      strategy
      results { rank score scope { id qualifiedName kind language path source sourceTruncated }
        scoreBreakdown { fusion filtersApplied semantic { score rank contribution } bm25 { score rank contribution } }
        neighbors { depth scope { qualifiedName } path { nodeIds edgeTypes directions } } }
      timings { embed semantic bm25 fuse expand total }
      explain warnings } }`;

    beforeAll(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}/graphql`;
      api = await startApp('api', { API_PORT: String(port), QUEUE_PREFIX: runId('searchapi') }, API_READY);
    });

    afterAll(async () => {
      await api?.stop();
    });

    it('searches over HTTP with filters, breakdown, timings and expansion', async () => {
      const { status, body } = await gql(url, SEARCH, {
        input: { text: 'create an invoice', repository: repoId, language: 'typescript', topK: 3, sourceChars: 20, expand: { depth: 1, edges: ['CALLS'], direction: 'IN' } },
      });
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const search = body.data.search;
      expect(search.results[0].scope.qualifiedName).toBe('InvoiceService.create');
      expect(search.results[0].scope.source).toHaveLength(20);
      expect(search.results[0].scope.sourceTruncated).toBe(true);
      expect(search.results[0].scoreBreakdown.fusion).toBe('rrf');
      expect(search.results[0].neighbors.map((n: { scope: { qualifiedName: string } }) => n.scope.qualifiedName)).toEqual(['main']);
      expect(search.results[0].neighbors[0].path.directions).toEqual(['IN']);
      expect(search.timings.total).toBeGreaterThan(0);
      expect(search.warnings).toEqual([]);
      expect(search.explain.lists.map((l: { cypher: string }) => l.cypher)).toEqual(['search/vector-exact', 'search/fulltext']);
      expect(JSON.stringify(search.explain)).not.toMatch(/\[-?\d+\.\d+,/); // no vector in the plan
      // The API embeds only queries, batched, on one model thread.
      expect(api.output()).toMatch(/Loaded all-MiniLM-L6-v2-onnx-int8 \(384 dims, max 256 tokens, 1 threads\)/);
    });

    it('answers concurrent searches (their query embeddings batched) with the results of an unbatched search', async () => {
      const texts = ['create an invoice', 'compute the tax due on an amount', 'stored procedure for customers', 'main entry point', 'parse the configuration'];
      const overHttp = () =>
        Promise.all(
          texts.map((text) =>
            gql(url, SEARCH, { input: { text, repository: repoId, topK: 5 } }).then((r) => r.body.data.search.results.map((h: { scope: { id: string }; score: number }) => [h.scope.id, h.score])),
          ),
        );
      // This process's own service embeds each query alone.
      const alone = async () => {
        const lists = [];
        for (const text of texts) {
          const { results } = await service.execute({ ...defaultPlan('hybrid', text), filters: { repository: repoId }, limit: 5 });
          lists.push(results.map((h) => [h.scope.id, h.score]));
        }
        return lists;
      };
      await expectEqualWhileStill(overHttp, alone);
    });

    it('serves scope and neighborhood', async () => {
      const found = await gql(url, SEARCH, { input: { text: 'usp_CreateInvoice', repository: repoId, mode: 'BM25', topK: 1 } });
      const id = found.body.data.search.results[0].scope.id;
      const { body } = await gql(
        url,
        `query($id: ID!) { scope(id: $id) { qualifiedName kind language }
          neighborhood(id: $id, depth: 1, edges: [REFERENCES], direction: IN) { pattern root { qualifiedName } neighbors { scope { qualifiedName } path { edgeTypes } } } }`,
        { id },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.scope).toEqual({ qualifiedName: 'dbo.usp_CreateInvoice', kind: 'procedure', language: 'sql' });
      expect(body.data.neighborhood.neighbors).toEqual([{ scope: { qualifiedName: 'MyApp.Data.SqlInvoiceRepository.Create' }, path: { edgeTypes: ['REFERENCES'] } }]);
      const missing = await gql(url, 'query($id: ID!) { scope(id: $id) { id } neighborhood(id: $id) { pattern } }', { id: "' }) MATCH (n) DETACH DELETE n //" });
      expect(missing.body).toEqual({ data: { scope: null, neighborhood: null } });
    });

    it.each([
      ['empty text', { text: '  ' }, /text must not be empty/, 'text'],
      ['text over 1000 characters', { text: 'x'.repeat(1001) }, /text must be at most 1000 characters/, 'text'],
      ['topK over 200', { text: 'x', topK: 201 }, /topK must not be greater than 200/, 'topK'],
      ['a negative weight', { text: 'x', weights: { bm25: -1 } }, /weights.bm25 must not be less than 0/, 'weights.bm25'],
      ['a malformed glob', { text: 'x', pathGlob: 'src/[ab' }, /unclosed "\[" at position 5/, 'pathGlob'],
      ['an unknown language', { text: 'x', language: 'cobol' }, /language must be one of/, 'language'],
      ['an unknown repository', { text: 'x', repository: 'no-such-repository-here' }, /unknown repository/, 'repository'],
      ['depth over 3', { text: 'x', expand: { depth: 4 } }, /depth must not be greater than 3/, 'expand.depth'],
    ])('answers BAD_USER_INPUT for %s, naming the field', async (_label, input, message, field) => {
      const { body } = await gql(url, SEARCH, { input });
      expect(body.data).toBeFalsy();
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(body.errors![0].message).toMatch(message);
      expect(body.errors![0].extensions?.field).toBe(field);
    });

    it('rejects an unknown mode or edge type through the enums', async () => {
      for (const input of [{ text: 'x', mode: 'DIRECT' }, { text: 'x', expand: { edges: ['CALLS]->(x) DETACH DELETE x //'] } }]) {
        const { body } = await gql(url, SEARCH, { input });
        expect(body.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(body.errors![0].message).toMatch(/does not exist in "(SearchMode|EdgeType)" enum/);
      }
    });

    it('keeps Cypher- and Lucene-injection strings inert in every string field', async () => {
      const before = await sentinel();
      const failures = await collectInjectionFailures(url, repoId);
      expect(failures).toEqual([]);
      expect(await sentinel()).toEqual(before);
    });
  });
});
