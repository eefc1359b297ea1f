import * as fs from 'node:fs';
import * as path from 'node:path';
import { Retriever } from '../../libs/pipeline/src/retrieval/retriever';
import { defaultPlan, RagClient, type SearchResponse, SearchRepository, SearchService } from '../../libs/search/src';
import { PROSE_EMBED_CHARS } from '../../libs/search/src/localize/localizer';
import { gql } from '../support/graphql-client';
import { IngestHarness } from '../support/ingest-harness';
import { pollUntil } from '../support/poll';
import { API_READY, freePort, type RunningApp, runId, startApp } from '../support/processes';

jest.setTimeout(120_000);

// LOCALIZE over a small Python + TypeScript repository: each signal of an issue (a traceback's
// frames, a named class, a quoted message, a JS stack) brings the function a fix would change, with
// its evidence; hybrid hands a pasted issue over; a 20 KB log and a 200-frame traceback are cut to
// the limits (said in explain), through GraphQL too, never a 500.
describe('LOCALIZE: from an issue to the functions a fix changes', () => {
  const repoId = runId('localize');
  const h = new IngestHarness();
  let service: SearchService;
  let root: string;
  let api: RunningApp;
  let url: string;

  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const run = (text: string, mode: 'localize' | 'hybrid' = 'localize') => {
    const plan = defaultPlan(mode, text);
    plan.filters = { repository: repoId };
    return service.execute(plan);
  };
  const names = (res: SearchResponse) => res.results.map((r) => r.scope.qualifiedName);

  beforeAll(async () => {
    await h.init();
    root = h.emptyDir();
    write(
      'shop/cart.py',
      [
        'from shop.pricing import apply_discount',
        '',
        '',
        'class Cart:',
        '    """A shopping cart holding line items."""',
        '',
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
    );
    write(
      'shop/pricing.py',
      [
        'DISCOUNTS = {"SUMMER": 0.1}',
        '',
        '',
        'def apply_discount(amount, code):',
        '    rate = lookup_rate(code)',
        '    return amount * (1 - rate)',
        '',
        '',
        'def lookup_rate(code):',
        '    if code not in DISCOUNTS:',
        '        raise KeyError("unknown discount code")',
        '    return DISCOUNTS[code]',
        '',
        '',
        'def format_price(amount):',
        '    return "%.2f EUR" % amount',
        '',
      ].join('\n'),
    );
    write(
      'shop/shipping.py',
      [
        'def shipping_cost(weight_kg, country):',
        '    if weight_kg <= 0:',
        '        raise ValueError("parcel weight must be positive")',
        '    return 5 if country == "DE" else 12',
        '',
      ].join('\n'),
    );
    write(
      'shop/cli.py',
      [
        'import argparse',
        '',
        '',
        'def export_command(rows):',
        '    return ",".join(rows)',
        '',
        '',
        'def build_parser():',
        '    parser = argparse.ArgumentParser()',
        '    parser.add_argument("--max-weight", dest="max_weight", type=float)',
        '    return parser',
        '',
      ].join('\n'),
    );
    write(
      'web/src/orders.ts',
      [
        'export interface Order { id: string; lines: { sku: string; qty: number }[] }',
        '',
        'export function renderOrder(order: Order): string {',
        '  return order.lines.map((l) => `${l.sku} x${l.qty}`).join("\\n");',
        '}',
        '',
        'export function loadOrders(raw: string): Order[] {',
        '  return JSON.parse(raw).orders;',
        '}',
        '',
      ].join('\n'),
    );
    await h.ingest.index({ path: root, name: repoId });
    service = new SearchService(new SearchRepository(h.neo4j), h.embedder);
    await pollUntil('the full-text index to serve lookup_rate', async () => {
      const plan = defaultPlan('bm25', 'lookup_rate');
      plan.filters = { repository: repoId };
      return (await service.execute(plan)).results.length > 0;
    });
    const port = await freePort();
    api = await startApp('api', { API_PORT: String(port) }, API_READY);
    url = `http://127.0.0.1:${port}/graphql`;
  });

  afterAll(async () => {
    await api?.stop();
    await h.dispose([repoId]);
  });

  it('a Python traceback: the innermost frame in the repository first, with the frame as its evidence', async () => {
    const issue = [
      'Cart.total crashes with an unknown code',
      '',
      'Traceback (most recent call last):',
      '  File "/home/me/app.py", line 9, in <module>',
      '    cart.total("WINTER")',
      '  File "/venv/lib/python3.11/site-packages/shop/cart.py", line 15, in total',
      '    return apply_discount(subtotal, code)',
      '  File "/venv/lib/python3.11/site-packages/shop/pricing.py", line 5, in apply_discount',
      '    rate = lookup_rate(code)',
      '  File "/venv/lib/python3.11/site-packages/shop/pricing.py", line 11, in lookup_rate',
      '    raise KeyError("unknown discount code")',
      "KeyError: 'unknown discount code'",
    ].join('\n');
    const res = await run(issue);
    expect(names(res)[0]).toBe('lookup_rate');
    expect(names(res).slice(0, 3).sort()).toEqual(['Cart.total', 'apply_discount', 'lookup_rate']);
    const top = res.results[0];
    expect(top.scoreBreakdown.fusion).toBe('localize');
    expect(top.evidence!.map((e) => e.signal)).toEqual(expect.arrayContaining(['frame', 'phrase']));
    expect(top.evidence!.find((e) => e.signal === 'frame')!.detail).toMatch(/^shop\/pricing\.py:11 in lookup_rate/);
    expect(res.files![0]).toMatchObject({ path: 'shop/pricing.py', rank: 1 });
    expect(res.explain.localize!.signals.framesInRepository).toBe(3);
    expect(res.explain.mode).toBe('localize');
  });

  it('a named class spreads to its methods; the edge is in the evidence', async () => {
    const res = await run('Items added to a `Cart` are counted twice\n\nAfter calling add twice the cart holds four items. Expected two.');
    const add = res.results.find((r) => r.scope.qualifiedName === 'Cart.add');
    expect(add).toBeDefined();
    expect(add!.evidence!.some((e) => e.signal === 'member' && e.edge === 'HAS_MEMBER' && e.from === 'Cart')).toBe(true);
    expect(names(res).slice(0, 5)).toContain('Cart.add');
  });

  it('a name no function has, used in a body (a parameter, a query key), finds that body (evidence usage)', async () => {
    const res = await run('Letters are too expensive\n\nWith `weight_kg` below 0.1 the price should be lower; every letter costs the parcel rate.');
    const hit = res.results.find((r) => r.scope.qualifiedName === 'shipping_cost');
    expect(hit).toBeDefined();
    expect(hit!.evidence!.find((e) => e.signal === 'usage')!.detail).toContain('weight_kg');
    expect(res.explain.localize!.lists.find((l) => l.name === 'usage')!.hits).toBeGreaterThan(0);
  });

  it('a shell invocation names its sub-command’s handler (name evidence); a long option finds where it is declared (usage)', async () => {
    const cmd = await run('Export prints nothing\n\n```\n$ shop export\n(empty)\n```\nExpected the rows.');
    const handler = cmd.results.find((r) => r.scope.qualifiedName === 'export_command');
    expect(handler!.evidence!.some((e) => e.signal === 'name' && e.detail.includes('the export command'))).toBe(true);
    const opt = await run('Weight limit is ignored\n\nPassing --max-weight 3 changes nothing.');
    const parser = opt.results.find((r) => r.scope.qualifiedName === 'build_parser');
    expect(parser!.evidence!.find((e) => e.signal === 'usage')!.detail).toContain('max-weight');
  });

  it('inside the best files the issue’s words pick the function (function-match); the best functions’ callees follow (top-neighbor)', async () => {
    const res = await run('Cart total ignores the discount code\n\nThe subtotal is right but the code the customer typed is never applied to the total.');
    expect(names(res)[0]).toBe('Cart.total');
    const total = res.results[0];
    expect(total.evidence!.some((e) => e.signal === 'function-match' && /subtot|code/.test(e.detail))).toBe(true);
    const callee = res.results.find((r) => r.scope.qualifiedName === 'apply_discount');
    expect(callee!.evidence!.some((e) => e.signal === 'top-neighbor' && e.edge === 'CALLS' && e.from === 'Cart.total')).toBe(true);
    expect(res.explain.notes.join(' ')).toMatch(/function-match.*top-neighbor/);
    const after = res.explain.localize!.afterFusion!;
    expect(after.map((s) => s.signal)).toEqual(['file-prior', 'file-sibling', 'function-match', 'top-neighbor', 'contract']);
    expect(after.find((s) => s.signal === 'top-neighbor')!.hits).toBeGreaterThan(0);
  });

  it('a quoted message finds the function that emits it', async () => {
    const res = await run('Shipping fails for letters\n\nI get "parcel weight must be positive" when weight is 0.0 for a letter.');
    expect(names(res)[0]).toBe('shipping_cost');
    expect(res.results[0].evidence!.some((e) => e.signal === 'phrase')).toBe(true);
  });

  it('a Node stack over TypeScript code: the frame\'s function and its file', async () => {
    const res = await run(
      [
        "TypeError: Cannot read properties of undefined (reading 'map')",
        '    at renderOrder (/srv/app/web/src/orders.ts:4:22)',
        '    at main (/srv/app/web/src/index.ts:10:3)',
      ].join('\n'),
    );
    expect(names(res)[0]).toBe('renderOrder');
    expect(res.files![0].path).toBe('web/src/orders.ts');
  });

  it('hybrid hands a pasted traceback to LOCALIZE and says so; a short query stays hybrid', async () => {
    const issue = 'Traceback (most recent call last):\n  File "shop/cart.py", line 15, in total\n  File "shop/pricing.py", line 11, in lookup_rate\nKeyError: x';
    const res = await run(issue, 'hybrid');
    expect(res.explain.mode).toBe('localize');
    expect(res.explain.localize!.chosenBy).toMatch(/hybrid chose LOCALIZE: the text is clearly an issue \(a stack trace/);
    expect(names(res)[0]).toBe('lookup_rate');
    const plain = await run('discount rate lookup', 'hybrid');
    expect(plain.explain.mode).toBe('hybrid');
    const off = defaultPlan('hybrid', issue);
    off.filters = { repository: repoId };
    off.autoLocalize = false;
    expect((await service.execute(off)).explain.mode).toBe('hybrid');
  });

  it("the ask pipeline's retrieval hands an issue to LOCALIZE, a question to hybrid", async () => {
    const retriever = new Retriever(new RagClient(service), service, new SearchRepository(h.neo4j));
    const issue = 'Traceback (most recent call last):\n  File "shop/cart.py", line 15, in total\n  File "shop/pricing.py", line 11, in lookup_rate\nKeyError: x';
    const located = await retriever.retrieve('hybrid', issue, repoId, 5);
    expect(located.mode).toBe('localize');
    expect(located.items[0].qualifiedName).toBe('lookup_rate');
    expect(located.notes[0]).toMatch(/the question is an issue: LOCALIZE/);
    expect((await retriever.retrieve('hybrid', 'how is the discount rate looked up', repoId, 5)).mode).toBe('hybrid');
  });

  it('through GraphQL: a 20 KB log and a 200-frame traceback are cut (explain says so), never a 500; too long is BAD_USER_INPUT', async () => {
    const query = `query($input: SearchInput!) { search(input: $input) { results { scope { qualifiedName } evidence { signal detail edge from } } files { path rank functions } explain warnings } }`;
    const log = Array.from({ length: 300 }, (_, i) => `2024-05-01 10:00:00 ERROR worker_${i} lookup_rate failed: "unknown discount code" while pricing order ${i}`).join('\n');
    expect(log.length).toBeGreaterThan(20_000);
    const logged = await gql(url, query, { input: { text: `Pricing fails in the workers\n${log}`, mode: 'LOCALIZE', repository: repoId } });
    expect(logged.status).toBe(200);
    expect(logged.body.errors).toBeUndefined();
    expect(logged.body.data.search.results[0].scope.qualifiedName).toBe('lookup_rate');
    expect(logged.body.data.search.explain.localize.truncated.length).toBeGreaterThan(0);
    expect(logged.body.data.search.explain.localize.prose.embedded).toMatch(/^Pricing fails in the workers\n/);
    // A long description: the vector list embeds its bounded opening, the keyword list reads it to the query limit.
    const story = `Discount codes are ignored\n${'The cart total ignores the discount code the customer typed, and the receipt shows the full price. '.repeat(20)}`;
    const long = await gql(url, query, { input: { text: story, mode: 'LOCALIZE', repository: repoId } });
    expect(long.status).toBe(200);
    const prose = long.body.data.search.explain.localize.prose;
    expect(prose.text.length).toBeGreaterThan(900);
    expect(prose.embedded).toMatch(/^Discount codes are ignored\nThe cart total ignores/);
    expect(prose.embedded.length).toBeLessThanOrEqual(PROSE_EMBED_CHARS);
    expect(prose.embedded.length).toBeGreaterThan(PROSE_EMBED_CHARS / 2);

    const lines = ['Traceback (most recent call last):'];
    for (let i = 0; i < 199; i++) lines.push(`  File "/venv/lib/python3.11/site-packages/shop/cart.py", line 15, in total`, '    return apply_discount(subtotal, code)');
    lines.push('  File "/venv/lib/python3.11/site-packages/shop/pricing.py", line 11, in lookup_rate', 'RecursionError: maximum recursion depth exceeded');
    const deep = await gql(url, query, { input: { text: lines.join('\n'), repository: repoId } });
    expect(deep.status).toBe(200);
    expect(deep.body.errors).toBeUndefined();
    expect(deep.body.data.search.explain.mode).toBe('localize');
    expect(deep.body.data.search.explain.localize.truncated.join(' ')).toMatch(/200 stack frames, the 60 nearest the error kept/);
    expect(deep.body.data.search.warnings.join(' ')).toMatch(/cut to stay within the query limits/);
    // The recursing function and the innermost frame lead (the deduplicated 199 frames count once).
    expect(deep.body.data.search.results.slice(0, 2).map((r: { scope: { qualifiedName: string } }) => r.scope.qualifiedName).sort()).toEqual(['Cart.total', 'lookup_rate']);

    const tooLong = await gql(url, query, { input: { text: 'x '.repeat(40_000), mode: 'LOCALIZE', repository: repoId } });
    expect(tooLong.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(tooLong.body.errors?.[0].message).toMatch(/text/);
  });
});
