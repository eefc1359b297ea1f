import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { askModel, callKind, evidenceIds } from '../fakes/ask-scripts';
import { FAKE_GEMINI_API_KEY, FakeGemini, type GenerateRequest } from '../fakes/fake-gemini';
import { pointwiseAnswer } from '../fakes/rerank-scripts';
import { gql } from '../support/graphql-client';
import { FIXTURE } from '../support/ingest-harness';
import { ROOT, RunningStack, startStack } from '../support/processes';

/**
 * The web console in Debian's Chromium, driven by playwright-core, against the real API and worker
 * (their own queue prefix), Neo4j, Redis and the local embedding model; only Gemini is the fake.
 * One user's session: index the fixture from the repositories page (after the read key is refused),
 * search it, rerank the results batch by batch, open a scope's graph, ask a question, delete the
 * repository. It takes a screenshot of each page (see SHOTS).
 */
jest.setTimeout(180_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// machine's closed network refuses.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Every run takes the screenshots; they replace the committed ones in docs/console only when asked
// (CONSOLE_SCREENSHOTS_DIR=docs/console), so a test run leaves the work tree as it was.
const SHOTS = path.resolve(ROOT, process.env.CONSOLE_SCREENSHOTS_DIR ?? '.cache/test/console');
const UI_TIMEOUT_MS = 30_000;
const INDEX_TIMEOUT_MS = 90_000;
const RERANK_BATCH = 5;
const RERANK_RESULTS = 20;
const COPIED_SQL = 'sql/archive/procedures.sql';
const EXPECTED_REFUSAL = /^Failed to load resource: the server responded with a status of 40[13] /;

/** Holds model answers until the test lets them go, so each stage can be looked at. */
class Gate {
  private readonly held: Array<() => void> = [];
  arrived = 0;
  hold(): Promise<void> {
    this.arrived++;
    return new Promise((resolve) => this.held.push(resolve));
  }
  releaseOne(): void {
    this.held.shift()?.();
  }
  releaseAll(): void {
    while (this.held.length > 0) this.releaseOne();
  }
}

/** A scope id of the fixture repository by qualified name, from the ids the prompt showed. */
const idNamed = (ids: string[], name: string) => ids.find((id) => id.includes(`#${name}|`));

const rerankReason = (name: string) =>
  /usp_CreateInvoice/.test(name) ? `${name} inserts the invoice row: this is where an invoice is created` : /invoice/i.test(name) ? `${name} touches invoices but does not create one` : `${name} is unrelated to creating invoices`;

describe('web console in Chromium', () => {
  /** The search the page sends while `act` runs: its input, and the API's answer to that very request. */
  async function searchAnswered(act: () => Promise<unknown>): Promise<{ input: Record<string, unknown>; search: any }> {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/graphql' && (r.request().postData() ?? '').includes('query ConsoleSearch'));
    await act();
    const response = await answered;
    const { variables } = JSON.parse(response.request().postData()!);
    const { data } = await response.json();
    return { input: variables.input, search: data.search };
  }

  const readKey = `read-${Math.random().toString(36).slice(2)}`;
  const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
  // Unique per run like every test repository; named like the fixture since it shows in the screenshots.
  const repo = `polyglot-${Date.now().toString(36)}`;
  const rerankGate = new Gate();
  const answerGate = new Gate();
  let gemini: FakeGemini;
  let stack: RunningStack;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  let workDir: string;
  let repoPath: string;
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  const readHeaders = { 'x-api-key': readKey };

  const api = async (query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await gql(`${base}/graphql`, query, variables, readHeaders);
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  // Transitions finished (progress bars), the answer's cursor still: the same picture every run.
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/chromium.sh installs Debian's chromium (npm test runs it)`);
    // The fixture plus a copy of one file, so search has folded duplicates to show ("also at").
    workDir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-console-'));
    repoPath = path.join(workDir, 'polyglot-repo');
    fs.cpSync(FIXTURE, repoPath, { recursive: true });
    fs.mkdirSync(path.join(repoPath, 'sql/archive'));
    fs.copyFileSync(path.join(repoPath, 'sql/procedures.sql'), path.join(repoPath, COPIED_SQL));
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    const ask = askModel({
      router: '[GRAPH:] who calls formatMoney',
      answer: (request) => {
        const ids = evidenceIds(request);
        const create = idNamed(ids, 'InvoiceService.create');
        const describe = idNamed(ids, 'Invoice.describe');
        return {
          text: `[Answer:] formatMoney is called from two places: InvoiceService.create [cite:${create}] formats the stored amount, and Invoice.describe [cite:${describe}] formats it for display.`,
          pauseAfterFirstChunk: answerGate.hold(),
        };
      },
    });
    gemini.onGenerate(async (request: GenerateRequest) => {
      if (callKind(request) !== 'unknown') return ask(request);
      await rerankGate.hold();
      const feedback = {
        quality: 'good',
        suggestions: [{ type: 'change_semantic', description: 'The stored procedure does the insert: search it by name.', suggestedQuery: { text: 'usp_CreateInvoice', mode: 'bm25', topK: 5, filters: { languages: ['sql'] } } }],
      };
      return { json: pointwiseAnswer(request, { score: (c) => (/usp_CreateInvoice/.test(c.name) ? 0.98 : /invoice/i.test(c.name) ? 0.6 : 0.1), reasoning: (c) => rerankReason(c.name), feedback }) };
    });
    stack = await startStack('console', {
      API_KEY: readKey,
      API_ADMIN_KEY: adminKey,
      GEMINI_API_KEY: FAKE_GEMINI_API_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
      CHAT_PROVIDER: 'gemini',
      RERANK_PROVIDER: 'gemini',
      RERANK_RETRY_BASE_MS: '5',
      INGEST_ALLOWED_ROOTS: workDir,
    });
    base = stack.url.replace(/\/graphql$/, '');
    fs.mkdirSync(SHOTS, { recursive: true });
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-chromium-'));
    // The key the browser's login prompt takes (Basic auth password): the read key.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
      httpCredentials: { username: 'console', password: readKey },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('request', (r) => {
      if (!r.url().startsWith(`${base}/`)) foreignRequests.push(r.url());
    });
    page.on('websocket', (ws) => {
      if (ws.url() !== `${base.replace(/^http/, 'ws')}/graphql`) foreignRequests.push(ws.url());
    });
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The refused calls of the key test are logged by Chromium itself; anything else is a fault.
      if (m.type() === 'error' && !EXPECTED_REFUSAL.test(m.text())) pageErrors.push(`console: ${m.text()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
  });

  afterAll(async () => {
    rerankGate.releaseAll();
    answerGate.releaseAll();
    await context?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
    // The last test deletes the repository through the page; this covers a run that failed before it.
    if (stack) await gql(stack.url, 'mutation($name: String!) { deleteRepository(name: $name) }', { name: repo }, { 'x-api-key': adminKey });
    await stack?.stop();
    await gemini?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('is served at / behind the same rule as every path, with a self-only CSP', async () => {
    const anonymous = await fetch(`${base}/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    const withKey = await fetch(`${base}/`, { headers: readHeaders });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self'; style-src 'self' 'sha256-[^']+'; img-src 'self'; connect-src 'self'/);
    expect(await withKey.text()).toContain('<div id="root">');
  });

  it('indexes a repository from the repositories page: the read key is refused, the admin key entered in the page works', async () => {
    await page.goto(`${base}/#/repositories`);
    const form = page.getByRole('form', { name: 'index a repository' });
    await form.getByLabel('path', { exact: true }).fill(repoPath);
    await form.getByLabel('name', { exact: true }).fill(repo);
    await form.getByRole('button', { name: 'Index' }).click();
    // The browser's login carried the read key: indexing needs the admin key, and the page says so.
    const refusal = form.getByRole('alert').filter({ hasText: 'FORBIDDEN' });
    await expect(refusal.textContent()).resolves.toContain('this operation needs a write or admin key');
    await expect(refusal.textContent()).resolves.toContain('HTTP 403');

    // A wrong key is refused as such (401), then the admin key goes through.
    await enterKey(page, refusal, 'not-the-key');
    await form.getByRole('button', { name: 'Index' }).click();
    const wrong = form.getByRole('alert').filter({ hasText: 'UNAUTHENTICATED' });
    await expect(wrong.textContent()).resolves.toContain('wrong API key');
    await enterKey(page, wrong, adminKey);
    await form.getByRole('button', { name: 'Index' }).click();

    const job = page.locator(`[data-job="${repo}"]`);
    await job.getByLabel('index result').waitFor({ timeout: INDEX_TIMEOUT_MS });
    const { repositories } = await api('{ repositories { name files scopes edges embedded } }');
    const indexed = repositories.find((r: { name: string }) => r.name === repo);
    expect(indexed.scopes).toBeGreaterThan(50);
    // The live counters and the final result both show on the job, as the API reports them.
    const summary = await job.getByLabel('index result').textContent();
    expect(summary).toContain(`scopes${indexed.scopes} (added ${indexed.scopes}, changed 0`);
    expect(summary).toContain(`embedded${indexed.embedded} (${indexed.embedded} this run)`);
    expect(await job.locator('.job-counts').textContent()).toContain(`${indexed.scopes} scopes`);
    const row = page.locator(`tr[data-repo="${repo}"]`);
    await row.waitFor();
    const cells = await row.locator('td.num').allTextContents();
    expect(cells).toEqual([indexed.files, indexed.scopes, indexed.edges, indexed.embedded].map(String));
    await shot('repositories');
  });

  it('searches with filters and shows each hit with its score breakdown, source and structural path', async () => {
    await page.goto(`${base}/#/search`);
    await page.getByLabel('search text', { exact: true }).fill('create an invoice');
    await page.getByLabel('repository', { exact: true }).selectOption(repo);
    await page.getByLabel('top k', { exact: true }).fill(String(RERANK_RESULTS));
    const { input, search } = await searchAnswered(() => page.getByRole('button', { name: 'Search', exact: true }).click());
    const results = page.getByRole('list', { name: 'results', exact: true });
    await results.locator('li').first().waitFor();

    // The page asked the API with the form's input and shows its answer: names, order, ranks and scores
    // per list (read off the page's own request: BM25 scores move while other specs index beside this one).
    expect(input).toMatchObject({ text: 'create an invoice', repository: repo, mode: 'HYBRID', topK: RERANK_RESULTS });
    const names = search.results.map((r: any) => r.scope.qualifiedName);
    expect(names).toContain('InvoiceService.create');
    expect(await results.locator('li .scope-name').allTextContents()).toEqual(names);
    const create = search.results.find((r: any) => r.scope.qualifiedName === 'InvoiceService.create');
    const card = results.locator(`li[data-scope-id="${create.scope.id}"]`);
    const chips = await card.getByLabel('score breakdown').locator('.chip').allTextContents();
    expect(chips).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^semantic #${create.scoreBreakdown.semantic.rank} · `)), expect.stringMatching(new RegExp(`^bm25 #${create.scoreBreakdown.bm25.rank} · `)), 'fusion rrf']));

    // The stored procedure exists twice (the copied file): shown once, with the other path.
    const copied = search.results.find((r: any) => r.scope.qualifiedName === 'dbo.usp_CreateInvoice');
    expect(copied.alsoAt).toHaveLength(1);
    expect([copied.alsoAt[0], copied.scope.id]).toEqual(expect.arrayContaining([expect.stringContaining(COPIED_SQL)]));
    expect(await results.locator(`li[data-scope-id="${copied.scope.id}"] .also-at`).textContent()).toBe(`also at ${copied.alsoAt[0]}`);

    // Selecting a hit shows its source.
    await card.click();
    const preview = page.getByLabel('preview');
    await expect(preview.locator('.source-code').textContent()).resolves.toContain('return formatMoney(invoice.amount);');
    await shot('search');

    // Filters reach the API: only SQL procedures.
    await page.getByLabel('language', { exact: true }).selectOption('sql');
    await page.getByLabel('kind', { exact: true }).selectOption('procedure');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-label="results"] li .kind')].every((k) => k.textContent === 'procedure') && document.querySelectorAll('[aria-label="results"] li').length > 0);
    expect(await results.locator('li .scope-name').allTextContents()).toContain('dbo.usp_CreateInvoice');

    // GRAPH mode answers from the graph, with the path from the named scope, how each edge was made,
    // and that these answers rest on name matching (imports resolved by name, no compiler needed).
    await page.getByLabel('language', { exact: true }).selectOption('');
    await page.getByLabel('kind', { exact: true }).selectOption('');
    await page.getByLabel('search text', { exact: true }).fill('who calls formatMoney');
    await page.getByLabel('mode', { exact: true }).selectOption('GRAPH');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // Arrows point the way the CALLS edges do (from the caller to formatMoney), with how each edge was made.
    await page.locator('.via', { hasText: 'InvoiceService.create -CALLS[name]-> formatMoney' }).first().waitFor();
    expect(await results.locator('li .via').allTextContents()).toEqual(expect.arrayContaining([
      'callers of formatMoney: InvoiceService.create -CALLS[name]-> formatMoney (rests on name matching)',
      'callers of formatMoney: Invoice.describe -CALLS[name]-> formatMoney (rests on name matching)',
    ]));
  });

  it('reranks the results live: progress after every batch, reasoning per hit, suggested searches one click away', async () => {
    const { input, search } = await searchAnswered(() => page.goto(`${base}/#/search?q=${encodeURIComponent('create an invoice')}&mode=HYBRID&repo=${repo}&k=${RERANK_RESULTS}`));
    expect(input).toMatchObject({ text: 'create an invoice', repository: repo, mode: 'HYBRID', topK: RERANK_RESULTS });
    const retrieval: string[] = search.results.map((r: any) => r.scope.qualifiedName);
    const results = page.getByRole('list', { name: 'results', exact: true });
    await waitUntil(async () => JSON.stringify(await results.locator('li .scope-name').allTextContents()) === JSON.stringify(retrieval));
    const batches = Math.ceil(retrieval.length / RERANK_BATCH);
    expect(batches).toBeGreaterThanOrEqual(3);
    await page.getByLabel('batch size', { exact: true }).fill(String(RERANK_BATCH));
    await page.getByRole('button', { name: /^Rerank \d+/ }).click();

    // Every batch reaches the model before any answers (parallel 5); nothing is scored yet.
    await waitUntil(() => rerankGate.arrived >= batches);
    const progress = page.getByRole('progressbar', { name: /batches/ });
    await expect(progress.getAttribute('aria-valuenow')).resolves.toBe('0');

    // One batch answers: the page shows 1 of N and the ranking so far, that batch's hits with reasons.
    rerankGate.releaseOne();
    await page.getByRole('progressbar', { name: `1 / ${batches} batches` }).waitFor();
    const reranked = page.getByRole('list', { name: 'reranked results' });
    await waitUntil(async () => (await reranked.locator('.reasoning').count()) === RERANK_BATCH);
    expect(await reranked.locator('.chip-pending').count()).toBe(retrieval.length - RERANK_BATCH);

    // The rest answer: done = total, and the stored procedure the model preferred moves to the top.
    rerankGate.releaseAll();
    await page.getByRole('progressbar', { name: `${batches} / ${batches} batches · completed` }).waitFor();
    await waitUntil(async () => (await reranked.locator('.reasoning').count()) === retrieval.length);
    const top = reranked.locator('li').first();
    expect(await top.locator('.scope-name').textContent()).toBe('dbo.usp_CreateInvoice');
    expect(await top.locator('.reasoning').textContent()).toBe(rerankReason('usp_CreateInvoice'));
    const from = retrieval.indexOf('dbo.usp_CreateInvoice') + 1;
    expect(await top.locator('.move').textContent()).toBe(from === 1 ? '=' : `▲${from - 1}`);
    expect(await page.getByLabel('query feedback').textContent()).toContain('The stored procedure does the insert: search it by name.');
    await top.click();
    await expect(page.getByLabel('preview').locator('.source-code').textContent()).resolves.toContain('CREATE PROCEDURE');
    await shot('rerank');

    // The suggested search runs in one click, filters included.
    await page.getByRole('link', { name: /usp_CreateInvoice · bm25/ }).click();
    await waitUntil(async () => (await page.getByLabel('search text', { exact: true }).inputValue()) === 'usp_CreateInvoice');
    expect(await page.getByLabel('mode', { exact: true }).inputValue()).toBe('BM25');
    expect(await page.getByLabel('language', { exact: true }).inputValue()).toBe('sql');
    await page.getByRole('list', { name: 'results', exact: true }).locator('li').first().waitFor();
    expect(await page.getByRole('list', { name: 'results', exact: true }).locator('li .scope-name').first().textContent()).toBe('dbo.usp_CreateInvoice');
  });

  it("opens a scope's neighbourhood as a graph whose nodes navigate", async () => {
    const { search } = await api('query($input: SearchInput!) { search(input: $input) { results { scope { id qualifiedName path } } } }', { input: { text: 'InvoiceService create', repository: repo, mode: 'BM25', topK: 5 } });
    // the TypeScript one: the polyglot fixture has a Java InvoiceService.create too
    const create = search.results.find((r: any) => r.scope.qualifiedName === 'InvoiceService.create' && r.scope.path === 'ts/src/services/invoice-service.ts').scope;
    await page.goto(`${base}/#/search?q=InvoiceService+create&mode=BM25&repo=${repo}&k=5`);
    await page.getByRole('list', { name: 'results', exact: true }).locator(`li[data-scope-id="${create.id}"]`).click();
    await page.getByRole('link', { name: /Open scope & graph/ }).click();
    await page.locator('h1 .scope-name', { hasText: 'InvoiceService.create' }).waitFor();

    // The drawn nodes are the API's neighbourhood (depth 2): the root and its neighbours.
    await page.getByLabel('depth', { exact: true }).selectOption('2');
    const { neighborhood } = await api('query($id: ID!) { neighborhood(id: $id, depth: 2, maxNodes: 40, sourceChars: 0) { neighbors { scope { qualifiedName } } } }', { id: create.id });
    const expected = [...new Set<string>(['InvoiceService.create', ...neighborhood.neighbors.map((n: any) => n.scope.qualifiedName)])].sort();
    expect(expected).toEqual(expect.arrayContaining(['formatMoney', 'InvoiceRepository.save', 'InvoiceService']));
    const graph = page.getByTestId('neighborhood-graph');
    await graph.locator('canvas').first().waitFor();
    const drawnLabels = () => graph.evaluate((el: any) => el.cy.nodes().map((n: any) => n.data('label')).sort());
    await waitUntil(async () => JSON.stringify(await drawnLabels()) === JSON.stringify(expected));
    await shot('scope');

    // A click on the formatMoney node (where Cytoscape drew it) opens that scope.
    const at = await graph.evaluate((el: any) => el.cy.nodes().filter((n: any) => n.data('label') === 'formatMoney')[0].renderedPosition());
    const box = (await graph.boundingBox())!;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.locator('h1 .scope-name', { hasText: /^formatMoney$/ }).waitFor();
    expect(decodeURIComponent(await page.evaluate(() => location.hash))).toMatch(/#\/scope\/.*#formatMoney\|function$/);
    await expect(page.locator('.source-code').textContent()).resolves.toContain('formatMoney');
  });

  it('asks a question: steps and the answer stream in, citations link to their scopes', async () => {
    await page.goto(`${base}/#/ask?repo=${repo}`);
    await page.getByLabel('repository', { exact: true }).selectOption(repo);
    await page.getByLabel('question', { exact: true }).fill('Who calls formatMoney?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();

    // The model's stream is held after its first chunk: the first half is on the page, still streaming.
    await waitUntil(() => answerGate.arrived === 1);
    const answer = page.getByLabel('answer', { exact: true });
    await answer.locator('.answer-text.streaming', { hasText: 'formatMoney is called from two places' }).waitFor();
    const trace = page.getByLabel('step trace');
    expect(await trace.locator('tbody tr').count()).toBeGreaterThan(0);
    answerGate.releaseAll();

    const citations = page.getByRole('list', { name: 'citations' });
    await citations.waitFor();
    expect(await citations.locator('a').allTextContents()).toEqual(['InvoiceService.create', 'Invoice.describe']);
    expect(await answer.textContent()).toBe('formatMoney is called from two places: InvoiceService.create [1] formats the stored amount, and Invoice.describe [2] formats it for display.');
    expect(await trace.textContent()).toContain('route graph: who calls formatMoney');
    const steps = await trace.locator('tbody tr td:first-child').allTextContents();
    expect(steps.join(' ')).toMatch(/retrieve/);
    await shot('ask');

    await answer.getByRole('link', { name: '[2]' }).click();
    await page.locator('h1 .scope-name', { hasText: /^Invoice\.describe$/ }).waitFor();
  });

  it('deletes the repository after confirmation', async () => {
    await page.goto(`${base}/#/repositories`);
    const row = page.locator(`tr[data-repo="${repo}"]`);
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'delete repository' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('confirm name', { exact: true }).fill(repo);
    await confirm.click();
    await row.waitFor({ state: 'detached' });
    const { repositories } = await api('{ repositories { name } }');
    expect(repositories.map((r: { name: string }) => r.name)).not.toContain(repo);
  });

  it('made no request outside its own origin and broke no CSP rule', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

/** Enters a key through the page's key form, opened from the error that asked for it. */
async function enterKey(page: Page, error: ReturnType<Page['locator']>, key: string): Promise<void> {
  await error.getByRole('button', { name: 'Enter API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'API key' });
  await dialog.getByLabel('key', { exact: true }).fill(key);
  await dialog.getByRole('button', { name: 'Use this key' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Polls a condition the page or the fake reaches by itself (no fixed sleeps). */
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
