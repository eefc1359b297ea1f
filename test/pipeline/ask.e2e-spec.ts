import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { countTokens } from '@scopegraph/pipeline';
import { askModel, evidenceIds, openAiReply } from '../fakes/ask-scripts';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { FakeOpenAiChat } from '../fakes/fake-model-apis';
import { collect, gql, wsClient } from '../support/graphql-client';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { API_READY, freePort, ROOT, runId, RunningApp, RunningStack, startApp, startStack } from '../support/processes';

const ASK = `mutation($input: AskInput!) { ask(input: $input) { id } }`;
const PROGRESS = `subscription($id: ID!) { askProgress(id: $id) {
  seq kind text message
  step { stepId action outcome ms modelMs modelCalls modelAttempts detail }
  result { answer answerEn question questionEn inventedCitations loops retries missing modelAvailable model warnings
    evidenceSummarized evidenceTokens evidence history attempts
    citations { id path startLine endLine qualifiedName }
    plan { mode query fallback }
    timings { totalMs modelMs overheadMs firstChunkMs }
    trace { stepId action outcome ms modelMs modelCalls modelAttempts inputTokens outputTokens detail } }
} }`;

interface Asked {
  events: any[];
  final: any;
  chunks: string;
}

async function ask(url: string, input: Record<string, unknown>): Promise<Asked> {
  const { body } = await gql(url, ASK, { input });
  expect(body.errors).toBeUndefined();
  const client = wsClient(url);
  try {
    const events = (await collect(client, PROGRESS, { id: body.data.ask.id }, 60_000)).map((e) => {
      expect(e.errors).toBeUndefined();
      return e.data!.askProgress;
    });
    const last = events[events.length - 1];
    expect(last.kind).toBe('FINAL');
    return { events, final: last.result, chunks: events.filter((e) => e.kind === 'CHUNK').map((e) => e.text).join('') };
  } finally {
    await client.dispose();
  }
}

/** Per model call, retries included: short, so the hang test ends quickly. */
const MODEL_TIMEOUT_MS = 2_500;

const stepsOf = (final: any, action: string) => final.trace.filter((t: any) => t.action === action);

/** Answers citing the first evidence id it was shown (so a test knows the citation is genuine). */
const citeFirst = (req: any) => {
  const ids = evidenceIds(req);
  return `[Answer:] It is handled there${ids[0] ? ` [cite:${ids[0]}]` : ''}.`;
};

