import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { FAKE_GEMINI_API_KEY, FakeGemini, type GenerateRequest } from '../fakes/fake-gemini';
import { gql } from '../support/graphql-client';
import { ROOT, runId, RunningStack, startStack } from '../support/processes';
import { GitRepo } from './git-repo';
import { commitCoChangeHistory, factIds, idOf, indexWithHistory, util } from './review-fixture';

jest.setTimeout(120_000);
const run = promisify(execFile);

const MODEL_TIMEOUT_MS = 1_500;
const MAX_PROMPT_TOKENS = 1_500;
const MAX_OUTPUT_TOKENS = 150;
const INVENTED = 'nowhere:pkg/ghost.py#ghost|function';


const REVIEW = `query($i: ReviewChangeInput!) { reviewChange(input: $i) {
  changedScopes { graphId qualifiedName change } coChangeMissing { scope { qualifiedName } } tests { qualifiedName how }
  writtenReview { status text reason model citations { id qualifiedName path startLine endLine } inventedCitations promptTokens maxPromptTokens factsOmitted diffTruncated outputTruncated warnings }
} }`;

// The written review through the real API process and LangChain's Gemini client, against the fake
// Gemini server: cited ids checked as ask checks them, budgets held, and every way the model can fail
// (slow, hanging, erroring, garbage) turned into a labelled "unavailable" beside the structured review.
describe('reviewChange: the written review', () => {
  let stack: RunningStack;
  let gemini: FakeGemini;
  const name = runId('wreview');
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-wreview-'));
  const git = new GitRepo(tmp);
  let diff: string;
  let bigDiff: string;

  const review = async (input: Record<string, unknown>) => {
    const r = await gql(stack.url, REVIEW, { i: { repository: name, diff, ...input } });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    return r.body.data.reviewChange;
  };

  beforeAll(async () => {
    commitCoChangeHistory(git);
    // The diffs under review: against the indexed tree, which stays as committed.
    git.write({ 'pkg/util.py': util(4) });
    diff = git.git('diff');
    git.write({ 'pkg/util.py': util(4, Array.from({ length: 400 }, (_, i) => `# note ${i}: the helper now adds four instead of three\n`).join('')) });
    bigDiff = git.git('diff');
    git.git('checkout', '--', '.');

    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    stack = await startStack('wreview', {
      INGEST_ALLOWED_ROOTS: fs.realpathSync(os.tmpdir()),
      GEMINI_API_KEY: FAKE_GEMINI_API_KEY,
      GEMINI_BASE_URL: gemini.baseUrl,
      CHAT_PROVIDER: 'gemini',
      REVIEW_MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS),
      REVIEW_MAX_PROMPT_TOKENS: String(MAX_PROMPT_TOKENS),
      REVIEW_MAX_OUTPUT_TOKENS: String(MAX_OUTPUT_TOKENS),
      RERANK_RETRY_BASE_MS: '5',
    });
    await indexWithHistory(stack.url, tmp, name);
  });

  afterEach(() => gemini.reset());

  afterAll(async () => {
    if (stack) await gql(stack.url, 'mutation($n: String!) { deleteRepository(name: $n) }', { n: name }).catch(() => undefined);
    await stack?.stop();
    await gemini?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is asked only when the input asks: no model call otherwise', async () => {
    const r = await review({});
    expect(r.changedScopes).toEqual([{ graphId: expect.stringMatching(/#helper\|function$/), qualifiedName: 'helper', change: 'modified' }]);
    expect(r.coChangeMissing.map((c: { scope: { qualifiedName: string } }) => c.scope.qualifiedName)).toContain('settings');
    expect(r.writtenReview).toBeNull();
    expect(gemini.calls('streamGenerateContent') + gemini.calls('generateContent')).toBe(0);
  });

  it('cites the scopes it was given; an invented citation is dropped and listed, as in ask', async () => {
    let prompt: GenerateRequest | undefined;
    gemini.onGenerate((req) => {
      prompt = req;
      const ids = factIds(req);
      return { text: `Changing helper [cite:${idOf(ids, 'helper')}] reaches run_app [cite:${idOf(ids, 'run_app')}]. settings [cite:${idOf(ids, 'settings')}] usually changes with it and was left alone; also [cite:${INVENTED}].` };
    });
    const r = await review({ writtenReview: true });
    const w = r.writtenReview;
    expect(w).toMatchObject({ status: 'written', reason: null, model: expect.any(String), inventedCitations: [INVENTED] });
    expect(w.citations.map((c: { qualifiedName: string }) => c.qualifiedName)).toEqual(['helper', 'run_app', 'settings']);
    expect(w.citations[0]).toMatchObject({ path: 'pkg/util.py', startLine: 1, endLine: 2 });
    expect(w.text).not.toContain(INVENTED);
    expect(w.text).toContain(`[cite:${r.changedScopes[0].graphId}]`);
    expect(w.warnings).toContain('1 cited ids were not in the facts and were dropped');
    // What the model read: the changed scope, the partner left alone, the covering test, the diff.
    expect(prompt!.text).toMatch(/^\[\S+#helper\|function\] modified function helper \(pkg\/util\.py:1-2\)$/m);
    expect(prompt!.text).toMatch(/settings \(pkg\/conf\.py:1-2\) usually changes with helper \(100% of 3 commits\) but this change leaves it alone/);
    expect(prompt!.text).toMatch(/test_helper .*reaches the changed code/);
    expect(prompt!.text).toContain('+    return x + 4');
    expect(prompt!.system).toContain('[cite:<id>]');
    expect(w.promptTokens).toBeGreaterThan(0);
    expect(w.promptTokens).toBeLessThanOrEqual(MAX_PROMPT_TOKENS);
  });

  it('holds the prompt and the answer to their token budgets', async () => {
    let prompt: GenerateRequest | undefined;
    gemini.onGenerate((req) => {
      prompt = req;
      return { text: `helper [cite:${idOf(factIds(req), 'helper')}] ${'changes a great deal of behaviour in many places '.repeat(30)}` };
    });
    const r = await gql(stack.url, REVIEW, { i: { repository: name, diff: bigDiff, writtenReview: true } });
    const w = r.body.data.reviewChange.writtenReview;
    expect(w).toMatchObject({ status: 'written', diffTruncated: true, outputTruncated: true, maxPromptTokens: MAX_PROMPT_TOKENS });
    expect(w.promptTokens).toBeLessThanOrEqual(MAX_PROMPT_TOKENS);
    expect(prompt!.text).toContain('(diff cut here)');
    expect(prompt!.text).not.toContain('# note 399');
    expect(w.text.split(/\s+/).length).toBeLessThan(MAX_OUTPUT_TOKENS + 5);
    expect(w.citations.map((c: { qualifiedName: string }) => c.qualifiedName)).toEqual(['helper']);
  });

  it('a slow or hanging model: the structured review comes back within the time limit, the written one labelled unavailable', async () => {
    for (const reply of [{ text: 'late', latencyMs: MODEL_TIMEOUT_MS * 4 }, { hang: true }]) {
      gemini.reset();
      gemini.generateNext(1, reply);
      const t0 = Date.now();
      const r = await review({ writtenReview: true });
      expect(Date.now() - t0).toBeLessThan(MODEL_TIMEOUT_MS * 3);
      expect(r.changedScopes).toHaveLength(1);
      expect(r.writtenReview).toMatchObject({ status: 'unavailable', text: null, citations: [], reason: `written review unavailable: the model gave no answer within ${MODEL_TIMEOUT_MS} ms` });
    }
  });

  it('a failing model (HTTP 500 on every retry): unavailable with the status, never a GraphQL error', async () => {
    gemini.generateNext(10, { status: 500, message: 'internal' });
    const r = await review({ writtenReview: true });
    expect(r.writtenReview).toMatchObject({ status: 'unavailable', reason: 'written review unavailable: the model answered HTTP 500' });
    expect(gemini.calls('generateContent')).toBeGreaterThan(1);
    expect(r.coChangeMissing.map((c: { scope: { qualifiedName: string } }) => c.scope.qualifiedName)).toContain('settings');
  });

  it('garbage answers: a body that is not JSON, an empty answer, only invented citations', async () => {
    gemini.corruptNext(10, 'invalidJson', { action: 'generateContent' });
    const broken = await review({ writtenReview: true });
    expect(broken.writtenReview.status).toBe('unavailable');
    expect(broken.writtenReview.reason).toMatch(/^written review unavailable: the model/);

    gemini.reset();
    gemini.generateNext(1, { text: '' });
    expect((await review({ writtenReview: true })).writtenReview.reason).toBe('written review unavailable: the model answered no text');

    gemini.generateNext(1, { text: `[cite:${INVENTED}] [cite:also:made#up|function]` });
    const invented = (await review({ writtenReview: true })).writtenReview;
    expect(invented).toMatchObject({ status: 'unavailable', reason: 'written review unavailable: the model answered nothing but citations it was not given', inventedCitations: [INVENTED, 'also:made#up|function'] });

    gemini.generateNext(1, { text: 'This change looks fine to me.' });
    const uncited = (await review({ writtenReview: true })).writtenReview;
    expect(uncited).toMatchObject({ status: 'written', text: 'This change looks fine to me.', citations: [] });
    expect(uncited.warnings).toContain('the review cites no scope');
  });

  it('the CLI prints it with --written (the MCP tool renders the same text)', async () => {
    gemini.onGenerate((req) => ({ text: `helper [cite:${idOf(factIds(req), 'helper')}] changed.` }));
    const file = path.join(tmp, '..', `${name}.diff`);
    fs.writeFileSync(file, diff);
    try {
      const cli = await run(process.execPath, [path.join(ROOT, 'bin/scopegraph'), 'review', '--repo', name, '--diff', file, '--written'], { env: { ...process.env, SCOPEGRAPH_URL: stack.url }, cwd: ROOT });
      expect(cli.stdout).toMatch(/written review \(\S+\):\nhelper \[cite:\S+#helper\|function\] changed\.\n {2}\[cite:\S+#helper\|function\] helper pkg\/util\.py:1-2/);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
