import { Logger } from '@nestjs/common';
import { inspect } from 'node:util';
import { FakeGemini } from '../../../../test/fakes/fake-gemini';
import { EmbeddingError } from './embedding-provider';
import { GeminiEmbeddingProvider, GeminiEmbeddingProviderOptions } from './gemini-embedding.provider';
import { cosineSimilarity, l2Normalize } from './vector-math';

const API_KEY = 'test-key-do-not-log';
const DIMS = 64;
const MODEL = 'gemini-embedding-001';
/** Tiny backoff so retry tests stay fast; the policy itself is tested through the call counts. */
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5 };
const SAME_VECTOR = 1 - 1e-9;

describe('GeminiEmbeddingProvider against the fake Gemini server', () => {
  let fake: FakeGemini;
  const make = (over: Partial<GeminiEmbeddingProviderOptions> = {}) =>
    new GeminiEmbeddingProvider({ apiKey: API_KEY, baseUrl: fake.baseUrl, model: MODEL, dimensions: DIMS, maxAttempts: 3, ...FAST_RETRY, ...over });

  beforeAll(async () => {
    Logger.overrideLogger(false); // retry warnings are expected here; keep the output readable
    fake = await FakeGemini.start({ apiKey: API_KEY });
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('returns one normalised vector per text, in order, batching at most batchSize per request', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `chunk ${i}\nline two`);
    const vectors = await make({ batchSize: 3 }).embedDocuments(texts);

    expect(vectors).toHaveLength(texts.length);
    vectors.forEach((v, i) => expect(cosineSimilarity(v, l2Normalize(fake.vectorFor(texts[i], DIMS)))).toBeGreaterThan(SAME_VECTOR));
    expect(fake.calls('batchEmbedContents')).toBe(3);
    const first = fake.requests[0];
    expect(first.path).toBe(`/v1beta/models/${MODEL}:batchEmbedContents`);
    expect(first.headers['x-goog-api-key']).toBe(API_KEY);
    const body = first.body as { requests: Array<{ model: string; taskType: string; outputDimensionality: number; content: { parts: Array<{ text: string }> } }> };
    expect(body.requests).toHaveLength(3);
    expect(body.requests[0]).toMatchObject({ model: `models/${MODEL}`, taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: DIMS });
    expect(body.requests[0].content.parts[0].text).toBe('chunk 0\nline two'); // newlines kept for code
  });

  it('embeds a query with the query task type', async () => {
    const v = await make().embedQuery('where is the parser');
    expect(v).toHaveLength(DIMS);
    expect(fake.requests[0].action).toBe('embedContent');
    expect(fake.requests[0].body).toMatchObject({ taskType: 'RETRIEVAL_QUERY', outputDimensionality: DIMS });
  });

  it('retries a batch after a 429 and then succeeds', async () => {
    fake.failNext(1, 429, { action: 'batchEmbedContents' });
    const vectors = await make().embedDocuments(['a', 'b']);
    expect(vectors).toHaveLength(2);
    expect(vectors.every((v) => v.length === DIMS)).toBe(true);
    expect(fake.calls('batchEmbedContents')).toBe(2);
    expect(fake.requests[0].status).toBe(429);
  });

  it('retries a query after 429/503 and then succeeds', async () => {
    fake.failNext(1, 429).failNext(1, 503);
    expect(await make().embedQuery('q')).toHaveLength(DIMS);
    expect(fake.calls('embedContent')).toBe(3);
  });

  it('fails with a clear error after maxAttempts of persistent 500s', async () => {
    fake.failNext(100, 500);
    const err = await make({ maxAttempts: 3 }).embedDocuments(['a', 'b']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as Error).message).toMatch(/Gemini embeddings \(model gemini-embedding-001\).*failed after 3 attempts.*HTTP 500/);
    expect(fake.calls('batchEmbedContents')).toBe(3);
  });

  it('detects the empty-vector trap instead of returning [] vectors', async () => {
    fake.corruptNext(100, 'empty');
    const err = await make({ maxAttempts: 2 }).embedDocuments(['a', 'b']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as Error).message).toMatch(/gemini-embedding-001.*2 of 2 vectors came back empty/);
  });

  it('fails at once, without retries, on a wrong API key, and never prints the key', async () => {
    const provider = new GeminiEmbeddingProvider({ apiKey: 'wrong-key-123', baseUrl: fake.baseUrl, model: MODEL, dimensions: DIMS, ...FAST_RETRY });
    const err = (await provider.embedDocuments(['a']).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/HTTP 400.*API key not valid/);
    expect(fake.calls('batchEmbedContents')).toBe(1); // the probe explained the failure; no blind retries
    expect(err.message).not.toContain('wrong-key-123');
    expect(inspect(provider, { depth: 10 })).not.toContain('wrong-key-123');
  });

  it('reports a dimension mismatch as a configuration error without retrying', async () => {
    fake.corruptNext(100, 'wrongDimensions');
    await expect(make().embedDocuments(['a'])).rejects.toThrow(/returned 63-dimensional vectors but 64 were requested/);
    expect(fake.calls('batchEmbedContents')).toBe(1);
  });

  it('retries malformed responses (null values, missing field, invalid JSON)', async () => {
    fake.corruptNext(1, 'nonFinite').corruptNext(1, 'missing').corruptNext(1, 'invalidJson');
    const vectors = await make({ maxAttempts: 4 }).embedDocuments(['a']);
    expect(vectors[0]).toHaveLength(DIMS);
  });

  it('rejects impossible settings up front', () => {
    expect(() => make({ batchSize: 101 })).toThrow(/batchSize/);
    expect(() => make({ dimensions: 4096 })).toThrow(/1\.\.3072/);
    expect(() => make({ apiKey: '' })).toThrow(/GEMINI_API_KEY/);
  });
});
