import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { cypherInt } from '@scopegraph/graph';
import { HashEmbeddingProvider } from '@scopegraph/llm';
import { type CypherFilters, defaultPlan, fieldBoostedQuery, LANGUAGES, SCOPE_KINDS, SearchRepository, SearchService } from '@scopegraph/search';
import { IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';
import { expectEqualWhileStill } from '../support/settled';

jest.setTimeout(300_000);
Logger.overrideLogger(['error', 'warn']);

// The keyword list's Lucene top k (search/fulltext-limited): when the Lucene query holds every filter,
// Lucene is asked for k hits only instead of collecting every match (the cost at a million scopes);
// the exact filters still apply, and the unlimited list answers when they drop any.
describe('keyword list as Lucene top k (real Neo4j)', () => {
  const repoId = runId('ftlimit');
  const h = new IngestHarness();
  let repo: SearchRepository;
  let all: CypherFilters;
  const query = fieldBoostedQuery('ledger');

  beforeAll(async () => {
    await h.init();
    h.embedder = new HashEmbeddingProvider(h.config.embedding.dimensions);
    ({ ingest: h.ingest } = await h.serviceWith({}));
    const root = h.emptyDir();
    // Twelve functions whose doc comments say "ledger" 1..12 times (distinct BM25 scores, so the
    // order has no ties), and one class that says it once.
    const fns = Array.from({ length: 12 }, (_, i) => `def post_${i + 1}(x):\n    """${Array(i + 1).fill('ledger').join(' ')} entry."""\n    return x\n`).join('\n\n');
    fs.mkdirSync(path.join(root, 'books'), { recursive: true });
    fs.writeFileSync(path.join(root, 'books/posting.py'), fns);
    fs.writeFileSync(path.join(root, 'books/book.py'), 'class Book:\n    """A ledger."""\n    pass\n');
    await h.ingest.index({ path: root, name: repoId });
    repo = new SearchRepository(h.neo4j);
    all = { repoIds: [repoId], kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null };
    const unlimited = await repo.fullText(query, all, 50);
    expect(unlimited.length).toBeGreaterThanOrEqual(13);
  });

  afterAll(() => h.dispose([repoId]));

  it('asks Lucene for k hits only and returns the unlimited list’s top k', async () => {
    const k = 5;
    // What Lucene returned: k rows, although 13 scopes match.
    const [row] = await h.neo4j.read<{ pool: number; hits: unknown[] }>('search/fulltext-limited', { query: `+(repoId:"${repoId}")^0 +(${query})`, ...all, bm25K: cypherInt(k), luceneK: cypherInt(k) });
    expect(Number(row.pool)).toBe(k);
    const limited = await expectEqualWhileStill(() => repo.fullText(query, all, k, { luceneK: k }), async () => (await repo.fullText(query, all, 50)).slice(0, k));
    expect(limited.map((hit) => hit.id)).toEqual([12, 11, 10, 9, 8].map((i) => expect.stringContaining(`#post_${i}|function`)));
  });

  it('falls back to the unlimited list when the exact filters drop some of Lucene’s top k', async () => {
    const classes = { ...all, kinds: ['class'] };
    const limited = await expectEqualWhileStill(() => repo.fullText(query, classes, 5, { luceneK: 5 }), () => repo.fullText(query, classes, 5));
    expect(limited.map((hit) => hit.id)).toEqual([expect.stringContaining('#Book|class')]);
  });

  it('without the repository clause: the exact filters cut what Lucene returned, and the full list answers when they cut too many', async () => {
    const top5 = async () => (await repo.fullText(query, all, 50)).slice(0, 5);
    await expectEqualWhileStill(() => repo.fullText(query, all, 5, { luceneK: 100_000, withoutRepositoryClause: true }), top5);
    const classes = { ...all, kinds: ['class'] };
    await expectEqualWhileStill(() => repo.fullText(query, classes, 5, { luceneK: 5, withoutRepositoryClause: true }), () => repo.fullText(query, classes, 5));
    const vector = await h.embedder.embedQuery('ledger');
    await expectEqualWhileStill(async () => (await repo.bothLists({ list: 'vectorIndexFiltered', vector, k: 5, limit: 5 }, { query, k: 5, luceneK: 100_000, withoutRepositoryClause: true }, all)).bm25, top5);
  });

  it('joined with the semantic list: the same keyword hits, fallback included', async () => {
    const vector = await h.embedder.embedQuery('ledger');
    for (const filters of [all, { ...all, kinds: ['class'] }]) {
      const bm25 = await expectEqualWhileStill(async () => (await repo.bothLists({ list: 'vectorIndexFiltered', vector, k: 5, limit: 5 }, { query, k: 5, luceneK: 5 }, filters)).bm25, () => repo.fullText(query, filters, 5));
      expect(bm25.length).toBeGreaterThan(0);
    }
  });

  it('is what hybrid and BM25 run when only repositories filter, and not with a kind filter', async () => {
    const service = new SearchService(repo, h.embedder);
    for (const mode of ['hybrid', 'bm25'] as const) {
      const { results, explain } = await service.execute({ ...defaultPlan(mode, 'ledger'), filters: { repository: repoId } });
      const bm25 = explain.lists.find((l) => l.list === 'bm25')!;
      expect([bm25.cypher, bm25.strategy]).toEqual(['search/fulltext-limited', 'lucene-top-k']);
      expect(results.length).toBeGreaterThan(0);
      const kinds = await service.execute({ ...defaultPlan(mode, 'ledger'), filters: { repository: repoId, kinds: ['class'] } });
      expect(kinds.explain.lists.find((l) => l.list === 'bm25')!.cypher).toBe('search/fulltext');
      expect(kinds.results.map((r) => r.scope.qualifiedName)).toEqual(['Book']);
    }
  });
});
