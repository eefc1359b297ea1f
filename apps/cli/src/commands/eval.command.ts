import * as fs from 'node:fs';
import * as path from 'node:path';
// The evaluation core is pure and lives with search (libs/search/src/eval); imported by path because
// @scopegraph/search's index does not re-export it.
import {
  buildReport,
  DatasetError,
  type EvalQuery,
  type EvalReport,
  type EvalRun,
  filesInOrder,
  formatTable,
  judge,
  languageRows,
  type LocalizationRun,
  localizationReport,
  localizationRows,
  METRIC_CUTOFFS,
  parseDataset,
  type RankedHit,
  rankedScopes,
  reportRows,
  reportSubsets,
  type Subset,
} from '../../../../libs/search/src/eval';
import { SEARCH_LIMITS, SEARCH_MODES, type SearchMode } from '../../../../libs/search/src/search.types';
import type { RateLimitStats } from '@scopegraph/api-client';
import { ApiClient, CliError } from '../client';

const SCOPE_FIELDS = 'id repoId name qualifiedName kind path';

/** One GraphQL `search` per query and mode: only what judging needs, no source text. */
export const EVAL_SEARCH_QUERY = `query Eval($input: SearchInput!) {
  search(input: $input) {
    results { scope { ${SCOPE_FIELDS} } neighbors { scope { ${SCOPE_FIELDS} } } }
    files { path }
    timings { total }
    warnings
  }
}`;

interface SearchAnswer {
  search: { results: RankedHit[]; files: { path: string }[] | null; timings: { total: number }; warnings: string[] };
}

const RERANK_RESULT_FIELDS = 'jobId status reranker model reason fallbacks llmCalls notes hits { scopeId scope { id name qualifiedName kind path } scoreBreakdown { llm fallbackReason } } files { path }';
/** The same search with `rerank`: the LOCALIZE (or other) hits reordered by the configured reranker. */
export const EVAL_RERANK_SEARCH_QUERY = `query EvalRerank($input: SearchInput!) {
  search(input: $input) {
    timings { total }
    warnings
    rerank { jobId status skipped result { ${RERANK_RESULT_FIELDS} } }
  }
}`;
const EVAL_RERANK_RESULT_QUERY = `query EvalRerankResult($jobId: ID!) { rerankResult(jobId: $jobId) { ${RERANK_RESULT_FIELDS} } }`;

interface RerankAnswer {
  jobId: string;
  status: 'RUNNING' | 'COMPLETED' | string;
  reranker: string;
  model: string | null;
  reason: string | null;
  fallbacks: number;
  llmCalls: number;
  notes: string[];
  hits: { scopeId: string; scope: { id: string; name: string; qualifiedName: string; kind: string; path: string }; scoreBreakdown: { llm: number | null; fallbackReason: string | null } }[];
  files: { path: string }[] | null;
}

