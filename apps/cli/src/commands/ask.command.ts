import * as fs from 'node:fs';
import { ApiClient, CliError } from '../client';

const ASK = `mutation($input: AskInput!) { ask(input: $input) { id } }`;
const PROGRESS = `subscription($id: ID!) { askProgress(id: $id) {
  kind text message
  step { stepId action outcome ms modelMs }
  result { askId answer answerEn missing loops retries modelAvailable model warnings inventedCitations
    citations { id path startLine endLine qualifiedName }
    plan { mode query fallback }
    timings { totalMs modelMs overheadMs firstChunkMs }
    evidence trace { stepId action outcome ms modelMs modelCalls inputTokens outputTokens detail } }
} }`;

export interface AskOptions {
  repo: string;
  session?: string;
  pipeline?: string;
  notEnglish?: boolean;
  json?: boolean;
  verbose?: boolean;
}

interface Citation {
  id: string;
  path: string;
  startLine: number | null;
  qualifiedName: string;
}

interface AskResultData {
  answer: string;
  citations: Citation[];
  inventedCitations: string[];
  warnings: string[];
  plan: { mode: string; query: string; fallback: string | null } | null;
  timings: { totalMs: number; modelMs: number; overheadMs: number; firstChunkMs: number | null };
  [key: string]: unknown;
}

type ProgressEvent = { askProgress: { kind: string; text?: string; message?: string; step?: { stepId: string; action: string; outcome: string; ms: number }; result?: AskResultData } };

/** One ask through the API; `onChunk` gets the answer as it streams. */
export async function askOnce(client: ApiClient, question: string, opts: AskOptions, hooks: { onChunk?: (t: string) => void; onStep?: (s: NonNullable<ProgressEvent['askProgress']['step']>) => void } = {}): Promise<AskResultData> {
  const input = { question, repository: opts.repo, ...(opts.session ? { sessionId: opts.session } : {}), ...(opts.pipeline ? { pipeline: opts.pipeline } : {}), isEnglish: !opts.notEnglish };
  const { ask } = await client.request<{ ask: { id: string } }>(ASK, { input });
  let result: AskResultData | undefined;
  let failure: string | undefined;
  await client.subscribe<ProgressEvent>(PROGRESS, { id: ask.id }, ({ askProgress: e }) => {
    if (e.kind === 'CHUNK' && e.text) hooks.onChunk?.(e.text);
    else if (e.kind === 'STEP' && e.step) hooks.onStep?.(e.step);
    else if (e.kind === 'FINAL') result = e.result;
    else if (e.kind === 'ERROR') failure = e.message;
  });
  if (failure) throw new CliError(`ask ${ask.id} failed: ${failure}`);
  if (!result) throw new CliError(`ask ${ask.id} ended without a result`);
  return result;
}

/** `scopegraph ask "…" --repo X`: streams the answer, then the citations; `--json` prints the final event. */
export async function askCommand(question: string, opts: AskOptions, client = new ApiClient()): Promise<number> {
  let streamed = false;
  const result = await askOnce(client, question, opts, {
    onChunk: opts.json
      ? undefined
      : (t) => {
          streamed = true;
          process.stdout.write(t);
        },
    onStep: opts.verbose && !opts.json ? (s) => process.stderr.write(`[${s.stepId}: ${s.action} -> ${s.outcome}, ${s.ms} ms]\n`) : undefined,
  });
  if (opts.json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  }
  // Answers that were not streamed (no model, safe finalisation) are printed whole.
  process.stdout.write(streamed ? '\n' : `${result.answer}\n`);
  if (result.citations.length > 0) {
    process.stdout.write('\nSources:\n');
    for (const c of result.citations) process.stdout.write(`  ${c.qualifiedName}  ${c.path}${c.startLine ? `:${c.startLine}` : ''}\n`);
  }
  for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
  const plan = result.plan ? `${result.plan.mode}${result.plan.fallback ? ' (fallback)' : ''}` : 'none';
  process.stderr.write(`(plan ${plan}; ${result.timings.totalMs} ms, model ${result.timings.modelMs} ms)\n`);
  return 0;
}

interface EvalQuestion {
  question: string;
  repository?: string;
  /** Scopes a good answer cites: ids, qualified names or paths. */
  expected: string[];
  isEnglish?: boolean;
}

/**
 * `scopegraph eval-ask questions.jsonl --repo X`: asks every question and reports citation recall
 * (expected scopes cited / expected) and precision, per question and overall. A cited scope matches an
 * expected entry by id, qualified name, or path.
 */
export async function evalAskCommand(file: string, opts: AskOptions, client = new ApiClient()): Promise<number> {
  if (!fs.existsSync(file)) throw new CliError(`no such file: ${file}`);
  const questions = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l)
    .map(([l, line]) => {
      let q: EvalQuestion;
      try {
        q = JSON.parse(l) as EvalQuestion;
      } catch {
        throw new CliError(`${file}:${line}: not JSON`);
      }
      if (typeof q.question !== 'string' || !Array.isArray(q.expected) || q.expected.length === 0) throw new CliError(`${file}:${line}: needs "question" and a non-empty "expected" list`);
      return q;
    });
  const rows: Array<{ question: string; recall: number; precision: number; cited: number; invented: number; ms: number }> = [];
  for (const q of questions) {
    const r = await askOnce(client, q.question, { ...opts, repo: q.repository ?? opts.repo, notEnglish: q.isEnglish === false });
    const matches = (c: Citation, e: string) => c.id === e || c.qualifiedName === e || c.path === e;
    const found = q.expected.filter((e) => r.citations.some((c) => matches(c, e))).length;
    const relevant = r.citations.filter((c) => q.expected.some((e) => matches(c, e))).length;
    rows.push({ question: q.question, recall: found / q.expected.length, precision: r.citations.length ? relevant / r.citations.length : 0, cited: r.citations.length, invented: r.inventedCitations.length, ms: r.timings.totalMs });
    if (!opts.json) process.stdout.write(`${(found / q.expected.length).toFixed(2)}  ${r.citations.length} cited  ${q.question.slice(0, 80)}\n`);
  }
  const mean = (k: 'recall' | 'precision') => rows.reduce((s, r) => s + r[k], 0) / Math.max(1, rows.length);
  const rateLimit = { ...client.rate.stats };
  const summary = { questions: rows.length, citationRecall: mean('recall'), citationPrecision: mean('precision'), invented: rows.reduce((s, r) => s + r.invented, 0), rateLimit };
  if (opts.json) process.stdout.write(JSON.stringify({ summary, rows }, null, 2) + '\n');
  else {
    process.stdout.write(`\ncitation recall ${summary.citationRecall.toFixed(3)}, precision ${summary.citationPrecision.toFixed(3)}, invented citations ${summary.invented} (${rows.length} questions)\n`);
    if (rateLimit.limited || rateLimit.paced) process.stdout.write(`waited ${(rateLimit.waitedMs / 1000).toFixed(1)} s at the API's rate limit (${rateLimit.limited} times rate limited, ${rateLimit.paced} paced); answer times are the server's own\n`);
  }
  return 0;
}
