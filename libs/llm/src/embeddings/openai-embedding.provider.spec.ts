import { Logger } from '@nestjs/common';
import { FakeOpenAiEmbeddings, OpenAiEmbeddingsRequest } from '../../../../test/fakes/fake-model-apis';
import { EmbeddingConfigError, EmbeddingError } from './embedding-provider';
import { OpenAiEmbeddingProvider, OpenAiEmbeddingProviderOptions } from './openai-embedding.provider';
import { l2Normalize } from './vector-math';

const API_KEY = 'local-key-do-not-log';
const DIMS = 4;
const MODEL = 'bge-small';
/** Tiny backoff so retry tests stay fast; the policy itself is tested through the call counts. */
const FAST_RETRY = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
/** Only a safety net: a provider that never sends two requests at once fails the assertion instead of hanging. */
const GATE_FALLBACK_MS = 2_000;

/** A vector that says which text it was made for, so order mistakes show. */
const vectorOf = (text: string) => [text.length, Number(text.replace(/\D/g, '') || 0), 1, 0];

describe('OpenAiEmbeddingProvider against a fake /v1/embeddings server', () => {
  let fake: FakeOpenAiEmbeddings;
  const make = (over: Partial<OpenAiEmbeddingProviderOptions> = {}) =>
    new OpenAiEmbeddingProvider({ baseUrl: `${fake.baseUrl}/v1`, model: MODEL, dimensions: DIMS, apiKey: API_KEY, retry: FAST_RETRY, ...over });

  beforeAll(async () => {
    Logger.overrideLogger(false); // retry warnings are expected here; keep the output readable
    fake = await FakeOpenAiEmbeddings.start(API_KEY);
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('sends batches of batchSize, at most `concurrency` at once, and returns normalised vectors in input order', async () => {
    let arrived = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fallback = setTimeout(release, GATE_FALLBACK_MS);
    // The first two requests are held until both are in flight; answers list vectors last-first.
    fake.reply(async (req: OpenAiEmbeddingsRequest) => {
      if (++arrived === 2) release();
      if (arrived <= 2) await gate;
      return { data: req.input.map((text, index) => ({ index, embedding: vectorOf(text) })).reverse() };
    });
    const texts = Array.from({ length: 7 }, (_, i) => `text ${i}`);
    try {
      const vectors = await make({ batchSize: 2, concurrency: 2 }).embedDocuments(texts);
      expect(vectors).toEqual(texts.map((t) => l2Normalize(vectorOf(t))));
    } finally {
      clearTimeout(fallback);
    }
    expect(fake.calls()).toBe(4);
    expect(fake.maxInFlight()).toBe(2);
    expect(fake.requests.map((r) => r.body.input)).toEqual(expect.arrayContaining([['text 0', 'text 1'], ['text 2', 'text 3'], ['text 4', 'text 5'], ['text 6']]));
    expect(fake.requests[0].body).toMatchObject({ model: MODEL, encoding_format: 'float' });
    expect(fake.requests[0].body.dimensions).toBeUndefined();
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('embeds a query in one request, sending dimensions only when told to', async () => {
    // The fake's default vector is [text length, 1, 0, 0].
    expect(await make({ sendDimensions: true }).embedQuery('q 7')).toEqual(l2Normalize([3, 1, 0, 0]));
    expect(fake.requests[0].body).toMatchObject({ input: ['q 7'], dimensions: DIMS });
    expect(await make().embedDocuments([])).toEqual([]);
    expect(fake.calls()).toBe(1);
  });

  it('retries 429 and 5xx answers, then succeeds', async () => {
    fake.failNext(1, 429).failNext(1, 503);
    const vectors = await make().embedDocuments(['a', 'b']);
    expect(vectors).toHaveLength(2);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 503, 200]);
  });

  it('gives up after maxAttempts with an error that says how many attempts were made', async () => {
    fake.failNext(5, 503);
    await expect(make().embedQuery('x')).rejects.toThrow(/OpenAI-compatible embeddings \(model bge-small\) for 1 query: HTTP 503.* after 3 attempts$/);
    expect(fake.calls()).toBe(3);
  });

  it('fails at once on a 4xx, on a wrong vector size and on a bad key', async () => {
    fake.failNext(1, 400);
    const bad = await make().embedDocuments(['a']).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(EmbeddingError);
    expect((bad as Error).message).toMatch(/HTTP 400/);
    expect((bad as Error).message).not.toMatch(/after \d+ attempts/);
    expect(fake.calls()).toBe(1);

    fake.reset().reply((req) => ({ data: req.input.map((_, index) => ({ index, embedding: [1, 2, 3] })) }));
    await expect(make().embedDocuments(['a'])).rejects.toThrow(/3-dimensional vectors, but EMBEDDING_DIMENSIONS=4/);
    expect(fake.calls()).toBe(1);

    fake.reset();
    const wrongKey = await make({ apiKey: 'wrong-key-do-not-log' }).embedQuery('x').catch((e: unknown) => e);
    expect((wrongKey as Error).message).toMatch(/HTTP 401/);
    expect(fake.calls()).toBe(1);
  });

  it('fails at once on an answer with the wrong number of embeddings or repeated indexes (a 200 that retrying will not fix)', async () => {
    fake.reply(() => ({ data: [] }));
    await expect(make().embedDocuments(['a 1', 'b 2'])).rejects.toThrow(/for texts 0\.\.1: expected 2 embeddings, got 0$/);
    expect(fake.calls()).toBe(1);
    fake.reset().reply((req) => ({ data: req.input.map(() => ({ index: 0, embedding: vectorOf('x') })) }));
    await expect(make().embedDocuments(['a 1', 'b 2'])).rejects.toThrow(/bad or repeated index 0/);
    expect(fake.calls()).toBe(1);
  });

  it('refuses a configuration without base URL or model', () => {
    expect(() => new OpenAiEmbeddingProvider({ baseUrl: '', model: MODEL, dimensions: DIMS })).toThrow(EmbeddingConfigError);
    expect(() => new OpenAiEmbeddingProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: MODEL, dimensions: DIMS, concurrency: 0 })).toThrow(/concurrency/);
  });
});