describe('ask (answering pipeline, scripted fake Gemini)', () => {
  const h = new IngestHarness();
  const repo = runId('ask');
  const sessions: string[] = [];
  let gemini: FakeGemini;
  let stack: RunningStack;
  const input = (question: string, extra: Record<string, unknown> = {}) => ({ question, repository: repo, ...extra });

  beforeAll(async () => {
    await h.init();
    await h.ingest.index({ path: FIXTURE, name: repo });
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    stack = await startStack('ask', {
      GEMINI_API_KEY: FAKE_GEMINI_API_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
      CHAT_PROVIDER: 'gemini',
      RERANK_PROVIDER: 'local',
      RERANK_RETRY_BASE_MS: '5',
      ASK_MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS),
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await gemini?.close();
    if (sessions.length > 0) await h.neo4j.runStatement('MATCH (c:Conversation) WHERE c.id IN $ids OPTIONAL MATCH (c)-[:HAS_TURN|HAS_SUMMARY]->(x) DETACH DELETE c, x', { ids: sessions });
    await h.dispose([repo]);
  });

  beforeEach(() => gemini.reset());

  const cli = (...args: string[]) => promisify(execFile)(process.execPath, [path.join(ROOT, 'bin/scopegraph'), ...args], { env: { ...process.env, SCOPEGRAPH_URL: stack.url }, cwd: ROOT });

  it.each([
    ['SEMANTIC', 'semantic', 'create an invoice from a row'],
    ['SEMANTIC_RERANK', 'semantic_rerank', 'invoice creation'],
    ['BM25', 'bm25', 'InvoiceService create'],
    ['HYBRID', 'hybrid', 'where are invoices stored'],
  ])('routes [%s:] to the %s search and answers from its evidence, streaming the answer', async (prefix, mode, query) => {
    const model = askModel({ router: `[${prefix}:] ${query}`, answer: citeFirst });
    gemini.onGenerate(model);
    const { final, events, chunks } = await ask(stack.url, input('How is an invoice created?'));
    expect(final.plan).toEqual({ mode, query, fallback: null });
    expect(final.evidence.length).toBeGreaterThan(0);
    expect(final.citations).toHaveLength(1);
    expect(final.evidence.map((e: any) => e.id)).toContain(final.citations[0].id);
    // The citation points where the cited evidence is, and that is where the graph has the scope.
    const cited = final.evidence.find((e: any) => e.id === final.citations[0].id);
    expect(final.citations[0]).toEqual({ id: cited.id, path: cited.path, startLine: cited.startLine, endLine: cited.endLine, qualifiedName: cited.qualifiedName });
    const [scope] = await h.neo4j.runStatement<{ path: string; startLine: number; endLine: number }>(
      'MATCH (s:Scope {id: $id, repoId: $repo}) RETURN s.path AS path, s.startLine AS startLine, s.endLine AS endLine',
      { id: cited.id, repo },
    );
    expect(final.citations[0]).toMatchObject({ path: scope.path, startLine: scope.startLine, endLine: scope.endLine });
    expect(final.citations[0].startLine).toBeLessThanOrEqual(final.citations[0].endLine);
    // The stream carried the answer without its protocol prefix; a STEP event came for every traced step.
    expect(chunks.trim()).toBe(final.answerEn.trim());
    expect(final.answer).not.toContain('[Answer:]');
    expect(events.filter((e) => e.kind === 'STEP').map((e) => e.step.stepId)).toEqual(final.trace.map((t: any) => t.stepId));
    // Retrieval, graph expansion right after it, then targeted text fetch by id.
    expect(final.trace.map((t: any) => t.stepId)).toEqual(expect.arrayContaining(['retrieve', 'expand', 'node_texts']));
    expect(stepsOf(final, 'fetch_node_texts')[0].detail.fetched).toBeGreaterThan(0);
    // Expansion bounded by the pipeline's settings (base: depth 1, at most 30 nodes, the edge allow-list).
    expect(stepsOf(final, 'expand_dependency_tree')[0].detail).toMatchObject({ depth: 1, maxNodes: 30 });
    const neighbours = final.evidence.filter((e: any) => e.origin === 'neighbor');
    expect(neighbours.length).toBeGreaterThan(0);
    expect(neighbours.length).toBeLessThanOrEqual(30);
    for (const n of neighbours) expect(n.via).toMatch(/^(?:<-(?:CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|HAS_MEMBER)-|-(?:CALLS|EXTENDS|IMPLEMENTS|REFERENCES|IMPORTS|HAS_MEMBER)->) \S+$/);
    expect(model.calls.map((c) => c.kind)).toEqual(['router', 'answer']);
    expect(gemini.calls('streamGenerateContent')).toBe(2);
  });

  // GRAPH goes to the search's GRAPH mode (relationship questions, hierarchies, overrides); the
  // router's short form "members of X" that mode does not know is walked from the exact name.
  it.each([
    ['who calls formatMoney', 'formatMoney', 'InvoiceService.create', /^callers of formatMoney: -CALLS-> /],
    ['which classes extend BaseEntity', 'BaseEntity', 'Invoice', /^subtypes of BaseEntity: -EXTENDS-> /],
    ['what implements IInvoiceRepository', 'MyApp.Data.IInvoiceRepository', 'MyApp.Data.SqlInvoiceRepository', /^implementers of MyApp.Data.IInvoiceRepository: -IMPLEMENTS-> /],
    ['what overrides Trackable.track', 'Trackable.track', 'Reaction.track', /^overriders of Trackable.track: /],
    ['members of BaseEntity', 'BaseEntity', 'BaseEntity.touch', /^<-HAS_MEMBER- /],
  ])('[GRAPH:] %s is answered from the code graph, from the named scope', async (query, root, answer, via) => {
    const model = askModel({ router: `[GRAPH:] ${query}`, answer: citeFirst });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input(`${query}?`));
    expect(final.plan).toEqual({ mode: 'graph', query, fallback: null });
    expect(final.attempts).toEqual([expect.objectContaining({ mode: 'graph', reformulated: false })]);
    expect(final.evidence[0]).toMatchObject({ qualifiedName: root, origin: 'graph-root' });
    const found = final.evidence.find((e: any) => e.qualifiedName === answer);
    expect(found).toMatchObject({ origin: 'hit' });
    expect(found.via).toMatch(via);
    expect(stepsOf(final, 'fetch_more_context')[0].detail.notes.join(' ')).toMatch(/^GRAPH: /);
    expect(final.warnings).toEqual([]);
  });

  it('[GRAPH:] naming no scope of the repository falls back to hybrid, logged in the trace and the warnings', async () => {
    gemini.onGenerate(askModel({ router: '[GRAPH:] who calls noSuchFunctionAnywhere', answer: citeFirst }));
    const { final } = await ask(stack.url, input('Who calls noSuchFunctionAnywhere?'));
    expect(final.plan.mode).toBe('graph');
    expect(final.attempts[0].mode).toBe('hybrid');
    expect(final.warnings.join(' ')).toMatch(/GRAPH route fell back to hybrid: no scope named "noSuchFunctionAnywhere"/);
    expect(stepsOf(final, 'fetch_more_context')[0].detail.notes.join(' ')).toMatch(/GRAPH route fell back to hybrid/);
  });

  it('[DIRECT:] skips retrieval', async () => {
    gemini.onGenerate(askModel({ router: '[DIRECT:]', answer: '[Answer:] A closure captures variables of its scope.' }));
    const { final } = await ask(stack.url, input('What is a closure?'));
    expect(final.plan.mode).toBe('direct');
    expect(stepsOf(final, 'fetch_more_context')).toHaveLength(0);
    expect(final.evidence).toHaveLength(0);
    expect(final.answer).toBe('A closure captures variables of its scope.');
  });

  it('follows [Requesting data on:] with another retrieval, then answers', async () => {
    const model = askModel({ router: '[BM25:] InvoiceService', answer: (req, i) => (i === 0 ? '[Requesting data on:] formatMoney' : citeFirst(req)) });
    gemini.onGenerate(model);
    const { final, chunks } = await ask(stack.url, input('How are amounts formatted?'));
    expect(final.loops).toBe(1);
    expect(stepsOf(final, 'fetch_more_context')).toHaveLength(2);
    expect(stepsOf(final, 'fetch_more_context')[1].detail.attempts[0].query).toBe('formatMoney');
    expect(final.evidence.map((e: any) => e.qualifiedName)).toContain('formatMoney');
    // The follow-up request itself was never streamed as answer text.
    expect(chunks).not.toContain('Requesting');
    expect(final.missing).toBeNull();
  });

  it('stops at max_turn_loops and finalises safely, saying what is missing', async () => {
    const model = askModel({ router: '[BM25:] invoice', answer: '[Requesting data on:] the tax tables' });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('What tax rate applies?'));
    expect(final.loops).toBe(4); // base: max_turn_loops 3, the 4th request is refused
    expect(model.calls.filter((c) => c.kind === 'answer')).toHaveLength(4);
    expect(stepsOf(final, 'loop_guard').map((s: any) => s.outcome)).toEqual(['ok', 'ok', 'ok', 'exhausted']);
    expect(final.missing).toBe('the tax tables');
    expect(final.answer).toMatch(/could not answer this fully[\s\S]*Still missing: the tax tables/);
    expect(final.citations).toEqual([]);
  });

  it('drops and counts citations of ids that were not in the evidence', async () => {
    gemini.onGenerate(askModel({ router: '[BM25:] InvoiceService', answer: (req) => `[Answer:] See [cite:${evidenceIds(req)[0]}] and [cite:${repo}:made/up.ts#Nope].` }));
    const { final, chunks } = await ask(stack.url, input('Where is the invoice service?'));
    expect(final.inventedCitations).toEqual([`${repo}:made/up.ts#Nope`]);
    expect(final.citations).toHaveLength(1);
    expect(final.answer).not.toContain('made/up.ts');
    expect(final.warnings.join(' ')).toMatch(/1 cited ids were not in the evidence/);
    // The stream never showed the invented citation either.
    expect(chunks).not.toContain('made/up.ts');
    expect(chunks.trim()).toBe(final.answer.trim());
  });

  it('falls back to hybrid on the question when the router output is malformed, and flags an answer without prefix', async () => {
    gemini.onGenerate(askModel({ router: 'I would use SEMANTIC search.\n[HYBRID:] invoice', answer: 'Invoices are created by InvoiceService.' }));
    const { final } = await ask(stack.url, input('How are invoices created?'));
    expect(final.plan).toMatchObject({ mode: 'hybrid', query: 'How are invoices created?' });
    expect(final.plan.fallback).toMatch(/exactly one line/);
    expect(final.answer).toBe('Invoices are created by InvoiceService.');
    expect(final.warnings.join(' ')).toMatch(/did not start with \[Answer:\]/);
  });

  it.each([
    ['an unknown prefix', '[SEARCH:] invoices', /no known prefix: "\[SEARCH:\] invoices"/],
    ['a mode without a query', '[BM25:]', /chose BM25 without a query/],
    ['two prefixes', '[BM25:] [HYBRID:] invoice', /more than one prefix/],
    ['an empty output', '', /exactly one line, got 0/],
    ['a request prefix in place of a route', '[Requesting data on:] invoices', /no known prefix/],
  ])('router output with %s: deterministic hybrid on the question, in the route step of the trace', async (_what, output, reason) => {
    const model = askModel({ router: output, answer: citeFirst });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('How are invoices created?'));
    expect(final.plan).toMatchObject({ mode: 'hybrid', query: 'How are invoices created?' });
    expect(final.plan.fallback).toMatch(reason);
    const route = final.trace.find((t: any) => t.stepId === 'route');
    expect(route).toMatchObject({ outcome: 'retrieve', detail: { plan: final.plan } });
    expect(final.attempts[0]).toMatchObject({ mode: 'hybrid', query: 'How are invoices created?' });
    expect(final.warnings.join(' ')).toMatch(/router fallback to hybrid on the question/);
    expect(final.citations).toHaveLength(1);
  });

  it('an answer that is only an empty follow-up request: no loop, the marker never shown, the evidence instead, flagged', async () => {
    const model = askModel({ router: '[BM25:] InvoiceService', answer: '[Requesting data on:]   ' });
    gemini.onGenerate(model);
    const { final, chunks } = await ask(stack.url, input('Where is the invoice service?'));
    expect(final.loops).toBe(0);
    expect(model.calls.filter((c) => c.kind === 'answer')).toHaveLength(1);
    expect(final.answer).toMatch(/^The chat model returned no answer text, so no answer was written\. The evidence retrieved/);
    expect(final.answer).not.toContain('[Requesting data on:]');
    expect(chunks).toBe('');
    expect(final.trace.find((t: any) => t.stepId === 'answer_prefix').detail.evidenceOnly).toBe(true);
    expect(final.warnings.join(' ')).toMatch(/no answer text/);
  });

  it('model calls share the retry policy: a 503 on the router is retried, the attempts are in the trace', async () => {
    let routerCalls = 0;
    const model = askModel({
      router: () => (routerCalls++ === 0 ? { status: 503, message: 'overloaded' } : { text: '[BM25:] formatMoney' }),
      answer: citeFirst,
    });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('How are amounts formatted?'));
    expect(routerCalls).toBe(2);
    expect(final.trace.find((t: any) => t.stepId === 'router')).toMatchObject({ outcome: 'ok', modelCalls: 1, modelAttempts: 2 });
    expect(final.plan).toEqual({ mode: 'bm25', query: 'formatMoney', fallback: null });
    expect(final.warnings).toEqual([]);
  });

  it('a model that keeps failing: router falls back (saying the call failed), the answer is the evidence, labelled, never an error', async () => {
    const model = askModel({ router: { status: 503, message: 'overloaded' }, answer: { status: 500, message: 'boom' } });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('How is an invoice created?'));
    // RERANK_MAX_ATTEMPTS (3 by default) attempts for each call, then the labelled degradation.
    expect(model.calls.filter((c) => c.kind === 'router')).toHaveLength(3);
    expect(model.calls.filter((c) => c.kind === 'answer')).toHaveLength(3);
    expect(final.plan).toMatchObject({ mode: 'hybrid', query: 'How is an invoice created?' });
    expect(final.plan.fallback).toMatch(/^router call failed: .*503/);
    expect(final.trace.find((t: any) => t.stepId === 'answer').outcome).toBe('unavailable');
    expect(final.answer).toMatch(/^The chat model could not be reached, so no answer was written\./);
    expect(final.evidence.length).toBeGreaterThan(0);
    for (const e of final.evidence.slice(0, 3)) expect(final.answer).toContain(e.id);
    expect(final.warnings.filter((w: string) => /^model call failed/.test(w))).toHaveLength(2);
    expect(final.citations).toEqual([]);
  });

  it('a model call that hangs ends at ASK_MODEL_TIMEOUT_MS with the labelled degradation', async () => {
    const model = askModel({ router: '[BM25:] InvoiceService', answer: { hang: true } });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('Where is the invoice service?'));
    const answer = final.trace.find((t: any) => t.stepId === 'answer');
    expect(answer.outcome).toBe('unavailable');
    expect(answer.detail.reason).toMatch(/no answer before the time limit|no time left/);
    // The wait counts as model time (not pipeline overhead) and is bounded by the limit.
    expect(answer.modelMs).toBeGreaterThanOrEqual(MODEL_TIMEOUT_MS - 50);
    expect(answer.modelMs).toBeLessThan(MODEL_TIMEOUT_MS + 2_000);
    expect(final.answer).toMatch(/^The chat model could not be reached/);
  });

  it('corrective retry: reformulates with the model when the evidence scores below the threshold', async () => {
    const model = askModel({ router: '[BM25:] zzqxv', reformulate: 'InvoiceService create', answer: citeFirst });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('the thing that makes bills?'));
    expect(final.retries).toBe(1);
    expect(final.attempts.map((a: any) => [a.query, a.reformulated, a.hits > 0])).toEqual([
      ['zzqxv', false, false],
      ['InvoiceService create', true, true],
    ]);
    const retrieve = stepsOf(final, 'fetch_more_context')[0];
    expect(retrieve.detail.attempts).toHaveLength(2);
    expect(retrieve.modelCalls).toBe(1);
    expect(model.calls.find((c) => c.kind === 'reformulate')!.request.text).toContain('zzqxv');
  });

  it('corrective retry stops at max_retries (thorough: 2): every attempt in the trace, the weak evidence said', async () => {
    const model = askModel({ router: '[BM25:] zzqxv', reformulate: (_req, i) => `qqwwee${i + 1}`, answer: '[Answer:] Nothing in the evidence says.' });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('the thing that makes bills?', { pipeline: 'thorough' }));
    expect(final.retries).toBe(2);
    expect(final.attempts.map((a: any) => [a.query, a.reformulated, a.hits])).toEqual([
      ['zzqxv', false, 0],
      ['qqwwee1', true, 0],
      ['qqwwee2', true, 0],
    ]);
    const retrieve = stepsOf(final, 'fetch_more_context')[0];
    expect(retrieve).toMatchObject({ outcome: 'empty', modelCalls: 2, detail: { weak: true } });
    expect(retrieve.detail.attempts.map((a: any) => a.query)).toEqual(['zzqxv', 'qqwwee1', 'qqwwee2']);
    // The second reformulation saw the query that had just failed, not the router's.
    expect(model.calls.filter((c) => c.kind === 'reformulate')[1].request.text).toContain('qqwwee1');
    expect(final.warnings.join(' ')).toMatch(/evidence still weak after 3 retrieval attempt\(s\): best score 0 < threshold 0.25/);
  });

  it('translates the question in and the answer out when isEnglish is false', async () => {
    const model = askModel({
      translate_in: 'How is an invoice created?',
      router: '[BM25:] InvoiceService create',
      answer: (req) => `[Answer:] By InvoiceService.create [cite:${evidenceIds(req)[0]}].`,
      // The translation adds a citation of its own: dropped and counted like the answer's.
      translate_out: (req) => `Przez InvoiceService.create ${/\[cite:[^\]]+\]/.exec(req.text)![0]}[cite:${repo}:ghost.ts#Ghost].`,
    });
    gemini.onGenerate(model);
    const { final, chunks } = await ask(stack.url, input('Jak tworzona jest faktura?', { isEnglish: false }));
    expect(final.question).toBe('Jak tworzona jest faktura?');
    expect(final.questionEn).toBe('How is an invoice created?');
    expect(final.answerEn).toMatch(/^By InvoiceService.create/);
    expect(final.answer).toMatch(/^Przez InvoiceService.create \[cite:[^\]]+\]\.$/);
    expect(final.answer).not.toContain('ghost.ts');
    expect(final.inventedCitations).toEqual([`${repo}:ghost.ts#Ghost`]);
    expect(final.citations).toHaveLength(1);
    // The asker sees the translation streamed (without the invented citation), not the English draft.
    expect(chunks).toBe(final.answer);
    expect(model.calls.find((c) => c.kind === 'router')!.request.text).toContain('How is an invoice created?');
    expect(model.calls.map((c) => c.kind)).toEqual(['translate_in', 'router', 'answer', 'translate_out']);
  });

  it('an empty translation is not used: the question goes on as asked, the answer stays in English, both said', async () => {
    const model = askModel({ translate_in: '  ', router: '[BM25:] InvoiceService', answer: citeFirst, translate_out: '' });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('Jak tworzona jest faktura?', { isEnglish: false }));
    expect(final.questionEn).toBe('Jak tworzona jest faktura?');
    expect(final.answer).toBe(final.answerEn);
    expect(final.warnings).toEqual(['question not translated (the translation was empty); used as asked', 'answer not translated (the translation was empty); shown in English']);
    expect(final.trace.filter((t: any) => t.action === 'translate_in_if_needed' || t.action === 'finalize').map((t: any) => t.outcome)).toEqual(['untranslated', 'untranslated']);
  });

  it('summarises evidence over max_context_tokens, keeping every evidence id', async () => {
    const model = askModel({ router: '[HYBRID:] invoice', evidence_summary: 'Invoices are created by the service.', answer: citeFirst });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('How do invoices work?', { pipeline: 'compact' }));
    const budget = stepsOf(final, 'check_context_budget').find((s: any) => s.detail.target === 'evidence');
    expect(budget.outcome).toBe('over_limit');
    expect(budget.detail.tokens).toBeGreaterThan(300);
    expect(final.evidenceSummarized).toBe(true);
    const summary = final.trace.find((t: any) => t.stepId === 'summarize_evidence');
    expect(summary.detail.idsRestored).toBe(final.evidence.length);
    // Query-aware: the summariser was given the question with the evidence.
    expect(model.calls.find((c) => c.kind === 'evidence_summary')!.request.text).toMatch(/<question>\nHow do invoices work\?\n<\/question>/);
    const answerReq = model.calls.find((c) => c.kind === 'answer')!.request;
    expect(new Set(evidenceIds(answerReq))).toEqual(new Set(final.evidence.map((e: any) => e.id)));
    expect(answerReq.text).toContain('Invoices are created by the service.');
  });

  it('evidence over budget with no usable summary: whole entries, best first, while they fit; said', async () => {
    const model = askModel({ router: '[HYBRID:] invoice', evidence_summary: '', answer: citeFirst });
    gemini.onGenerate(model);
    const { final } = await ask(stack.url, input('How do invoices work?', { pipeline: 'compact' }));
    const summary = final.trace.find((t: any) => t.stepId === 'summarize_evidence');
    expect(summary.outcome).toBe('truncated');
    expect(summary.detail.kept).toBeGreaterThan(0);
    expect(summary.detail.kept).toBeLessThan(final.evidence.length);
    expect(final.evidenceTokens).toBeLessThanOrEqual(300);
    expect(final.evidenceSummarized).toBe(false);
    // The answer saw exactly the first `kept` entries, in order.
    const shown = evidenceIds(model.calls.find((c) => c.kind === 'answer')!.request);
    expect(shown).toEqual(final.evidence.slice(0, summary.detail.kept).map((e: any) => e.id));
    expect(final.warnings.join(' ')).toMatch(/evidence over budget and not summarised \(the summary was empty\): \d+ entries left out/);
  });

  it('history: summarised when over max_history_tokens, reused next turn, re-summarised incrementally', async () => {
    const session = runId('sess');
    sessions.push(session);
    // compact: max_history_tokens 400; one turn is ~215 tokens, so two raw turns cross the budget.
    const filler = 'detail '.repeat(200);
    expect(countTokens(filler)).toBeGreaterThan(190);
    const answers = ['ANSWER-ONE', 'ANSWER-TWO', 'ANSWER-THREE', 'ANSWER-FOUR', 'ANSWER-FIVE'];
    let turn = 0;
    const model = askModel({
      router: '[BM25:] invoice',
      answer: () => `[Answer:] ${answers[turn]} ${filler}`,
      history_summary: (_req, i) => `SUMMARY-V${i + 1} about invoices`,
    });
    gemini.onGenerate(model);
    const results: any[] = [];
    for (turn = 0; turn < answers.length; turn++) results.push((await ask(stack.url, input(`question ${turn + 1} about invoices`, { sessionId: session, pipeline: 'compact' }))).final);
    const summaries = model.calls.filter((c) => c.kind === 'history_summary').map((c) => c.request.text);
    const routers = model.calls.filter((c) => c.kind === 'router').map((c) => c.request.text);
    expect(results.map((r) => r.history.resummarized)).toEqual([false, false, true, false, true]);
    // Turn 3: turns 1-2 summarised (v1, covering up to turn 2) and persisted.
    expect(summaries[0]).toMatch(/ANSWER-ONE[\s\S]*ANSWER-TWO/);
    expect(summaries[0]).not.toContain('ANSWER-THREE');
    expect(summaries[0]).toMatch(/<current_question>\nquestion 3 about invoices\n<\/current_question>/);
    expect(results[2].history).toMatchObject({ summaryVersion: 1, summaryUpTo: 2 });
    // Turn 4: the stored summary plus only the turn after it, never the old raw turns.
    expect(routers[3]).toContain('SUMMARY-V1');
    expect(routers[3]).toContain('ANSWER-THREE');
    expect(routers[3]).not.toContain('ANSWER-ONE');
    // Turn 5 crosses the budget again: summary v1 + the new turns only are re-summarised into v2.
    expect(summaries).toHaveLength(2);
    expect(summaries[1]).toContain('SUMMARY-V1');
    expect(summaries[1]).toMatch(/ANSWER-THREE[\s\S]*ANSWER-FOUR/);
    expect(summaries[1]).not.toMatch(/ANSWER-ONE|ANSWER-TWO/);
    expect(results[4].history).toMatchObject({ summaryVersion: 2, summaryUpTo: 4 });
    const { body } = await gql(stack.url, `query($s: String!) { conversation(sessionId: $s) { turns { seq questionEn answerEn } summary { text version upToSeq } } }`, { s: session });
    expect(body.data.conversation.turns.map((t: any) => t.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(body.data.conversation.summary).toEqual({ text: 'SUMMARY-V2 about invoices', version: 2, upToSeq: 4 });
    // Every version is kept in Neo4j; the CURRENT_SUMMARY pointer moved to the newest.
    const stored = await h.neo4j.runStatement(
      'MATCH (c:Conversation {id: $s})-[:HAS_SUMMARY]->(x:Summary) OPTIONAL MATCH (c)-[cur:CURRENT_SUMMARY]->(x) RETURN x.version AS version, x.upToSeq AS upTo, cur IS NOT NULL AS current ORDER BY version',
      { s: session },
    );
    expect(stored.map((r: any) => [Number(r.version), Number(r.upTo), r.current])).toEqual([
      [1, 2, false],
      [2, 4, true],
    ]);
  });

  it('history over budget with no usable summary: nothing stored, the newest raw turns that fit are used, said', async () => {
    const session = runId('sessempty');
    sessions.push(session);
    const filler = 'detail '.repeat(200);
    let turn = 0;
    const model = askModel({ router: '[BM25:] invoice', answer: () => `[Answer:] ANSWER-${turn + 1} ${filler}`, history_summary: '   ' });
    gemini.onGenerate(model);
    let third: any;
    for (turn = 0; turn < 3; turn++) third = (await ask(stack.url, input(`question ${turn + 1}`, { sessionId: session, pipeline: 'compact' }))).final;
    expect(third.trace.find((t: any) => t.stepId === 'summarize_history')).toMatchObject({ outcome: 'truncated', detail: { keptTurns: 1 } });
    expect(third.warnings.join(' ')).toMatch(/history over budget and not summarised \(the summary was empty\): oldest turns left out/);
    const router = model.calls.filter((c) => c.kind === 'router')[2].request.text;
    expect(router).toContain('ANSWER-2');
    expect(router).not.toContain('ANSWER-1 ');
    const { body } = await gql(stack.url, `query($s: String!) { conversation(sessionId: $s) { summary { version } turns { seq } } }`, { s: session });
    expect(body.data.conversation).toEqual({ summary: null, turns: [{ seq: 1 }, { seq: 2 }, { seq: 3 }] });
  });

  it('refuses bad input with BAD_USER_INPUT naming the field, and an unknown ask with NOT_FOUND', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ question: 'x', repository: 'no-such-repo' }, 'repository'],
      [{ question: '   ', repository: repo }, 'question'],
      [{ question: 'x', repository: repo, pipeline: 'nope' }, 'pipeline'],
      [{ question: 'x', repository: repo, sessionId: 'bad id!' }, 'sessionId'],
    ];
    for (const [bad, field] of cases) {
      const { body } = await gql(stack.url, ASK, { input: bad });
      expect(body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(JSON.stringify(body.errors?.[0])).toContain(field);
    }
    const client = wsClient(stack.url);
    try {
      const [event] = await collect(client, PROGRESS, { id: 'ask000000000000000000000000' }, 10_000);
      expect(event.errors?.[0]).toMatchObject({ message: 'no ask "ask000000000000000000000000"', extensions: { code: 'NOT_FOUND' } });
    } finally {
      await client.dispose();
    }
  });

  it('serves an ask to clients that poll: askResult gives the final result the stream gave, NOT_FOUND for unknown ids', async () => {
    gemini.onGenerate(askModel({ router: '[HYBRID:] create an invoice', answer: citeFirst }));
    const { body } = await gql(stack.url, ASK, { input: input('How is an invoice created?') });
    const id = body.data.ask.id as string;
    const RESULT = `query($id: ID!) { askResult(id: $id) { askId status answerSoFar steps message result { answer citations { id } plan { mode query } } } }`;
    let state: any;
    for (let i = 0; i < 240; i++) {
      state = (await gql(stack.url, RESULT, { id })).body.data.askResult;
      if (state.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(state).toMatchObject({ askId: id, status: 'COMPLETED', message: null, result: { plan: { mode: 'hybrid', query: 'create an invoice' } } });
    expect(state.result.citations).toHaveLength(1);
    expect(state.answerSoFar).toBe(state.result.answer);
    expect(state.steps).toBeGreaterThan(3);
    // The same run as a late subscriber replays it.
    const client = wsClient(stack.url);
    try {
      const events = await collect(client, PROGRESS, { id }, 10_000);
      const final = events[events.length - 1].data!.askProgress.result;
      expect(final.answer).toBe(state.result.answer);
      expect(final.citations.map((c: any) => c.id)).toEqual(state.result.citations.map((c: any) => c.id));
    } finally {
      await client.dispose();
    }
    for (const unknown of ['ask000000000000000000000000', 'not-an-ask-id']) {
      const res = await gql(stack.url, RESULT, { id: unknown });
      expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', domainCode: 'ASK_NOT_FOUND' });
    }
  });

  it('lists the pipelines with extends resolved and validates pipeline YAML', async () => {
    const { body } = await gql(stack.url, `{ pipelines { name extends lineage settings steps { id action next branches with } } }`);
    const compact = body.data.pipelines.find((p: any) => p.name === 'compact');
    expect(compact.extends).toBe('thorough');
    // Steps merged by id: thorough's replacement of `expand` reached compact; base's steps are all there.
    expect(compact.steps.find((st: any) => st.id === 'expand')).toEqual({ id: 'expand', action: 'expand_dependency_tree', next: 'node_texts', branches: {}, with: { direction: 'both' } });
    expect(compact.steps.find((st: any) => st.id === 'guard')).toMatchObject({ branches: { ok: 'retrieve', exhausted: 'finalize' } });
    expect(compact.steps).toHaveLength(body.data.pipelines.find((p: any) => p.name === 'base').steps.length);
    expect(compact.lineage).toEqual(['base', 'thorough', 'compact']);
    expect(compact.settings).toMatchObject({ max_context_tokens: 300, max_turn_loops: 5, entry_step_id: 'translate_in', corrective: { threshold: 0.25, max_retries: 2 } });
    const VALIDATE = `query($y: String!) { validatePipeline(yaml: $y) { valid errors { file stepId field message } pipeline { name lineage } } }`;
    const ok = await gql(stack.url, VALIDATE, { y: 'pipeline:\n  name: mine\n  extends: base\n  settings: { max_turn_loops: 1 }\n' });
    expect(ok.body.data.validatePipeline).toMatchObject({ valid: true, pipeline: { name: 'mine', lineage: ['base', 'mine'] } });
    const bad = await gql(stack.url, VALIDATE, { y: 'pipeline:\n  name: mine\n  extends: base\n  steps:\n    - { id: guard, action: loop_guard, on_ok: nowhere }\n' });
    expect(bad.body.data.validatePipeline).toEqual({
      valid: false,
      pipeline: null,
      errors: [
        { file: '<input>', stepId: 'guard', field: 'on_ok', message: 'names no step ("nowhere")' },
        { file: '<input>', stepId: 'guard', field: 'on_exhausted', message: 'is missing: loop_guard can end with "exhausted" and the step has no next' },
      ],
    });
  });

  it('CLI: `scopegraph ask` streams the answer and lists its sources; --json prints the final event', async () => {
    gemini.onGenerate(askModel({ router: '[BM25:] formatMoney', answer: (req) => `[Answer:] formatMoney formats amounts [cite:${evidenceIds(req)[0]}].` }));
    const text = await cli('ask', 'How are amounts formatted?', '--repo', repo);
    expect(text.stdout).toMatch(/^formatMoney formats amounts \[cite:[^\]]+\]\.\n\nSources:\n  formatMoney  ts\/src\/utils\/format\.ts:\d+/);
    const session = runId('cli');
    sessions.push(session);
    const json = JSON.parse((await cli('ask', 'How are amounts formatted?', '--repo', repo, '--session', session, '--pipeline', 'thorough', '--json')).stdout);
    expect(json).toMatchObject({ plan: { mode: 'bm25', query: 'formatMoney' }, citations: [{ qualifiedName: 'formatMoney' }] });
    // --pipeline: thorough walks the graph two deep; --session: the turn is in that conversation.
    expect(json.trace.find((t: any) => t.stepId === 'expand').detail).toMatchObject({ depth: 2, maxNodes: 60 });
    const { body } = await gql(stack.url, `query($s: String!) { conversation(sessionId: $s) { turns { seq questionEn } } }`, { s: session });
    expect(body.data.conversation.turns).toEqual([{ seq: 1, questionEn: 'How are amounts formatted?' }]);
  });

  it('`scopegraph eval-ask` reports citation recall per question and overall (a bad line is named)', async () => {
    gemini.onGenerate(
      askModel({
        router: (req) => (req.text.includes('Who calls') ? '[GRAPH:] who calls formatMoney' : '[BM25:] formatMoney'),
        answer: citeFirst,
      }),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-ask-'));
    const file = path.join(dir, 'questions.jsonl');
    fs.writeFileSync(
      file,
      [
        { question: 'How are amounts formatted?', expected: ['formatMoney'] },
        { question: 'Who calls formatMoney?', expected: ['formatMoney', 'InvoiceService.create'] },
      ]
        .map((q) => JSON.stringify(q))
        .join('\n') + '\n',
    );
    const { stdout } = await cli('eval-ask', file, '--repo', repo, '--json');
    const report = JSON.parse(stdout);
    expect(report.rows.map((r: any) => r.recall)).toEqual([1, 0.5]);
    expect(report.summary).toMatchObject({ questions: 2, citationRecall: 0.75, citationPrecision: 1, invented: 0 });
    fs.writeFileSync(file, '{"question": "no expected list"}\n');
    await expect(cli('eval-ask', file, '--repo', repo)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('questions.jsonl:1: needs "question" and a non-empty "expected" list') });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('with the OpenAI-compatible chat provider (Ollama, llama.cpp)', () => {
    let openai: FakeOpenAiChat;
    let local: RunningStack;
    beforeAll(async () => {
      openai = await FakeOpenAiChat.start();
      local = await startStack('askoa', { CHAT_PROVIDER: 'openai', CHAT_OPENAI_BASE_URL: `${openai.baseUrl}/v1`, CHAT_MODEL: 'llama3', RERANK_PROVIDER: 'local' });
    });
    afterAll(async () => {
      await local?.stop();
      await openai?.close();
    });

    it('answers through /chat/completions with stream: true, streaming the answer', async () => {
      const model = askModel({ router: '[BM25:] formatMoney', answer: (req) => `[Answer:] formatMoney formats amounts [cite:${evidenceIds(req)[0]}].` });
      openai.reply(openAiReply(model));
      const { final, events, chunks } = await ask(local.url, input('How are amounts formatted?'));
      expect(final.model).toBe('openai/llama3');
      expect(final.plan).toEqual({ mode: 'bm25', query: 'formatMoney', fallback: null });
      expect(final.citations).toMatchObject([{ qualifiedName: 'formatMoney' }]);
      expect(final.answer).toMatch(/^formatMoney formats amounts \[cite:/);
      // Streamed in the server's pieces (8 characters), prefix dropped.
      expect(events.filter((e) => e.kind === 'CHUNK').length).toBeGreaterThan(3);
      expect(chunks).toBe(final.answer);
      expect(openai.requests.map((r) => [r.body.model, r.body.stream])).toEqual([
        ['llama3', true],
        ['llama3', true],
      ]);
      expect(final.trace.find((t: any) => t.stepId === 'answer')).toMatchObject({ modelCalls: 1, inputTokens: 10 });
    });
  });

  describe('with no worker running', () => {
    let api: RunningApp;
    let url: string;
    beforeAll(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}/graphql`;
      api = await startApp('api', { API_PORT: String(port), QUEUE_PREFIX: runId('asknw'), CHAT_PROVIDER: 'none', ASK_PICKUP_TIMEOUT_MS: '1500' }, API_READY);
    });
    afterAll(async () => api?.stop());

    it('an ask no worker takes ends with a clear ERROR after ASK_PICKUP_TIMEOUT_MS and is removed, never hangs', async () => {
      const { body } = await gql(url, ASK, { input: input('How is an invoice created?') });
      const client = wsClient(url);
      try {
        const events = await collect(client, PROGRESS, { id: body.data.ask.id }, 15_000);
        expect(events.map((e) => e.data?.askProgress.kind)).toEqual(['ERROR']);
        expect(events[0].data!.askProgress.message).toBe('no worker took the ask within 1500 ms (is a worker running?)');
        // Removed: it cannot run later with nobody watching.
        const [again] = await collect(client, PROGRESS, { id: body.data.ask.id }, 5_000);
        expect(again.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
      } finally {
        await client.dispose();
      }
    });
  });

  describe('with no chat model configured', () => {
    let bare: RunningStack;
    beforeAll(async () => {
      bare = await startStack('asknm', { CHAT_PROVIDER: 'none', RERANK_PROVIDER: 'local' });
    });
    afterAll(async () => bare?.stop());

    it('answers with a clear message and the retrieved evidence, never an error', async () => {
      const { final } = await ask(bare.url, input('How is an invoice created?'));
      expect(final.modelAvailable).toBe(false);
      expect(final.answer).toMatch(/^No chat model is configured/);
      expect(final.plan).toMatchObject({ mode: 'hybrid', fallback: 'no chat model configured' });
      expect(final.evidence.length).toBeGreaterThan(0);
      expect(final.evidence.some((e: any) => e.origin === 'neighbor')).toBe(true);
      for (const e of final.evidence.slice(0, 3)) expect(final.answer).toContain(e.id);
      expect(final.citations).toEqual([]);
    });

    it('a question not in English, in a session: still the message and the evidence, the turn kept, the gaps said', async () => {
      const session = runId('nm');
      sessions.push(session);
      const { final } = await ask(bare.url, input('Jak tworzona jest faktura?', { isEnglish: false, sessionId: session }));
      expect(final.answer).toMatch(/^No chat model is configured/);
      expect(final.warnings.join(' ')).toMatch(/question not translated \(no chat model configured\)/);
      expect(final.trace.map((t: any) => [t.stepId, t.outcome])).toEqual(
        expect.arrayContaining([
          ['translate_in', 'untranslated'],
          ['persist', 'done'],
        ]),
      );
      const { body } = await gql(bare.url, `query($s: String!) { conversation(sessionId: $s) { turns { seq questionOriginal } } }`, { s: session });
      expect(body.data.conversation.turns).toEqual([{ seq: 1, questionOriginal: 'Jak tworzona jest faktura?' }]);
    });
  });
});
