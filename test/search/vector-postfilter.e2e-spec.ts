import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { CypherFiles } from '@scopegraph/graph';
import { HashEmbeddingProvider } from '@scopegraph/llm';
import { type CypherFilters, LANGUAGES, SCOPE_KINDS, SEARCH_CYPHER, SearchRepository } from '@scopegraph/search';
import type { ProfiledPlan } from 'neo4j-driver';
import { IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

jest.setTimeout(300_000);
Logger.overrideLogger(['error', 'warn']);

// index-postfilter's Cypher (search/vector-index-postfiltered) against the real vector index: what
// the unfiltered index returns, cut to the filters exactly, alone and joined with the keyword list;
// and vector-coverage's count of the other repositories' vectors that decides the strategy.
describe('semantic list from the unfiltered vector index, post-filtered (real Neo4j)', () => {
  const repoId = runId('postfilter');
  const h = new IngestHarness();
  let repo: SearchRepository;
  let filters: CypherFilters;

  beforeAll(async () => {
    await h.init();
    // A fast deterministic embedder: the test is about the Cypher, not the model.
    h.embedder = new HashEmbeddingProvider(h.config.embedding.dimensions);
    ({ ingest: h.ingest } = await h.serviceWith({}));
    const root = h.emptyDir();
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    write('billing/invoice.py', 'def parse_invoice(text):\n    """Parse an invoice."""\n    return text.split()\n\n\ndef total_invoice(lines):\n    return sum(lines)\n');
    write('billing/tax.py', 'def compute_tax(amount):\n    """Tax of an amount."""\n    return amount * 0.2\n');
    const r = await h.ingest.index({ path: root, name: repoId });
    expect(r.embedded).toBeGreaterThanOrEqual(3);
    repo = new SearchRepository(h.neo4j);
    filters = { repoIds: [repoId], kinds: [...SCOPE_KINDS], languages: [...LANGUAGES], paths: null, pathContains: null, name: null };
  });

  afterAll(() => h.dispose([repoId]));

  it('keeps only the filtered repository of what the unfiltered index returned, best first, and agrees with filtering inside the index', async () => {
    const vector = await h.embedder.embedQuery('parse invoice');
    const k = 500;
    const post = await repo.vectorIndexPostfiltered(vector, filters, k, 3);
    expect(post.pool).toBeGreaterThanOrEqual(post.hits.length);
    expect(post.pool).toBeLessThanOrEqual(k);
    expect(post.hits.length).toBeGreaterThan(0);
    expect(post.hits.length).toBeLessThanOrEqual(3);
    expect(post.hits.every((hit) => hit.id.startsWith(`${repoId}:`))).toBe(true);
    expect(post.hits.map((hit) => hit.score)).toEqual([...post.hits.map((hit) => hit.score)].sort((a, b) => b - a));
    const inIndex = await repo.vectorIndexFiltered(vector, filters, 3, 3);
    expect(post.hits[0].id).toBe(inIndex.hits[0].id);
    // A kind filter applies after the index too.
    const classes = await repo.vectorIndexPostfiltered(vector, { ...filters, kinds: ['class'] }, k, 3);
    expect(classes.hits).toEqual([]);
    // Joined with the keyword list in one statement: the same semantic hits.
    const both = await repo.bothLists({ list: 'vectorIndexPostfiltered', vector, k, limit: 3 }, { query: 'invoice', k: 5 }, filters);
    expect(both.semantic).toEqual(post);
    expect(both.bm25.length).toBeGreaterThan(0);
  });

  it('counts the vectors of the repositories not searched', async () => {
    const mine = await repo.vectorCoverage([repoId]);
    const all = await repo.vectorCoverage(null);
    expect(mine.embedded).toBeGreaterThanOrEqual(3);
    expect(all.elsewhere).toBe(0);
    expect(all.elsewhereIndexing).toBe(0);
    // What is elsewhere for this repository is the rest of the finished repositories' vectors.
    if (all.indexing === 0) expect(mine.elsewhere).toBe(all.embedded - mine.embedded);
    else expect(mine.elsewhere).toBeLessThanOrEqual(all.embedded);
  });

  it('reads no scope of a finished repository (its counts are on its node)', async () => {
    const mine = await repo.vectorCoverage([repoId]);
    expect(mine.indexing).toBe(0);
    // Every hybrid search reads this once per CATALOG_TTL_MS: at a million scopes, a seek over the
    // repository's scopes was a tail of its own. The plan's only scope read is that seek.
    const session = h.neo4j.session('READ');
    try {
      const result = await session.run(`PROFILE ${new CypherFiles().get(SEARCH_CYPHER.vectorCoverage)}`, { repoIds: [repoId] });
      const seeks: ProfiledPlan[] = [];
      const walk = (p: ProfiledPlan): void => {
        if (/IndexSeek|LabelScan|AllNodesScan/.test(p.operatorType) && /Scope/.test(String(p.arguments.Details ?? ''))) seeks.push(p);
        p.children.forEach(walk);
      };
      walk(result.summary.profile as ProfiledPlan);
      expect(seeks.length).toBeGreaterThan(0);
      expect(seeks.map((p) => p.rows)).toEqual(seeks.map(() => 0));
      expect(Number(result.records[0].get('scopes'))).toBe(mine.scopes);
    } finally {
      await session.close();
    }
  });
});
