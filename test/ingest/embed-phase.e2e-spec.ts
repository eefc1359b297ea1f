import { EmbedPhase, EmbeddingCache, IngestService, ParseCache, ReferenceResolver } from '@scopegraph/ingest';
import { EmbeddingError, EmbeddingProvider, HashEmbeddingProvider } from '@scopegraph/llm';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

/**
 * The real hash embedder behind a recorder: counts what reaches the model, can pose as another
 * model, and can fail from a given call on (a provider outage mid-phase).
 */
class RecordingEmbedder implements EmbeddingProvider {
  readonly name = 'hash' as const;
  readonly dimensions: number;
  texts: string[] = [];
  calls = 0;
  failFromCall = Infinity;
  private readonly inner: HashEmbeddingProvider;

  constructor(
    dimensions: number,
    readonly model = 'feature-hash-v1',
  ) {
    this.dimensions = dimensions;
    this.inner = new HashEmbeddingProvider(dimensions);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (++this.calls >= this.failFromCall) throw new EmbeddingError('provider down (test)');
    this.texts.push(...texts);
    return this.inner.embedDocuments(texts);
  }

  embedQuery(text: string): Promise<number[]> {
    return this.inner.embedQuery(text);
  }
}

describe('embedding phase: cache by (model, text), resume from the graph, model switch (real Neo4j + Redis)', () => {
  const h = new IngestHarness(runId('emb'));
  const repoA = runId('emba');
  const repoB = runId('embb');
  const repoC = runId('embc');
  let embedder: RecordingEmbedder;

  beforeAll(async () => {
    embedder = new RecordingEmbedder(h.config.embedding.dimensions);
    await h.init(embedder);
  });

  afterAll(() => h.dispose([repoA, repoB, repoC]));

  async function vectorsOf(repoId: string): Promise<Map<string, { embedding: number[]; model: string }>> {
    const rows = await h.neo4j.runStatement<{ id: string; embedding: number[] | null; model: string | null }>(
      'MATCH (s:Scope {repoId: $repoId}) RETURN s.localId AS id, s.embedding AS embedding, s.embeddingModel AS model',
      { repoId },
    );
    return new Map(rows.filter((r) => r.embedding).map((r) => [r.id, { embedding: r.embedding!, model: r.model! }]));
  }

  it('embeds every distinct text once, and a copy of the repository entirely from the cache', async () => {
    const first = await h.ingest.index({ path: FIXTURE, name: repoA });
    expect(first.embedded).toBe(first.scopes.total);
    expect(first.embedding).toMatchObject({ cacheHits: 0, graphReused: 0, modelSwitched: 0, computed: first.scopes.total - first.embedding!.duplicates, reused: 0 });
    expect(new Set(embedder.texts).size).toBe(embedder.texts.length);
    expect(embedder.texts.length).toBeGreaterThan(50);

    embedder.texts = [];
    const copy = await h.ingest.index({ path: h.copyOf(FIXTURE), name: repoB });
    expect(copy.embeddedThisRun).toBe(copy.scopes.total);
    // Copied from repoA's scopes in the graph (same model, dimensions and text), not the model.
    expect(copy.embedding).toMatchObject({ graphReused: copy.scopes.total, cacheHits: 0, computed: 0, reused: copy.scopes.total });
    expect(embedder.texts).toEqual([]);
    // The cached vectors are the model's vectors, float32-exact.
    const [a, b] = [await vectorsOf(repoA), await vectorsOf(repoB)];
    expect(b.size).toBe(a.size);
    for (const [id, v] of a) {
      const w = b.get(id)!.embedding;
      expect(w.length).toBe(v.embedding.length);
      for (let d = 0; d < w.length; d++) expect(Math.abs(w[d] - v.embedding[d])).toBeLessThan(1e-6);
    }
  });

  it('resumes after a provider failure without re-embedding what was written, paging through the graph', async () => {
    await h.ingest.index({ path: FIXTURE, name: repoC, embed: false });
    const total = (await h.repo.countScopesToEmbed(repoC, 'other-model')).pending;
    const other = new RecordingEmbedder(embedder.dimensions, 'other-model');
    other.failFromCall = 3;
    // Misses only: what the second run skips, it skips because the graph holds it.
    const noCache = new (class extends EmbeddingCache {
      override async getMany(hashes: string[]) {
        return hashes.map(() => undefined);
      }
    })(h.queues);
    const round = 16;
    const failed = await new EmbedPhase(h.repo, other, noCache, round).run(repoC, { onTotal: () => undefined, onEmbedded: () => undefined });
    expect(failed.error).toMatch(/provider down/);
    expect(failed.embedded).toBe(2 * round);
    expect((await vectorsOf(repoC)).size).toBe(2 * round);

    const firstTexts = new Set(other.texts);
    other.texts = [];
    other.failFromCall = Infinity;
    let reportedTotal = -1;
    const resumed = await new EmbedPhase(h.repo, other, noCache, round).run(repoC, { onTotal: (t) => void (reportedTotal = t), onEmbedded: () => undefined });
    expect(resumed.error).toBeUndefined();
    expect(reportedTotal).toBe(total - 2 * round);
    expect(resumed.embedded).toBe(total - 2 * round);
    expect(other.texts.filter((t) => firstTexts.has(t))).toEqual([]);
    const stored = await vectorsOf(repoC);
    expect(stored.size).toBe(total);
    expect([...stored.values()].every((v) => v.model === 'other-model')).toBe(true);
  });

  it('re-embeds every scope when the model changes, and says so in the result', async () => {
    const switched = new RecordingEmbedder(embedder.dimensions, 'feature-hash-v1-renamed');
    const ingest = new IngestService(h.repo, h.parser, new ParseCache(h.queues), new ReferenceResolver(h.config), new EmbeddingCache(h.queues), switched, h.config);
    const result = await ingest.index({ path: FIXTURE, name: repoA });
    expect(result.scopes.changed).toBe(0);
    expect(result.embedding).toMatchObject({ model: 'feature-hash-v1-renamed', modelSwitched: result.scopes.total, cacheHits: 0 });
    expect(result.embeddedThisRun).toBe(result.scopes.total);
    const models = new Set([...(await vectorsOf(repoA)).values()].map((v) => v.model));
    expect([...models]).toEqual(['feature-hash-v1-renamed']);
  });
});
