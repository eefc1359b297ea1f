import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { GitRepo } from '../impact/git-repo';
import { commitCoChangeHistory, factIds, idOf, indexWithHistory, util } from '../impact/review-fixture';
import { gql } from '../support/graphql-client';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';

/**
 * The console's impact view (scope page) and review page in Debian's Chromium against the real API
 * and worker, on a git repository made here (so history and co-change exist); only Gemini is the
 * fake. Text from code, diffs and the model is shown as text, never as markup.
 */
jest.setTimeout(180_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = path.resolve(ROOT, process.env.CONSOLE_SCREENSHOTS_DIR ?? '.cache/test/console');
const UI_TIMEOUT_MS = 30_000;
const INJECTED = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
const ODD_FILE = 'docs/<b>notes</b>.md';


describe('console: impact view and change review', () => {
  const readKey = `read-${Math.random().toString(36).slice(2)}`;
  const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
  const repo = runId('cimpact');
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-cimpact-'));
  const git = new GitRepo(tmp);
  let gemini: FakeGemini;
  let stack: RunningStack;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  let diff: string;
  const pageErrors: string[] = [];
  const foreignRequests: string[] = [];

  const api = async (query: string, variables: Record<string, unknown> = {}, key = readKey) => {
    const { body } = await gql(`${base}/graphql`, query, variables, { 'x-api-key': key });
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled', caret: 'hide', fullPage: true });

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/chromium.sh installs Debian's chromium (npm test runs it)`);
    commitCoChangeHistory(git);
    // The pasted diff: helper modified, a function added, a file with markup in its name added.
    git.write({ 'pkg/util.py': util(4, '\n\ndef triple(x):\n    return 3 * x\n'), [ODD_FILE]: '# notes\n' });
    git.git('add', '-N', ODD_FILE);
    diff = git.git('diff');
    git.git('reset', '-q', ODD_FILE);
    git.git('checkout', '--', '.');
    fs.rmSync(path.join(tmp, 'docs'), { recursive: true, force: true });

    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    gemini.onGenerate((req) => {
      const ids = factIds(req);
      return { text: `helper [cite:${idOf(ids, 'helper')}] now adds four; settings [cite:${idOf(ids, 'settings')}] usually changes with it. ${INJECTED}` };
    });
    stack = await startStack('cimpact', {
      API_KEY: readKey,
      API_ADMIN_KEY: adminKey,
      GEMINI_API_KEY: FAKE_GEMINI_API_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
      CHAT_PROVIDER: 'gemini',
      RERANK_RETRY_BASE_MS: '5',
      REVIEW_MODEL_TIMEOUT_MS: '3000',
      INGEST_ALLOWED_ROOTS: fs.realpathSync(os.tmpdir()),
    });
    base = stack.url.replace(/\/graphql$/, '');
    await indexWithHistory(`${base}/graphql`, tmp, repo, { 'x-api-key': adminKey });

    fs.mkdirSync(SHOTS, { recursive: true });
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 }, httpCredentials: { username: 'console', password: readKey } });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('request', (r) => {
      if (!r.url().startsWith(`${base}/`)) foreignRequests.push(r.url());
    });
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d /.test(m.text())) pageErrors.push(`console: ${m.text()}`);
    });
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
    if (stack) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: repo }, { 'x-api-key': adminKey }).catch(() => undefined);
    await stack?.stop();
    await gemini?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("shows a scope's impact by depth, each path's edges with how they were made, coverage in words, and what changes with it", async () => {
    const { impact } = await api('query($i: ImpactInput!) { impact(input: $i) { targets { id } levels { depth scopes { scope { qualifiedName } } } coverage { edges nameOnlyEdges testsFound } coChanged { scope { qualifiedName } } } }', {
      i: { repository: repo, qualifiedNames: ['helper'], depth: 2 },
    });
    const helperId: string = impact.targets[0].id;
    await page.goto(`${base}/#/scope/${encodeURIComponent(helperId)}`);
    const view = page.getByLabel('impact', { exact: true });
    const depth1 = view.getByLabel('depth 1', { exact: true });
    await depth1.waitFor();
    // The page shows what the API answers, depth by depth.
    for (const level of impact.levels) {
      const names = await view.getByLabel(`depth ${level.depth}`, { exact: true }).locator('li > a').allTextContents();
      expect(names.sort()).toEqual(level.scopes.map((s: { scope: { qualifiedName: string } }) => s.scope.qualifiedName).sort());
    }
    expect(await depth1.locator('.impact-path').allTextContents()).toEqual(expect.arrayContaining(['run_app -CALLS[name]-> helper', 'test_helper -CALLS[name]-> helper']));
    expect(await depth1.locator('li', { hasText: 'test_helper' }).locator('.test-chip').count()).toBe(1);
    const coverage = await view.getByLabel('coverage').locator('li').allTextContents();
    expect(coverage).toEqual(expect.arrayContaining([`${impact.coverage.nameOnlyEdges} of ${impact.coverage.edges} edges matched by name only (could point at the wrong target); 0 resolved by a compiler or index.`, 'Tests were found among the dependents.']));
    expect(impact.coChanged.map((c: { scope: { qualifiedName: string } }) => c.scope.qualifiedName)).toContain('settings');
    expect(await view.getByLabel('co-changed').locator('li', { hasText: 'settings' }).textContent()).toMatch(/settings pkg\/conf\.py:1-2 100% of 3 commits \(scope\)/);
    await shot('impact');

    // What usually changes with it is read on request: a button, then the fused list (helper's caller
    // run_app comes by its static edge).
    const changesWith = view.getByLabel('changes with', { exact: true });
    expect(await changesWith.locator('li').count()).toBe(0);
    await changesWith.getByRole('button', { name: 'Show what usually changes with it' }).click();
    await changesWith.locator('li', { hasText: 'run_app' }).waitFor();
    expect(await changesWith.locator('li', { hasText: 'run_app' }).getAttribute('data-sources')).toMatch(/static/);

    // Depth 1 only: the deeper level goes, and a dependent's link opens its scope.
    await page.getByLabel('impact depth', { exact: true }).selectOption('1');
    await page.waitForFunction(() => !document.querySelector('[aria-label="impact"] [data-depth="2"]') && !!document.querySelector('[aria-label="impact"] [data-depth="1"]'));
    await depth1.getByRole('link', { name: 'run_app' }).click();
    await page.locator('h1 .scope-name', { hasText: /^run_app$/ }).waitFor();
  });

  it('reviews a pasted diff: changed scopes by kind of change, partners left alone, tests, impact, and the written review with its citations', async () => {
    await page.goto(`${base}/#/review`);
    await page.getByLabel('repository', { exact: true }).selectOption(repo);
    await page.getByLabel('diff', { exact: true }).fill(diff);
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    const written = page.getByLabel('written review', { exact: true }).and(page.locator('section'));
    await written.waitFor();

    const changed = page.getByLabel('changed scopes');
    expect(await changed.getByLabel('modified', { exact: true }).locator('li').allTextContents()).toEqual(['function helper pkg/util.py:1-2']);
    const added = changed.getByLabel('added', { exact: true }).locator('li');
    expect(await added.allTextContents()).toEqual(['function triple pkg/util.py:9-10']);
    expect(await added.locator('a').count()).toBe(0); // not in the graph yet: nothing to open
    expect(await changed.getByLabel('removed', { exact: true }).locator('li').count()).toBe(0);
    expect(await changed.getByLabel('files').textContent()).toContain(`${ODD_FILE} (added +1 −0, not parsed: its scopes are unknown)`);
    expect(await page.getByLabel('co-change partners left alone').locator('li', { hasText: 'settings' }).count()).toBe(1);
    expect(await page.getByLabel('tests', { exact: true }).textContent()).toContain('test_helper tests/test_util.py reaches the changed code');
    expect(await page.getByLabel('impact', { exact: true }).getByLabel('depth 1', { exact: true }).locator('li > a').allTextContents()).toEqual(expect.arrayContaining(['run_app', 'test_helper']));

    // The written review: citations numbered and linked, the model's markup shown as text.
    expect(await written.locator('.answer-text').textContent()).toBe(`helper [1] now adds four; settings [2] usually changes with it. ${INJECTED}`);
    expect(await written.getByLabel('review citations').locator('a').allTextContents()).toEqual(['helper', 'settings']);
    expect(await page.locator('.review-result img, .review-result b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot('review');

    await written.getByRole('link', { name: '[2]' }).click();
    await page.locator('h1 .scope-name', { hasText: /^settings$/ }).waitFor();
  });

  it('says plainly when the written review is unavailable, and still shows the rest', async () => {
    gemini.generateNext(20, { status: 500, message: 'internal' });
    await page.goto(`${base}/#/review?repo=${repo}`);
    await page.getByLabel('diff', { exact: true }).fill(diff);
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    const unavailable = page.locator('.review-unavailable');
    await unavailable.waitFor();
    expect(await unavailable.textContent()).toBe('written review unavailable: the model answered HTTP 500');
    expect(await page.getByLabel('changed scopes').getByLabel('modified', { exact: true }).locator('li').allTextContents()).toEqual(['function helper pkg/util.py:1-2']);
    gemini.reset();
  });

  it('reviews two git refs of the repository', async () => {
    gemini.generateNext(1, { text: 'Both changed together, as history expects.' });
    await page.goto(`${base}/#/review?repo=${repo}`);
    await page.getByLabel('two git refs').check();
    await page.getByLabel('base ref', { exact: true }).fill('HEAD~1');
    await page.getByLabel('head ref', { exact: true }).fill('HEAD');
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    const modified = page.getByLabel('changed scopes').getByLabel('modified', { exact: true }).locator('li');
    await modified.first().waitFor();
    expect((await modified.allTextContents()).sort()).toEqual(['function helper pkg/util.py:1-2', 'function settings pkg/conf.py:1-2']);
    // Both partners changed: none is left alone.
    expect(await page.getByLabel('co-change partners left alone').locator('li', { hasText: 'settings' }).count()).toBe(0);
    expect(await page.getByLabel('written review', { exact: true }).and(page.locator('section')).locator('.answer-text').textContent()).toBe('Both changed together, as history expects.');
  });

  it('a key scoped to other repositories cannot review this one', async () => {
    const { createApiKey } = await api('mutation($i: CreateApiKeyInput!) { createApiKey(input: $i) { key } }', { i: { repositories: ['someone-else-*'], role: 'read' } }, adminKey);
    await page.goto(`${base}/#/review?repo=${repo}`);
    await page.reload(); // a fresh form (the last test left it on two refs)
    await page.locator('.key-button').click();
    const dialog = page.getByRole('dialog', { name: 'API key' });
    await dialog.getByLabel('key', { exact: true }).fill(createApiKey.key);
    await dialog.getByRole('button', { name: 'Use this key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction((name) => ![...document.querySelectorAll('select[aria-label="repository"] option')].some((o) => o.textContent === name), repo);
    await page.getByLabel('diff', { exact: true }).fill(diff);
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'unknown repository' });
    await refusal.waitFor();
    expect(await page.locator('.review-result').count()).toBe(0);
  });

  it('made no request outside its own origin and raised no page error', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
