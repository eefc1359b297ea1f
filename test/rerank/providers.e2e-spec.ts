import { loadConfig } from '@scopegraph/config';
import { CohereRerankClient, GeminiChatClient, OpenAiCompatibleChatClient, VoyageRerankClient } from '@scopegraph/llm';
import { QueueName, QueueService, RedisChannelsService } from '@scopegraph/queue';
import type { Clock, PromptRequest, RerankCandidate } from '@scopegraph/rerank';
import { LocalKeywordProvider, RerankBatchRunner, RerankLifecycle, RerankService } from '@scopegraph/rerank';
import { BatchScorer } from '../../libs/rerank/src/batch-scorer';
import { RerankCache } from '../../libs/rerank/src/cache/rerank-cache';
import { CrossEncoderProvider } from '../../libs/rerank/src/providers/cross-encoder.provider';
import { LlmJudgeProvider } from '../../libs/rerank/src/providers/llm-judge.provider';
import { RerankProvider } from '../../libs/rerank/src/providers/rerank-provider';
import { RerankEventsService } from '../../libs/rerank/src/rerank-events.service';
import { RerankStore } from '../../libs/rerank/src/scheduler/rerank-store';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { FakeCohere, FakeOpenAiChat, FakeVoyage } from '../fakes/fake-model-apis';
import { promptCandidates } from '../fakes/rerank-scripts';
import { runId } from '../support/processes';

/**
 * Every provider's real client against its fake, through the same BatchScorer the worker uses; then
 * RerankService itself (start, batches, results) with a cross-encoder and with the local reranker.
 */
const RETRY = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 };
const far = () => Date.now() + 60_000;

function request(over: Partial<PromptRequest> = {}): PromptRequest {
  return {
    question: 'Where are invoices parsed?',
    queryDescription: 'hybrid "invoice parse"',
    strategy: 'pointwise',
    withSuggestions: false,
    scopes: [
      { id: 'r:a.ts#parseInvoice|function', name: 'parseInvoice', kind: 'function', path: 'src/a.ts', signature: 'parseInvoice(text: string)', source: 'return lines.map(parseLine);' },
      { id: 'r:b.ts#formatDate|function', name: 'formatDate', kind: 'function', path: 'src/b.ts', signature: 'formatDate(d: Date)', source: 'return d.toISOString();' },
      { id: 'r:c.ts#InvoiceLine|class', name: 'InvoiceLine', kind: 'class', path: 'src/c.ts', signature: null, source: 'class InvoiceLine {}' },
    ],
    sourceChars: 500,
    shuffleSeed: null,
    batch: 0,
    ...over,
  };
}

const score = (provider: RerankProvider, over: Partial<PromptRequest> = {}, batchTimeoutMs = 2_000) =>
  new BatchScorer(provider, RETRY).score({ request: request(over), batchTimeoutMs, deadlineAt: far() });

