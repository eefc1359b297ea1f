import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient } from '../../apps/cli/src/client';
import { runEval } from '../../apps/cli/src/commands/eval.command';
import { parseDataset } from '../../libs/search/src/eval';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { pointwiseJudge, promptCandidates, promptQuestion, requestText } from '../fakes/rerank-scripts';
import { collect, gql, wsClient } from '../support/graphql-client';
import { IngestHarness } from '../support/ingest-harness';
import { pollUntil } from '../support/poll';
import { runId, RunningStack, startStack } from '../support/processes';

jest.setTimeout(180_000);

const SEARCH = `query($input: SearchInput!) {
  search(input: $input) {
    results { rank scope { id qualifiedName path } }
    files { path rank }
    explain
    rerank { jobId status skipped total }
  }
}`;
const PROGRESS = `subscription($jobId: ID!) { rerankProgress(jobId: $jobId) {
  kind done total hits { scopeId }
  result { status reranker fallbacks question queryDescription
    hits { rank scope { qualifiedName path } scoreBreakdown { llm llmReasoning retrievalRank fallbackReason scored } }
    files { path rank functions } }
} }`;

// The billing code a traceback runs through: LOCALIZE puts the innermost frame (lookup_rate, in
// pricing.py) first; the scripted model says the fix belongs in Cart.total (cart.py), which no
// retrieval order would put first.
const FILES: Record<string, string> = {
  'billing/cart.py': [
    'from billing.pricing import apply_discount',
    '',
    '',
    'class Cart:',
    '    def __init__(self):',
    '        self.items = []',
    '',
    '    def add(self, sku, qty):',
    '        self.items.append((sku, qty))',
    '',
    '    def total(self, code=None):',
    '        subtotal = sum(qty * 10 for _, qty in self.items)',
    '        return apply_discount(subtotal, code)',
    '',
  ].join('\n'),
  'billing/pricing.py': [
    'RATES = {"SUMMER": 0.1}',
    '',
    '',
    'def apply_discount(amount, code):',
    '    rate = lookup_rate(code)',
    '    return amount * (1 - rate)',
    '',
    '',
    'def lookup_rate(code):',
    '    if code not in RATES:',
    '        raise KeyError("no such discount code")',
    '    return RATES[code]',
    '',
    '',
    'def format_amount(amount):',
    '    return "%.2f EUR" % amount',
    '',
  ].join('\n'),
  'billing/invoice.py': ['def invoice_lines(cart):', '    return [f"{sku} x{qty}" for sku, qty in cart.items]', '', '', 'def invoice_total(cart):', '    return cart.total()', ''].join('\n'),
};

const traceback = (title: string) =>
  [
    title,
    '',
    'Traceback (most recent call last):',
    '  File "/srv/app/billing/cart.py", line 13, in total',
    '    return apply_discount(subtotal, code)',
    '  File "/srv/app/billing/pricing.py", line 5, in apply_discount',
    '    rate = lookup_rate(code)',
    '  File "/srv/app/billing/pricing.py", line 11, in lookup_rate',
    '    raise KeyError("no such discount code")',
    "KeyError: 'no such discount code'",
  ].join('\n');