/** How the eval asks for a reranked figure. */
export interface EvalRerankOptions {
  /** Candidates the reranker reorders (the search retrieves this many; the page is k). */
  candidates: number;
  /** Waiting for one rerank to complete, at most. */
  timeoutMs: number;
  /** Between two reads of a running rerank's result. */
  pollMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface EvalRunOptions {
  modes: SearchMode[];
  /** Cut-off of nDCG, MRR and Recall (Recall is also reported at 50, Precision at 5). */
  k: number;
  /** Honour the dataset's `expand` specs (default true); false judges the hits alone. */
  expand?: boolean;
  /** Called after each query (all modes), for progress display. */
  onProgress?: (done: number, total: number) => void;
  /** Also measure each mode's hits reranked (system `<mode>+rerank`), with the server's configured reranker. */
  rerank?: EvalRerankOptions;
}

export interface EvalOutput extends EvalReport {
  modes: SearchMode[];
  /** Results requested per search: enough for Recall@50. */
  topK: number;
  expand: boolean;
  /** Server warnings (e.g. a hybrid query answered by one list), with the query and mode. */
  warnings: string[];
  /** Time spent waiting at the API's rate limit, kept out of every latency figure. */
  rateLimit: RateLimitStats;
  /** Issue lines (type `issue`): function/file accuracy per system, overall and per project. */
  localization?: ReturnType<typeof localizationReport>;
  /** With --rerank: which reranker answered (and how often it fell back to retrieval order). */
  rerank?: { candidates: number; rerankers: string[]; reranks: number; fallbacks: number; llmCalls: number };
}

/** --rerank defaults: candidates reordered per search, the wait for one rerank, the poll interval. */
export const EVAL_RERANK_CANDIDATES = 30;
const EVAL_RERANK_TIMEOUT_MS = 300_000;
const EVAL_RERANK_POLL_MS = 250;

/** Results requested per search and neighbors per expansion. */
export function evalTopK(k: number): number {
  return Math.min(SEARCH_LIMITS.maxTopK, Math.max(k, METRIC_CUTOFFS.deepRecall));
}
const EXPAND_MAX_NODES = SEARCH_LIMITS.maxExpandNodes;

/**
 * The evaluation: every query through the real GraphQL `search` in every mode (modes interleaved per
 * query, so each mode sees the same server conditions), judged against the dataset's targets. The
 * search is restricted to the query's repository, as a user of a multi-repository server would.
 */
export async function runEval(queries: readonly EvalQuery[], options: EvalRunOptions, client: ApiClient): Promise<EvalOutput> {
  const { modes, k } = options;
  const expand = options.expand !== false;
  const topK = evalTopK(k);
  await checkRepositories(queries, client);

  const variables = (q: EvalQuery, mode: SearchMode) => ({
    input: {
      // An issue goes whole to LOCALIZE; the other modes get it as they take any query (cut at the
      // query limit), and hybrid is measured as hybrid (not handing the issue to LOCALIZE).
      text: mode === 'localize' ? q.query : q.query.slice(0, SEARCH_LIMITS.maxTextLength),
      ...(mode === 'hybrid' && q.type === 'issue' ? { autoLocalize: false } : {}),
      mode: mode.toUpperCase(),
      topK,
      repository: q.repo,
      sourceChars: 0,
      ...(expand && q.expand
        ? { expand: { depth: q.expand.depth, edges: q.expand.edges, direction: q.expand.direction.toUpperCase(), maxNodes: EXPAND_MAX_NODES } }
        : {}),
    },
  });
  const search = async (q: EvalQuery, mode: SearchMode) => {
    try {
      return await client.request<SearchAnswer>(EVAL_SEARCH_QUERY, variables(q, mode));
    } catch (error) {
      throw new CliError(`query ${JSON.stringify(q.id)} (line ${q.line}, mode ${mode}): ${(error as Error).message}`);
    }
  };

  const reranked = async (q: EvalQuery, mode: SearchMode, r: EvalRerankOptions): Promise<{ answer: RerankAnswer; serverMs: number; warnings: string[] }> => {
    const base = variables(q, mode).input;
    // The page is k (what the figures read); the reranker reorders `candidates` of them.
    const input = { ...base, topK: Math.min(k, r.candidates - 1), rerank: { candidateCount: r.candidates } };
    try {
      const { search: s } = await client.request<{ search: { timings: { total: number }; warnings: string[]; rerank: { jobId: string; status: string; skipped: boolean; result: RerankAnswer | null } | null } }>(EVAL_RERANK_SEARCH_QUERY, { input });
      if (!s.rerank) throw new Error('the server ran no rerank');
      let answer = s.rerank.result;
      const deadline = performance.now() + r.timeoutMs;
      const sleep = r.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
      while (!answer || answer.status !== 'COMPLETED') {
        if (performance.now() > deadline) throw new Error(`rerank ${s.rerank.jobId} did not complete within ${r.timeoutMs} ms`);
        await sleep(r.pollMs);
        answer = (await client.request<{ rerankResult: RerankAnswer }>(EVAL_RERANK_RESULT_QUERY, { jobId: s.rerank.jobId })).rerankResult;
      }
      return { answer, serverMs: s.timings.total, warnings: s.warnings };
    } catch (error) {
      throw new CliError(`query ${JSON.stringify(q.id)} (line ${q.line}, mode ${mode} with rerank): ${(error as Error).message}`);
    }
  };

  // One unmeasured search per mode first: the server loads its embedding model on first use.
  for (const mode of modes) await search(queries[0], mode);
  const rerankSeen = { rerankers: new Set<string>(), reranks: 0, fallbacks: 0, llmCalls: 0 };

  const runs: EvalRun[] = [];
  const issueRuns: LocalizationRun[] = [];
  const warnings: string[] = [];
  const waitedAtStart = { ...client.rate.stats };
  for (const [i, q] of queries.entries()) {
    for (const mode of modes) {
      const started = performance.now();
      const waitedBefore = client.rate.stats.waitedMs;
      const { search: answer } = await search(q, mode);
      // Latency is the round trip alone: time spent waiting at the rate limit is reported apart.
      const latencyMs = performance.now() - started - (client.rate.stats.waitedMs - waitedBefore);
      const ranked = rankedScopes(answer.results, expand && q.expand !== undefined);
      const judgement = judge(ranked, q.repo, q.relevant);
      runs.push({ system: mode, query: q, judgement, returned: ranked.length, latencyMs, serverMs: answer.timings.total });
      if (q.type === 'issue') issueRuns.push({ system: mode, query: q, judgement, files: answer.files ? answer.files.map((f) => f.path) : filesInOrder(ranked.map((r) => r.path)) });
      for (const w of answer.warnings) warnings.push(`${q.id} (${mode}): ${w}`);
      if (options.rerank) {
        const t0 = performance.now();
        const waited = client.rate.stats.waitedMs;
        const rr = await reranked(q, mode, options.rerank);
        const system = `${mode}+rerank`;
        // Every hit is in the query's repository: the search was restricted to it.
        const rankedRr = rr.answer.hits.map((h) => ({ ...h.scope, id: h.scopeId, repoId: q.repo }));
        const judgementRr = judge(rankedRr, q.repo, q.relevant);
        runs.push({ system, query: q, judgement: judgementRr, returned: rankedRr.length, latencyMs: performance.now() - t0 - (client.rate.stats.waitedMs - waited), serverMs: rr.serverMs });
        if (q.type === 'issue') issueRuns.push({ system, query: q, judgement: judgementRr, files: rr.answer.files ? rr.answer.files.map((f) => f.path) : filesInOrder(rankedRr.map((r) => r.path)) });
        for (const w of rr.warnings) warnings.push(`${q.id} (${system}): ${w}`);
        rerankSeen.rerankers.add(rr.answer.model ? `${rr.answer.reranker} (${rr.answer.model})` : rr.answer.reranker);
        rerankSeen.reranks++;
        rerankSeen.fallbacks += rr.answer.fallbacks;
        rerankSeen.llmCalls += rr.answer.llmCalls;
      }
    }
    options.onProgress?.(i + 1, queries.length);
  }
  const rateLimit: RateLimitStats = {
    limited: client.rate.stats.limited - waitedAtStart.limited,
    paced: client.rate.stats.paced - waitedAtStart.paced,
    waitedMs: client.rate.stats.waitedMs - waitedAtStart.waitedMs,
  };
  return {
    ...buildReport(runs, k),
    modes,
    topK,
    expand,
    warnings,
    rateLimit,
    ...(issueRuns.length > 0 ? { localization: localizationReport(issueRuns) } : {}),
    ...(options.rerank ? { rerank: { candidates: options.rerank.candidates, rerankers: [...rerankSeen.rerankers], reranks: rerankSeen.reranks, fallbacks: rerankSeen.fallbacks, llmCalls: rerankSeen.llmCalls } } : {}),
  };
}

async function checkRepositories(queries: readonly EvalQuery[], client: ApiClient): Promise<void> {
  const { repositories } = await client.request<{ repositories: { name: string }[] }>('{ repositories { name } }');
  const known = new Set(repositories.map((r) => r.name));
  const missing = [...new Set(queries.map((q) => q.repo))].filter((r) => !known.has(r));
  if (missing.length > 0) {
    throw new CliError(`the dataset searches repositories that are not indexed: ${missing.join(', ')}. Index them first, e.g. scopegraph index <path> --name ${missing[0]} --exclude-doc-comments`);
  }
}

export function parseModes(value: string): SearchMode[] {
  const modes = value.split(',').map((m) => m.trim().toLowerCase()).filter(Boolean);
  const unknown = modes.filter((m) => !(SEARCH_MODES as readonly string[]).includes(m));
  if (modes.length === 0 || unknown.length > 0) throw new CliError(`--modes: unknown mode ${unknown.join(', ') || '(none)'}; use a comma-separated list of ${SEARCH_MODES.join(', ')}`);
  return [...new Set(modes)] as SearchMode[];
}

/** Reads and checks a dataset file; a bad line is reported with its number and field. */
export function readDataset(file: string): EvalQuery[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the dataset ${file}: ${(error as Error).message}`);
  }
  try {
    return parseDataset(text, path.basename(file));
  } catch (error) {
    if (error instanceof DatasetError) throw new CliError(error.message);
    throw error;
  }
}

/** Human-readable report: one table per subset (all, text questions, graph questions). */
export function formatEval(out: EvalOutput, datasetName: string): string {
  const graph = out.queries.filter((q) => q.system === out.modes[0] && q.subset === 'graph').length;
  const total = out.queries.filter((q) => q.system === out.modes[0]).length;
  const lines = [
    `${datasetName}: ${total} queries (${total - graph} text, ${graph} graph questions${graph > 0 ? (out.expand ? ', judged with expansion' : ', expansion OFF') : ''}); top ${out.topK} per search; latency = GraphQL round trip`,
  ];
  const titles: Record<Subset, string> = {
    all: 'all queries',
    text: 'text questions',
    graph: `graph questions (${out.expand ? 'hits followed by their neighbors' : 'hits only'})`,
    semantic: 'type semantic (behaviour in plain words)',
    lexical: 'type lexical (exact strings)',
    structural: 'type structural (relationships in plain words, no expand)',
    issue: 'type issue (real bug reports; the functions their fix changed)',
  };
  for (const subset of reportSubsets(out)) {
    lines.push('', `${titles[subset]}:`, formatTable(reportRows(out, subset)));
  }
  const perLanguage = languageRows(out);
  if (perLanguage) lines.push('', 'per language (meta.language):', formatTable(perLanguage));
  if (out.localization) {
    lines.push('', 'issue localization (fn Acc@k: every function the fix changed in the top k; file Acc@k: every file in the top k files; any@10: one of them in the top 10):', formatTable(localizationRows(out.localization)));
  }
  if (out.rerank) {
    const r = out.rerank;
    lines.push('', `+rerank: the top ${r.candidates} of each search reordered by ${r.rerankers.join(', ') || 'no reranker'}; ${r.reranks} reranks, ${r.llmCalls} model calls, ${r.fallbacks} batches fell back to retrieval order (a rerank's figures equal its mode's when every batch fell back or no model reranker is configured)`);
  }
  if (out.warnings.length > 0) lines.push('', `${out.warnings.length} server warnings, e.g. ${out.warnings[0]}`);
  const { limited, paced, waitedMs } = out.rateLimit;
  if (limited || paced) lines.push('', `waited ${(waitedMs / 1000).toFixed(1)} s at the API's rate limit (${limited} times rate limited, ${paced} paced); latencies exclude the waiting`);
  return lines.join('\n') + '\n';
}

/** `scopegraph eval --dataset FILE.jsonl [--modes ...] [--k 10] [--json] [--no-expand]` */
export async function evalCommand(
  opts: { dataset: string; modes: string; k: number; json?: boolean; expand?: boolean; rerank?: boolean; rerankCandidates?: number; rerankTimeoutMs?: number },
  client = new ApiClient(),
): Promise<number> {
  const queries = readDataset(opts.dataset);
  const modes = parseModes(opts.modes);
  const interactive = !opts.json && process.stderr.isTTY;
  const out = await runEval(queries, {
    modes,
    k: opts.k,
    expand: opts.expand !== false,
    ...(opts.rerank ? { rerank: { candidates: opts.rerankCandidates ?? EVAL_RERANK_CANDIDATES, timeoutMs: opts.rerankTimeoutMs ?? EVAL_RERANK_TIMEOUT_MS, pollMs: EVAL_RERANK_POLL_MS } } : {}),
    onProgress: (done, total) => {
      if (interactive) process.stderr.write(`\r evaluating ${done}/${total} queries x ${modes.length} modes`);
    },
  }, client);
  if (interactive) process.stderr.write('\n');
  process.stdout.write(opts.json ? JSON.stringify({ dataset: opts.dataset, ...out }) + '\n' : formatEval(out, path.basename(opts.dataset)));
  return 0;
}