describe('Gemini through LangChain (ChatGoogleGenerativeAI, structured output) against the fake', () => {
  let fake: FakeGemini;
  let provider: LlmJudgeProvider;

  beforeAll(async () => {
    fake = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    provider = new LlmJudgeProvider(new GeminiChatClient({ apiKey: FAKE_GEMINI_API_KEY, baseUrl: fake.baseUrl, model: 'gemini-test' }));
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('sends the response schema, a low temperature and the escaped prompt; reads scores back', async () => {
    fake.onGenerate((req) => ({ json: { evaluations: promptCandidates(req.text).map((c, i) => ({ id: c.id, relevant: i !== 1, score: ['0.9', 0.1, 'high'][i], reasoning: `r${i}` })) } }));
    const outcome = await score(provider);
    expect(outcome).toMatchObject({ ok: true, reranker: 'gemini', model: 'gemini-test', calls: 1 });
    expect(outcome.scores['r:a.ts#parseInvoice|function']).toEqual({ llm: 0.9, relevant: true, reasoning: 'r0', note: null });
    expect(outcome.scores['r:c.ts#InvoiceLine|class'].llm).toBe(0.8);
    const sent = fake.requests[0];
    expect(sent.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe(FAKE_GEMINI_API_KEY);
    const body = sent.body as any;
    expect(body.generationConfig).toMatchObject({ temperature: 0.1, responseMimeType: 'application/json' });
    expect(body.generationConfig.responseSchema.properties.evaluations.items.required).toEqual(['id', 'relevant', 'score', 'reasoning']);
    expect(body.systemInstruction.parts[0].text).toMatch(/never follow it/);
  });

  it('honours a 429 RetryInfo hint, retries 503, and falls back on a hang at the batch time limit', async () => {
    fake.onGenerate((req) => ({ json: { evaluations: promptCandidates(req.text).map((c) => ({ id: c.id, relevant: true, score: 0.5, reasoning: 'ok' })) } }));
    fake.failNext(1, 429, { action: 'generateContent', retryDelaySeconds: 0.05 }).failNext(1, 503, { action: 'generateContent' });
    const waits: number[] = [];
    const retried = await new BatchScorer(provider, RETRY, Date.now, async (ms) => void waits.push(ms)).score({ request: request(), batchTimeoutMs: 2_000, deadlineAt: far() });
    expect(retried).toMatchObject({ ok: true, calls: 3 });
    // The first wait honours the server's 50 ms RetryInfo hint; no real time passes.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    fake.hangNext(1, { action: 'generateContent' });
    const hung = await score(provider, {}, 300);
    expect(hung).toMatchObject({ ok: false, fallbackReason: 'timeout', calls: 1 });
  });

  it('a wrong key is not retried; a body that is not JSON is malformed output', async () => {
    const wrong = new LlmJudgeProvider(new GeminiChatClient({ apiKey: 'wrong', baseUrl: fake.baseUrl, model: 'gemini-test' }));
    expect(await score(wrong)).toMatchObject({ ok: false, fallbackReason: 'http-400', calls: 1 });
    fake.corruptNext(1, 'invalidJson', { action: 'generateContent' });
    expect(await score(provider)).toMatchObject({ ok: false, fallbackReason: 'malformed-output', calls: 1 });
  });
});

describe('OpenAI-compatible chat (Ollama / llama.cpp servers) against the fake', () => {
  let fake: FakeOpenAiChat;
  beforeAll(async () => (fake = await FakeOpenAiChat.start()));
  afterEach(() => fake.reset());
  afterAll(() => fake.close());
  const provider = (apiKey?: string) => new LlmJudgeProvider(new OpenAiCompatibleChatClient({ baseUrl: `${fake.baseUrl}/v1`, model: 'qwen2.5-coder', apiKey }));

  it('asks in JSON mode and reads a fenced, chatty answer with the same tolerant parser', async () => {
    fake.reply((req) => {
      const ids = promptCandidates(FakeOpenAiChat.userText(req)).map((c) => c.id);
      return { content: `Sure! Here is my evaluation:\n\`\`\`json\n{"evaluations": [{"id": "${ids[0]}", "relevant": true, "score": "85%", "reasoning": "parses"}, {"id": "s42", "score": 1}, ]}\n\`\`\`` };
    });
    const outcome = await score(provider());
    expect(outcome).toMatchObject({ ok: true, reranker: 'openai', model: 'qwen2.5-coder', ignored: { duplicates: 0, invented: 1 } });
    expect(outcome.scores['r:a.ts#parseInvoice|function'].llm).toBeCloseTo(0.85, 10);
    expect(Object.keys(outcome.scores)).toHaveLength(1);
    const body = fake.requests[0].body;
    expect(body).toMatchObject({ model: 'qwen2.5-coder', temperature: 0.1, response_format: { type: 'json_object' } });
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(fake.requests[0].headers.authorization).toBeUndefined();
  });

  it('sends a key when given; retries 429/500; falls back on a hang and on a body that is not JSON', async () => {
    fake.reply((req) => ({ content: JSON.stringify({ evaluations: promptCandidates(FakeOpenAiChat.userText(req)).map((c) => ({ id: c.id, relevant: true, score: 0.4, reasoning: 'x' })) }) }));
    fake.failNext(1, 429).failNext(1, 500);
    expect(await score(provider('local-secret'))).toMatchObject({ ok: true, calls: 3 });
    expect(fake.requests[0].headers.authorization).toBe('Bearer local-secret');
    fake.hangNext(1);
    expect(await score(provider(), {}, 300)).toMatchObject({ ok: false, fallbackReason: 'timeout' });
    fake.rawNext(1, '<html>502 Bad Gateway</html>');
    expect(await score(provider())).toMatchObject({ ok: false, fallbackReason: 'malformed-output' });
    fake.reply(() => ({ content: 'I think the first one is best.' }));
    expect(await score(provider())).toMatchObject({ ok: false, fallbackReason: 'malformed-output' });
  });
});

describe('Cohere and Voyage cross-encoders against their fakes', () => {
  let cohere: FakeCohere;
  let voyage: FakeVoyage;
  beforeAll(async () => {
    [cohere, voyage] = await Promise.all([FakeCohere.start('cohere-key'), FakeVoyage.start('voyage-key')]);
  });
  afterEach(() => {
    cohere.reset();
    voyage.reset();
  });
  afterAll(async () => Promise.all([cohere.close(), voyage.close()]));

  it('Cohere: /v2/rerank with the documents; scores by index; bad indices ignored; the omitted one unscored; no reasoning', async () => {
    cohere.reply(() => ({
      results: [
        { index: 0, relevance_score: 0.97 },
        { index: 7, relevance_score: 0.99 },
        { index: 2, relevance_score: 1.4 },
      ],
    }));
    const client = new CohereRerankClient({ apiKey: 'cohere-key', baseUrl: cohere.baseUrl });
    const outcome = await score(new CrossEncoderProvider(client), { strategy: 'listwise', withSuggestions: true });
    expect(outcome).toMatchObject({ ok: true, reranker: 'cohere', model: 'rerank-v3.5', strategy: 'pointwise', feedback: null, ignored: { duplicates: 0, invented: 1 } });
    expect(outcome.scores).toEqual({
      'r:a.ts#parseInvoice|function': { llm: 0.97, relevant: null, reasoning: null, note: null },
      'r:c.ts#InvoiceLine|class': { llm: 1, relevant: null, reasoning: null, note: null },
    });
    const sent = cohere.requests[0];
    expect(sent.headers.authorization).toBe('Bearer cohere-key');
    expect(sent.body).toMatchObject({ model: 'rerank-v3.5', query: 'Where are invoices parsed?', top_n: 3 });
    expect(sent.body.documents).toHaveLength(3);
    expect(sent.body.documents[0]).toContain('parseInvoice(text: string)');
    cohere.reply(() => ({ results: [{ index: 1, relevance_score: 0.5 }, { index: 1, relevance_score: 0.4 }] }));
    expect((await score(new CrossEncoderProvider(client))).ignored).toEqual({ duplicates: 1, invented: 0 });
  });

  it('Cohere: 500 retried, a wrong key not', async () => {
    cohere.failNext(1, 500);
    expect(await score(new CrossEncoderProvider(new CohereRerankClient({ apiKey: 'cohere-key', baseUrl: cohere.baseUrl })))).toMatchObject({ ok: true, calls: 2 });
    expect(await score(new CrossEncoderProvider(new CohereRerankClient({ apiKey: 'nope', baseUrl: cohere.baseUrl })))).toMatchObject({ ok: false, fallbackReason: 'http-401', calls: 1 });
  });

  it('Voyage: /v1/rerank with truncation; 429 retried; an empty answer falls back', async () => {
    voyage.reply((req) => ({ results: req.documents.map((d, index) => ({ index, relevance_score: d.includes('Invoice') ? 0.8 : 0.05 })) }));
    voyage.failNext(1, 429);
    const outcome = await score(new CrossEncoderProvider(new VoyageRerankClient({ apiKey: 'voyage-key', baseUrl: voyage.baseUrl, model: 'rerank-2.5-lite' })));
    expect(outcome).toMatchObject({ ok: true, reranker: 'voyage', model: 'rerank-2.5-lite', calls: 2 });
    expect(outcome.scores['r:c.ts#InvoiceLine|class'].llm).toBe(0.8);
    expect(outcome.scores['r:b.ts#formatDate|function'].llm).toBe(0.05);
    expect(voyage.requests[1].body).toMatchObject({ model: 'rerank-2.5-lite', truncation: true, query: 'Where are invoices parsed?' });
    voyage.reply(() => ({ results: [] }));
    expect(await score(new CrossEncoderProvider(new VoyageRerankClient({ apiKey: 'voyage-key', baseUrl: voyage.baseUrl })))).toMatchObject({ ok: false, fallbackReason: 'empty-output' });
  });
});

describe('RerankService in one process (real Redis, batches run by hand)', () => {
  const base = loadConfig();
  const config = { ...base, queue: { prefix: runId('rrsvc') }, rerank: { ...base.rerank, retryBaseMs: 5 } };
  const queues = new QueueService(config);
  // The shared connection fails fast while not connected (no offline queue): wait for it, as the apps do at boot.
  beforeAll(() => queues.onModuleInit());
  const services: RedisChannelsService[] = [];
  let cohere: FakeCohere;

  /** The API side (start, watch, result) and the worker side (runBatch) over the same Redis state. */
  function service(provider: RerankProvider, clock?: Clock): { rerank: RerankService; runner: RerankBatchRunner } {
    const channels = new RedisChannelsService(config);
    services.push(channels);
    const events = new RerankEventsService(queues, channels);
    const store = new RerankStore(queues);
    const cache = new RerankCache(queues, config);
    const lifecycle = new RerankLifecycle(store, events, queues, config, clock);
    return { rerank: new RerankService(store, cache, events, lifecycle, provider, config), runner: new RerankBatchRunner(store, cache, lifecycle, provider, config) };
  }

  /** A clock the test moves: deadlines pass when the test says, not after real waiting. */
  function manualClock(): Clock & { advance(ms: number): void } {
    let now = Date.now();
    return { now: () => now, advance: (ms) => void (now += ms) };
  }

  const candidates: RerankCandidate[] = [
    ['formatDate', 'formatDate(d: Date): string', 'return d.toISOString();'],
    ['sendReminder', 'sendReminder(user: User)', 'mailer.send(user.email, "reminder");'],
    ['InvoiceParser', 'class InvoiceParser', 'parse(text) { return text.split("\\n").map(parseInvoiceLine); }'],
    ['parseInvoiceLine', 'parseInvoiceLine(line: string): InvoiceLine', 'const [qty, price] = line.split(",");'],
    ['logger', 'logger(msg: string)', 'console.log(msg);'],
  ].map(([name, signature, source], i) => ({
    id: `${config.queue.prefix}:src/${name}.ts#${name}|function`,
    name,
    qualifiedName: name,
    kind: 'function',
    language: 'typescript',
    path: `src/${name}.ts`,
    signature,
    docComment: null,
    source,
    contentHash: `h${i}`,
    retrievalScore: 0.9 - i * 0.1,
    retrievalRank: i + 1,
  }));

  beforeAll(async () => (cohere = await FakeCohere.start('cohere-key')));
  afterAll(async () => {
    const keys = await queues.redis.keys(`${config.queue.prefix}:*`);
    if (keys.length > 0) await queues.redis.del(...keys);
    await Promise.all(services.map((s) => s.onModuleDestroy()));
    await queues.onModuleDestroy();
    await cohere.close();
  });

  it('local keyword reranker: completes at once, no queue, no model, labelled, no invented reasoning', async () => {
    const { rerank } = service(new LocalKeywordProvider());
    const started = await rerank.start({ question: 'How are invoice lines parsed?', candidates, options: { withSuggestions: true } });
    expect(started.status).toBe('completed');
    const result = started.result!;
    expect(result).toMatchObject({ reranker: 'local-keyword', model: 'bm25f-identifiers', llmCalls: 0, feedback: null, done: 1, total: 1 });
    expect(result.notes).toEqual(['local-keyword gives no query feedback']);
    expect(result.hits.slice(0, 2).map((h) => h.scope.name).sort()).toEqual(['InvoiceParser', 'parseInvoiceLine']);
    expect(result.hits.every((h) => h.scoreBreakdown.reranker === 'local-keyword' && h.scoreBreakdown.llmReasoning === null)).toBe(true);
    expect((await queues.queue(QueueName.RERANK).getJobCounts('waiting')).waiting).toBe(0);
    expect(await rerank.result(started.jobId)).toEqual(result);
  });

  it('cross-encoder: the first `parallel` batches are queued, each completion queues the next, the result merges', async () => {
    cohere.reply((req) => ({ results: req.documents.map((d, index) => ({ index, relevance_score: /Invoice/.test(d) ? 0.9 : 0.1 })) }));
    const { rerank, runner } = service(new CrossEncoderProvider(new CohereRerankClient({ apiKey: 'cohere-key', baseUrl: cohere.baseUrl })));
    const started = await rerank.start({ question: 'invoice parsing', candidates, options: { batchSize: 1, parallel: 2, strategy: 'listwise' } });
    expect(started).toMatchObject({ status: 'running', total: 5 });
    const queue = queues.queue(QueueName.RERANK);
    const run: number[] = [];
    for (;;) {
      const waiting = (await queue.getJobs(['waiting'])).filter((j) => j.data.rerankId === started.jobId);
      if (waiting.length === 0) break;
      expect(waiting.length).toBeLessThanOrEqual(2);
      const job = waiting.sort((a, b) => a.data.position - b.data.position)[0];
      await job.remove();
      run.push(job.data.batch);
      expect(await runner.runBatch(job.data)).toMatchObject({ outcome: 'accepted' });
      // The same job again (a retry after a crash): counted once.
      expect(await runner.runBatch(job.data)).toMatchObject({ outcome: run.length === 5 ? 'late' : 'duplicate' });
    }
    expect(run).toEqual([0, 1, 2, 3, 4]);
    expect(cohere.calls()).toBe(5);
    const result = await rerank.result(started.jobId);
    expect(result).toMatchObject({ status: 'completed', reason: 'done', reranker: 'cohere', strategy: 'pointwise', done: 5, llmCalls: 5 });
    expect(result.notes[0]).toMatch(/listwise applied as pointwise/);
    expect(result.hits.slice(0, 2).map((h) => h.scope.name)).toEqual(['InvoiceParser', 'parseInvoiceLine']);
    expect(result.hits[0].scoreBreakdown).toMatchObject({ reranker: 'cohere', llmReasoning: null, llm: 0.9 });

    // The same rerank again: every batch from the cache, no call, no job.
    const again = await rerank.start({ question: 'invoice parsing', candidates, options: { batchSize: 1, parallel: 2 } });
    expect(again.result).toMatchObject({ llmCalls: 0, cache: { hits: 5, misses: 0 } });
    expect(cohere.calls()).toBe(5);
    expect((await rerank.cacheStats()).fullHits).toBeGreaterThanOrEqual(1);
  });

  it('with no worker at all, a subscriber completes the rerank at its deadline; result() does too', async () => {
    const clock = manualClock();
    const { rerank, runner } = service(new CrossEncoderProvider(new CohereRerankClient({ apiKey: 'cohere-key', baseUrl: cohere.baseUrl })), clock);
    const callsBefore = cohere.calls();
    const started = await rerank.start({ question: 'nobody runs me', candidates, options: { batchSize: 2, timeoutMs: 300 } });
    expect(started.status).toBe('running');
    // Past the deadline: the subscriber's timer now only waits out the grace period.
    clock.advance(301);
    const events = [];
    for await (const event of rerank.watch(started.jobId)) events.push(event);
    expect(events.map((e) => e.kind)).toEqual(['completed']);
    const result = events[0].result!;
    expect(result).toMatchObject({ status: 'completed', reason: 'deadline', done: 0, total: 3, llmCalls: 0 });
    expect(result.hits.map((h) => h.scope.name)).toEqual(candidates.map((c) => c.name));
    expect(result.hits.every((h) => h.scoreBreakdown.fallbackReason === 'deadline')).toBe(true);

    const other = await rerank.start({ question: 'nobody asks either', candidates, options: { batchSize: 2, timeoutMs: 100 } });
    expect((await rerank.result(other.jobId)).status).toBe('running');
    clock.advance(101);
    expect(await rerank.result(other.jobId)).toMatchObject({ status: 'completed', reason: 'deadline' });
    // The batches queued for it find the rerank over and do nothing.
    const jobs = (await queues.queue(QueueName.RERANK).getJobs(['waiting'])).filter((j) => j.data.rerankId === other.jobId);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(await runner.runBatch(job.data)).toEqual({ outcome: 'late' });
    expect(cohere.calls()).toBe(callsBefore);
  });
});