// LOCALIZE with a model: the reranker gets the localization question (the issue and the candidates'
// code) through the fake Gemini server, streams its progress, and answers the functions in its order
// with its reasons and the files re-derived from that order; a model answering garbage leaves
// LOCALIZE's own order, labelled. The eval measures the reranked figure beside LOCALIZE's.
describe('LOCALIZE reranked by an LLM', () => {
  const h = new IngestHarness();
  const repo = runId('locrr');
  let gemini: FakeGemini;
  let stack: RunningStack;

  const finalEvent = async (jobId: string) => {
    const client = wsClient(stack.url);
    try {
      const events = await collect(client, PROGRESS, { jobId }, 90_000);
      return { events: events.map((e) => e.data!.rerankProgress), final: events[events.length - 1].data!.rerankProgress };
    } finally {
      await client.dispose();
    }
  };
  const search = async (text: string) => {
    const input = { text, mode: 'LOCALIZE', repository: repo, topK: 3, sourceChars: 0, rerank: { candidateCount: 6, batchSize: 2, parallel: 1 } };
    const { body } = await gql(stack.url, SEARCH, { input });
    expect(body.errors).toBeUndefined();
    return body.data.search;
  };

  beforeAll(async () => {
    await h.init();
    const root = h.emptyDir();
    for (const [rel, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    await h.ingest.index({ path: root, name: repo });
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    stack = await startStack('locrr', { GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GEMINI_BASE_URL: gemini.baseUrl, RERANK_PROVIDER: 'gemini' });
    await pollUntil('the full-text index to serve lookup_rate', async () => {
      const { body } = await gql(stack.url, SEARCH, { input: { text: 'lookup_rate', mode: 'BM25', repository: repo } });
      return (body.data?.search.results.length ?? 0) > 0;
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await gemini?.close();
    await h.dispose([repo]);
  });

  it('asks which functions must change to fix the issue, streams progress, and answers its order with reasons and re-derived files', async () => {
    gemini.reset().onGenerate(
      pointwiseJudge({
        score: (c) => (c.name === 'total' ? 0.95 : c.name === 'lookup_rate' ? 0.4 : 0.1),
        reasoning: (c) => (c.name === 'total' ? 'total passes an unknown code on instead of ignoring it' : `${c.name} only follows the code it is given`),
      }),
    );
    const s = await search(traceback('Cart.total fails for an unknown discount code'));
    expect(s.explain.mode).toBe('localize');
    // LOCALIZE's own order: the innermost frame and its file first.
    expect(s.results[0].scope.qualifiedName).toBe('lookup_rate');
    expect(s.files[0].path).toBe('billing/pricing.py');
    expect(s.rerank).toMatchObject({ skipped: false, status: 'RUNNING', total: 3 });

    const { events, final } = await finalEvent(s.rerank.jobId);
    expect(events.filter((e) => e.kind === 'PROGRESS').length).toBeGreaterThanOrEqual(1);
    expect(final.kind).toBe('COMPLETED');
    expect(final.done).toBe(3);

    // The prompt: the localization question with the issue, and each candidate's code.
    const prompts = gemini.requests.filter((r) => r.action === 'generateContent').map((r) => requestText(r.body));
    expect(prompts).toHaveLength(3);
    const question = promptQuestion(prompts[0]);
    expect(question).toMatch(/^Which of these functions must change to fix this issue\?/);
    expect(question).toMatch(/Cart\.total fails for an unknown discount code/);
    expect(question).toMatch(/billing\/pricing\.py:11 lookup_rate/);
    expect(prompts.join('\n')).toMatch(/Query that produced the candidates.*LOCALIZE over a bug report/);
    const sent = prompts.flatMap((p) => promptCandidates(p));
    expect(sent.map((c) => c.name)).toEqual(expect.arrayContaining(['lookup_rate', 'apply_discount', 'total']));
    expect(sent.find((c) => c.name === 'lookup_rate')!.source).toMatch(/raise KeyError\("no such discount code"\)/);

    const r = final.result;
    expect(r).toMatchObject({ status: 'COMPLETED', reranker: 'gemini', fallbacks: 0 });
    expect(r.hits[0].scope.qualifiedName).toBe('Cart.total');
    expect(r.hits[0].scoreBreakdown).toMatchObject({ llm: 0.95, scored: true, llmReasoning: 'total passes an unknown code on instead of ignoring it' });
    expect(r.hits[0].scoreBreakdown.retrievalRank).toBeGreaterThan(1);
    expect(r.hits.every((x: any) => typeof x.scoreBreakdown.llmReasoning === 'string')).toBe(true);
    // The files follow the new order: cart.py first now, its function with it.
    expect(r.files[0]).toMatchObject({ path: 'billing/cart.py', rank: 1 });
    expect(r.files[0].functions[0]).toBe('Cart.total');
    expect(r.files.map((f: any) => f.path)).toContain('billing/pricing.py');
  });

  it("a model answering garbage: every batch falls back to LOCALIZE's own order, and says so", async () => {
    gemini.reset().onGenerate(() => ({ text: 'I think the bug is somewhere in billing, good luck!' }));
    const s = await search(traceback('Discounts crash the checkout'));
    const { final } = await finalEvent(s.rerank.jobId);
    const r = final.result;
    expect(r.status).toBe('COMPLETED');
    expect(r.fallbacks).toBe(3);
    expect(r.hits.map((x: any) => x.scoreBreakdown.retrievalRank)).toEqual([1, 2, 3]);
    expect(r.hits.map((x: any) => x.scope.qualifiedName)).toEqual(s.results.map((x: any) => x.scope.qualifiedName));
    for (const x of r.hits) {
      expect(x.scoreBreakdown.scored).toBe(false);
      expect(x.scoreBreakdown.llm).toBeNull();
      expect(x.scoreBreakdown.fallbackReason).toEqual(expect.any(String));
    }
    expect(r.files[0].path).toBe(s.files[0].path);
  });

  it('scopegraph eval --rerank measures the reranked figure beside LOCALIZE\'s', async () => {
    gemini.reset().onGenerate(pointwiseJudge({ score: (c) => (c.name === 'total' ? 0.9 : 0.1) }));
    const line = { id: 'cart-1', repo, type: 'issue', query: traceback('Checkout total breaks on an unknown code'), relevant: [{ path: 'billing/cart.py', name: 'Cart.total', kind: 'method' }] };
    const out = await runEval(parseDataset(JSON.stringify(line), 'issues.jsonl'), { modes: ['localize'], k: 10, rerank: { candidates: 6, timeoutMs: 90_000, pollMs: 100 } }, new ApiClient({ url: stack.url }));
    const all = (system: string) => out.localization!.find((row) => row.project === 'all' && row.system === system)!.metrics;
    expect(all('localize').functionAcc[1]).toBe(0);
    expect(all('localize').fileAcc[1]).toBe(0);
    expect(all('localize+rerank').functionAcc[1]).toBe(1);
    expect(all('localize+rerank').fileAcc[1]).toBe(1);
    expect(out.rerank).toMatchObject({ reranks: 1, fallbacks: 0 });
    expect(out.rerank!.rerankers[0]).toMatch(/^gemini/);
    // The eval's rerank uses the server's default batch: the 6 candidates in one model call.
    expect(gemini.calls('generateContent')).toBe(1);
  });
});
