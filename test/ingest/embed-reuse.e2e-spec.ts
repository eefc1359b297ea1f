import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppConfig } from '@scopegraph/config';
import { embeddingHash, EmbeddingCache, IngestService, ParseCache, ReferenceResolver } from '@scopegraph/ingest';
import { createEmbeddingProvider, EmbeddingProvider } from '@scopegraph/llm';
import { FakeOpenAiEmbeddings, OpenAiEmbeddingsRequest } from '../fakes/fake-model-apis';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { runId } from '../support/processes';

jest.setTimeout(180_000);

/** A vector that depends on the model, the requested size and the text: equal vectors mean the same text went through the same model. */
function fakeVector(model: string, dimensions: number, text: string): number[] {
  const out: number[] = [];
  for (let block = 0; out.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${model}\u0000${block}\u0000${text}`).digest();
    for (let i = 0; i < digest.length && out.length < dimensions; i++) out.push(digest[i] / 255 - 0.5);
  }
  return out;
}

/**
 * Content-addressed embedding reuse (EMBED_REUSE): the real ingestion stack on the real Neo4j and
 * Redis, embedding through the OpenAI-compatible provider against the fake server, whose requests
 * say exactly which texts reached "the model".
 */
describe('embedding reuse by (model, dimensions, text) across repositories (real Neo4j + Redis, fake OpenAI-compatible server)', () => {
  const h = new IngestHarness(runId('reuse'));
  const ids = { a: runId('reua'), b: runId('reub'), changed: runId('reuc'), model: runId('reum'), dims: runId('reud'), off: runId('reuo') };
  let fake: FakeOpenAiEmbeddings;
  let dimensions: number;

  function provider(model: string, dims = dimensions): EmbeddingProvider {
    return createEmbeddingProvider({ provider: 'openai', model, dimensions: dims, batchSize: 64, openai: { baseUrl: `${fake.baseUrl}/v1`, sendDimensions: true } });
  }

  function service(embedder: EmbeddingProvider, reuse: boolean): IngestService {
    const config: AppConfig = { ...h.config, embedding: { ...h.config.embedding, reuse } };
    return new IngestService(h.repo, h.parser, new ParseCache(h.queues), new ReferenceResolver(config), new EmbeddingCache(h.queues), embedder, config);
  }

  /** Texts the fake was asked to embed since the last reset. */
  function sentTexts(): string[] {
    return fake.requests.flatMap((r) => (r.body as OpenAiEmbeddingsRequest).input);
  }

  async function vectorsOf(repoId: string): Promise<Map<string, { embedding: number[]; hash: string | null }>> {
    const rows = await h.neo4j.runStatement<{ id: string; embedding: number[] | null; hash: string | null }>(
      'MATCH (s:Scope {repoId: $repoId}) RETURN s.localId AS id, s.embedding AS embedding, s.embeddingHash AS hash',
      { repoId },
    );
    return new Map(rows.filter((r) => r.embedding).map((r) => [r.id, { embedding: r.embedding!, hash: r.hash }]));
  }

  function expectSameVectors(a: Map<string, { embedding: number[] }>, b: Map<string, { embedding: number[] }>, ids: Iterable<string>): void {
    for (const id of ids) {
      const [v, w] = [a.get(id)!.embedding, b.get(id)!.embedding];
      expect(w.length).toBe(v.length);
      for (let d = 0; d < v.length; d++) expect(Math.abs(w[d] - v[d])).toBeLessThan(1e-6);
    }
  }

  beforeAll(async () => {
    fake = await FakeOpenAiEmbeddings.start();
    dimensions = h.config.embedding.dimensions;
    fake.reply((req) => ({ data: req.input.map((text, index) => ({ index, embedding: fakeVector(req.model, req.dimensions ?? dimensions, text) })) }));
    await h.init(provider('fake-embed-a'));
  });

  afterAll(async () => {
    await h.dispose(Object.values(ids));
    await fake.close();
  });

  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('a copy under a second repository id sends no embedding request and gets the same vectors', async () => {
    const first = await service(h.embedder, true).index({ path: FIXTURE, name: ids.a });
    const sentFirst = sentTexts();
    // Identical texts of one round (a few in the fixture) go to the model once.
    expect(first.embedding).toMatchObject({ reuse: 'on', computed: first.scopes.total - first.embedding!.duplicates, reused: 0, graphReused: 0 });
    expect(first.embedding!.duplicates).toBeLessThan(10);
    expect(sentFirst.length).toBe(first.embedding!.computed);
    // Every vector is stored with its (model, dimensions, text) hash.
    const a = await vectorsOf(ids.a);
    expect([...a.values()].every((v) => /^[0-9a-f]{64}$/.test(v.hash ?? ''))).toBe(true);
    expect(new Set(sentFirst.map((t) => embeddingHash('fake-embed-a', dimensions, t)))).toEqual(new Set([...a.values()].map((v) => v.hash)));

    fake.requests.length = 0;
    const copy = await service(h.embedder, true).index({ path: h.copyOf(FIXTURE), name: ids.b });
    expect(fake.calls()).toBe(0);
    expect(copy.embeddedThisRun).toBe(copy.scopes.total);
    expect(copy.embedding).toMatchObject({ computed: 0, graphReused: copy.scopes.total, cacheHits: 0, reused: copy.scopes.total, duplicates: 0 });
    const b = await vectorsOf(ids.b);
    expect(b.size).toBe(a.size);
    expectSameVectors(a, b, a.keys());
  });

  it('a changed function is embedded; the rest is copied', async () => {
    const dir = h.copyOf(FIXTURE);
    const file = path.join(dir, 'py/billing/tax.py');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('return _round(amount * VAT_RATE)', 'return _round(amount * VAT_RATE * 2)  # reuse-test'));
    const result = await service(h.embedder, true).index({ path: dir, name: ids.changed });
    const sent = sentTexts();
    // The function, and the file/module scopes whose source holds it: nothing else.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(3);
    expect(sent.every((t) => t.includes('reuse-test'))).toBe(true);
    expect(sent.some((t) => t.startsWith('function compute_tax') || t.includes('compute_tax ('))).toBe(true);
    expect(result.embedding).toMatchObject({ computed: sent.length, reused: result.scopes.total - sent.length });
    const [a, c] = [await vectorsOf(ids.a), await vectorsOf(ids.changed)];
    const changedIds = [...c.keys()].filter((id) => c.get(id)!.hash !== a.get(id)?.hash);
    expect(changedIds.length).toBe(sent.length);
    expectSameVectors(a, c, [...c.keys()].filter((id) => !changedIds.includes(id)));
    const fn = changedIds.find((id) => id.includes('compute_tax') && !id.includes('_round'))!;
    expect(fn).toBeDefined();
    // The changed function's vector is the model's answer for its new text (normalised by the client).
    const text = sent.find((t) => embeddingHash('fake-embed-a', dimensions, t) === c.get(fn)!.hash)!;
    const raw = fakeVector('fake-embed-a', dimensions, text);
    const norm = Math.hypot(...raw);
    c.get(fn)!.embedding.forEach((x, d) => expect(Math.abs(x - raw[d] / norm)).toBeLessThan(1e-5));
  });

  it('another model or another dimension never reuses', async () => {
    const otherModel = await service(provider('fake-embed-b'), true).index({ path: h.copyOf(FIXTURE), name: ids.model });
    expect(otherModel.embedding).toMatchObject({ model: 'fake-embed-b', computed: otherModel.scopes.total - otherModel.embedding!.duplicates, reused: 0 });
    expect(sentTexts().length).toBe(otherModel.embedding!.computed);
    expect(fake.requests.every((r) => (r.body as OpenAiEmbeddingsRequest).model === 'fake-embed-b')).toBe(true);

    fake.requests.length = 0;
    const half = Math.floor(dimensions / 2);
    const otherDims = await service(provider('fake-embed-a', half), true).index({ path: h.copyOf(FIXTURE), name: ids.dims });
    expect(otherDims.embeddingError).toBeUndefined();
    expect(otherDims.embedding).toMatchObject({ model: 'fake-embed-a', dimensions: half, computed: otherDims.scopes.total - otherDims.embedding!.duplicates, reused: 0, graphReused: 0, cacheHits: 0 });
    expect(sentTexts().length).toBe(otherDims.embedding!.computed);
    expect([...(await vectorsOf(ids.dims)).values()].every((v) => v.embedding.length === half)).toBe(true);
  });

  it('EMBED_REUSE=off computes every vector again (equal ones, from the model)', async () => {
    const off = await service(h.embedder, false).index({ path: h.copyOf(FIXTURE), name: ids.off });
    expect(off.embedding).toMatchObject({ reuse: 'off', computed: off.scopes.total - off.embedding!.duplicates, reused: 0, graphReused: 0, cacheHits: 0 });
    expect(sentTexts().length).toBe(off.embedding!.computed);
    const [a, o] = [await vectorsOf(ids.a), await vectorsOf(ids.off)];
    expectSameVectors(a, o, a.keys());
    // Hashes are still stored, so turning reuse on later finds these vectors.
    for (const [id, v] of o) expect(v.hash).toBe(a.get(id)!.hash);
  });
});
