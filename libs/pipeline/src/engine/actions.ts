import { Logger } from '@nestjs/common';
import type { GraphEdgeType } from '@scopegraph/search';
import type { PipelineAction, PipelineStep, ResolvedPipeline } from '../definition/pipeline.types';
import { countJoinedTokens, countTokens, truncateToTokens } from '../budget/tokenizer';
import type { HistoryRepository } from '../history/history.repository';
import { AnswerStreamGate, checkCitations, CitationStreamFilter, parseAnswerOutput, parseRouterOutput } from '../protocol/prefix';
import type { Retriever } from '../retrieval/retriever';
import type { ModelGateway } from './model-gateway';
import {
  answerPrompt,
  evidenceSummaryPrompt,
  EVIDENCE_SEPARATOR,
  formatEvidence,
  formatEvidenceEntry,
  formatHistory,
  historySummaryPrompt,
  Prompt,
  reformulatePrompt,
  routerPrompt,
  translatePrompt,
} from './prompts';
import type { EvidenceItem, PipelineState } from './state';

export interface StepResult {
  outcome: string;
  detail?: Record<string, unknown>;
}

/** What actions may use besides the state; `modelCall` accounts a call to the running step. */
export interface ActionContext {
  pipeline: ResolvedPipeline;
  model: ModelGateway;
  retriever: Retriever;
  history: HistoryRepository;
  /** Streams answer text to the asker. */
  emitChunk: (text: string) => void;
  /** Runs a model call, recording its time and tokens on the current step and in the state. */
  modelCall: (prompt: Prompt, onChunk?: (text: string) => void) => Promise<string>;
}

export type ActionHandler = (state: PipelineState, step: PipelineStep, ctx: ActionContext) => Promise<StepResult>;

const logger = new Logger('PipelineActions');

export const NO_MODEL_MESSAGE =
  'No chat model is configured on this server (set GEMINI_API_KEY, or CHAT_PROVIDER=openai with CHAT_OPENAI_BASE_URL and CHAT_MODEL), so no answer was written.';
const MODEL_UNREACHABLE_MESSAGE = 'The chat model could not be reached, so no answer was written.';
const EMPTY_ANSWER_MESSAGE = 'The chat model returned no answer text, so no answer was written.';

const param = <T>(step: PipelineStep, key: string, fallback: T): T => (step.with[key] as T | undefined) ?? fallback;

/** Calls the model; a failure (after the shared retry policy) is recorded and degrades the step, never hides. */
async function tryModel(state: PipelineState, ctx: ActionContext, prompt: Prompt, onChunk?: (t: string) => void): Promise<{ text: string | null; error: string | null }> {
  if (!ctx.model.available) return { text: null, error: 'no chat model configured' };
  try {
    state.lastError = null;
    return { text: await ctx.modelCall(prompt, onChunk), error: null };
  } catch (error) {
    const message = (error as Error).message;
    logger.warn(`model call failed: ${message}`);
    state.warnings.push(`model call failed: ${message}`);
    state.lastError = message;
    return { text: null, error: message };
  }
}

const translateIn: ActionHandler = async (state, _step, ctx) => {
  if (state.input.isEnglish) return { outcome: 'skipped' };
  const { text, error } = await tryModel(state, ctx, translatePrompt(state.questionOriginal, 'in', state.questionOriginal));
  if (text === null || !text.trim()) {
    const reason = error ?? 'the translation was empty';
    state.warnings.push(`question not translated (${reason}); used as asked`);
    return { outcome: 'untranslated', detail: { reason } };
  }
  state.questionEn = text.trim();
  return { outcome: 'ok', detail: { questionEn: state.questionEn } };
};

const loadHistory: ActionHandler = async (state, _step, ctx) => {
  if (!state.input.sessionId) return { outcome: 'empty', detail: { reason: 'no sessionId' } };
  const loaded = await ctx.history.load(state.input.sessionId);
  state.history.summary = loaded.summary;
  state.history.summaryVersion = loaded.version;
  state.history.summaryUpTo = loaded.upTo;
  state.history.turns = loaded.turns;
  // Formatted and counted by the budget step that follows; counting here too would tokenize twice.
  state.history.forPrompt = formatHistory(loaded.summary, loaded.turns);
  return {
    outcome: loaded.summary === null && loaded.turns.length === 0 ? 'empty' : 'ok',
    detail: { summaryVersion: loaded.version, summaryUpTo: loaded.upTo, newTurns: loaded.turns.length },
  };
};

const checkBudget: ActionHandler = async (state, step, ctx) => {
  const target = param<string>(step, 'target', 'evidence');
  const s = ctx.pipeline.settings;
  if (target === 'history') {
    state.history.forPrompt = formatHistory(state.history.summary, state.history.turns);
    state.history.tokens = countTokens(state.history.forPrompt);
    const over = state.history.tokens > s.max_history_tokens;
    return { outcome: over ? 'over_limit' : 'ok', detail: { target, tokens: state.history.tokens, limit: s.max_history_tokens } };
  }
  state.evidenceForPrompt = formatEvidence(state.evidence);
  state.evidenceTokens = evidenceTokens(state.evidence);
  const over = state.evidenceTokens > s.max_context_tokens;
  return { outcome: over ? 'over_limit' : 'ok', detail: { target, tokens: state.evidenceTokens, limit: s.max_context_tokens, items: state.evidence.length } };
};

const summarizeHistory = async (state: PipelineState, ctx: ActionContext): Promise<StepResult> => {
  const s = ctx.pipeline.settings;
  const h = state.history;
  const upTo = h.turns.length > 0 ? h.turns[h.turns.length - 1].seq : h.summaryUpTo;
  const { text, error: failed } = await tryModel(state, ctx, historySummaryPrompt(state.questionEn, h.summary, h.turns, s.max_history_tokens));
  const error = failed ?? 'the summary was empty';
  // Without a (usable) summary: the newest raw turns that fit, labelled, and nothing persisted.
  if (text === null || !text.trim()) {
    const kept = [...h.turns];
    while (kept.length > 0 && countTokens(formatHistory(h.summary, kept)) > s.max_history_tokens) kept.shift();
    h.turns = kept;
    h.forPrompt = truncateToTokens(formatHistory(h.summary, kept), s.max_history_tokens);
    state.warnings.push(`history over budget and not summarised (${error}): oldest turns left out`);
    return { outcome: 'truncated', detail: { keptTurns: kept.length } };
  }
  const summary = truncateToTokens(text.trim(), s.max_history_tokens);
  const version = h.summaryVersion + 1;
  const tokens = countTokens(summary);
  if (state.input.sessionId) await ctx.history.saveSummary({ sessionId: state.input.sessionId, repository: state.input.repository, version, text: summary, upToSeq: upTo, tokens });
  const summarizedTurns = h.turns.length;
  const hadSummary = h.summary !== null;
  h.summary = summary;
  h.summaryVersion = version;
  h.summaryUpTo = upTo;
  h.turns = [];
  h.forPrompt = formatHistory(summary, []);
  h.tokens = countTokens(h.forPrompt);
  h.resummarized = true;
  return { outcome: 'ok', detail: { version, upToSeq: upTo, summarizedTurns, incremental: hadSummary, tokens } };
};

/** Tokens of formatEvidence(items), entry by entry (cached): the same number, without re-tokenizing what was counted before. */
const evidenceTokens = (items: EvidenceItem[]) => countJoinedTokens(items.map(formatEvidenceEntry), EVIDENCE_SEPARATOR);

/** Keeps every evidence id: ids the summary lost are appended, so citations stay possible. */
export function restoreIdentifiers(summary: string, items: EvidenceItem[]): { text: string; restored: string[] } {
  const restored = items.filter((e) => !summary.includes(e.id)).map((e) => e.id);
  if (restored.length === 0) return { text: summary, restored };
  const lines = items.filter((e) => restored.includes(e.id)).map((e) => `[${e.id}] ${e.kind} ${e.qualifiedName} (${e.path})`);
  return { text: `${summary}\n\nOther evidence ids:\n${lines.join('\n')}`, restored };
}

const summarizeEvidence = async (state: PipelineState, ctx: ActionContext): Promise<StepResult> => {
  const limit = ctx.pipeline.settings.max_context_tokens;
  const before = state.evidenceTokens;
  const { text, error: failed } = await tryModel(state, ctx, evidenceSummaryPrompt(state.questionEn, state.evidenceForPrompt, limit));
  const error = failed ?? 'the summary was empty';
  if (text === null || !text.trim()) {
    // Without a model: whole entries, best first, while they fit.
    const kept: EvidenceItem[] = [];
    for (const e of state.evidence) {
      if (evidenceTokens([...kept, e]) > limit) break;
      kept.push(e);
    }
    state.evidenceForPrompt = formatEvidence(kept);
    state.warnings.push(`evidence over budget and not summarised (${error}): ${state.evidence.length - kept.length} entries left out`);
    state.evidenceTokens = evidenceTokens(kept);
    return { outcome: 'truncated', detail: { before, after: state.evidenceTokens, kept: kept.length } };
  }
  // The summary is held to the budget it was asked for; the ids it lost are added on top, since
  // citations need every id (with many evidence entries that list alone can pass the budget: warned).
  const summary = truncateToTokens(text.trim(), limit);
  const cut = summary.length < text.trim().length;
  const { text: kept, restored } = restoreIdentifiers(summary, state.evidence);
  state.evidenceForPrompt = kept;
  state.evidenceTokens = countTokens(kept);
  state.evidenceSummarized = true;
  if (state.evidenceTokens > limit) state.warnings.push(`evidence summary plus the ${restored.length} ids it left out take ${state.evidenceTokens} tokens, over max_context_tokens ${limit}: every id is kept for citations`);
  return { outcome: 'ok', detail: { before, after: state.evidenceTokens, idsRestored: restored.length, cut } };
};

const callModel: ActionHandler = async (state, step, ctx) => {
  const prompt = param<string>(step, 'prompt', 'answer');
  const s = ctx.pipeline.settings;
  if (prompt === 'history_summary') return summarizeHistory(state, ctx);
  if (prompt === 'evidence_summary') return summarizeEvidence(state, ctx);
  if (prompt === 'router') {
    const { text, error } = await tryModel(state, ctx, routerPrompt(state.questionEn, state.history.forPrompt, s.retrieval_modes));
    state.lastOutput = text;
    state.lastPrompt = 'router';
    return { outcome: text === null ? 'unavailable' : 'ok', detail: text === null ? { reason: error } : { output: text.slice(0, MAX_DETAIL_CHARS) } };
  }
  if (prompt === 'answer') {
    const loopsLeft = s.max_turn_loops - state.counters.loops;
    const streaming = param(step, 'stream', false) && state.input.isEnglish;
    // The stream shows what the final answer will: citations of ids not in the evidence are held back.
    const gate = streaming ? new AnswerStreamGate(ctx.emitChunk, new Set(state.evidence.map((e) => e.id))) : undefined;
    const { text, error } = await tryModel(state, ctx, answerPrompt(state.questionEn, state.history.forPrompt, state.evidenceForPrompt, loopsLeft), gate ? (t) => gate.push(t) : undefined);
    gate?.end();
    state.lastOutput = text;
    state.lastPrompt = 'answer';
    return { outcome: text === null ? 'unavailable' : 'ok', detail: text === null ? { reason: error } : { chars: text.length, streamed: streaming } };
  }
  throw new Error(`step "${step.id}": unknown prompt ${JSON.stringify(prompt)} (router, answer, history_summary, evidence_summary)`);
};

const handlePrefix: ActionHandler = async (state, step, ctx) => {
  const protocol = param<string>(step, 'protocol', 'answer');
  if (protocol === 'router') {
    const plan =
      state.lastOutput === null && ctx.model.available
        ? { mode: 'hybrid' as const, query: state.questionEn, fallback: `router call failed: ${state.lastError ?? 'no output'}` }
        : parseRouterOutput(state.lastOutput, state.questionEn);
    const allowed = ctx.pipeline.settings.retrieval_modes;
    if (plan.mode !== 'direct' && !allowed.includes(plan.mode)) {
      state.plan = { mode: 'hybrid', query: state.questionEn, fallback: `mode ${plan.mode} is not in retrieval_modes` };
    } else state.plan = plan;
    if (state.plan.fallback) {
      logger.warn(`router fallback: ${state.plan.fallback}`);
      state.warnings.push(`router fallback to hybrid on the question: ${state.plan.fallback}`);
    }
    return { outcome: state.plan.mode === 'direct' ? 'direct' : 'retrieve', detail: { plan: state.plan } };
  }
  const evidenceOnly = (why: string): StepResult => {
    state.answerEn = `${why} The evidence retrieved for the question follows.\n\n${formatEvidence(state.evidence) || '(no evidence retrieved)'}`;
    return { outcome: 'answer', detail: { evidenceOnly: true } };
  };
  if (state.lastOutput === null) return evidenceOnly(ctx.model.available ? MODEL_UNREACHABLE_MESSAGE : NO_MODEL_MESSAGE);
  const parsed = parseAnswerOutput(state.lastOutput);
  if (parsed.kind === 'answer' && !parsed.text) {
    logger.warn('answer output holds no answer text: the evidence is shown instead');
    state.warnings.push('the model returned no answer text; the evidence is shown instead');
    return evidenceOnly(EMPTY_ANSWER_MESSAGE);
  }
  if (parsed.kind === 'request') {
    state.request = parsed.text;
    return { outcome: 'request', detail: { request: parsed.text } };
  }
  if (parsed.malformed) {
    logger.warn(`answer output without [Answer:] prefix (${state.lastOutput.length} chars): shown as written`);
    state.warnings.push('the answer did not start with [Answer:]; shown as written');
  }
  const ids = new Set(state.evidence.map((e) => e.id));
  const checked = checkCitations(parsed.text, ids);
  state.answerEn = checked.text;
  state.inventedCitations = checked.invented;
  const byId = new Map(state.evidence.map((e) => [e.id, e]));
  state.citations = checked.valid.map((id) => {
    const e = byId.get(id)!;
    return { id, path: e.path, startLine: e.startLine, endLine: e.endLine, qualifiedName: e.qualifiedName };
  });
  if (checked.invented.length > 0) state.warnings.push(`${checked.invented.length} cited ids were not in the evidence and were dropped`);
  return { outcome: 'answer', detail: { citations: checked.valid.length, invented: checked.invented.length, malformed: parsed.malformed } };
};

/** Adds items not seen yet (first occurrence wins: hits keep their rank). */
function addEvidence(state: PipelineState, items: EvidenceItem[]): number {
  const seen = new Set(state.evidence.map((e) => e.id));
  let added = 0;
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    state.evidence.push(item);
    added++;
  }
  return added;
}

const fetchMoreContext: ActionHandler = async (state, _step, ctx) => {
  const s = ctx.pipeline.settings;
  const plan = state.plan ?? { mode: 'hybrid' as const, query: state.questionEn, fallback: 'no plan' };
  // A follow-up request is a new query; DIRECT and GRAPH plans look it up as hybrid.
  const followUp = state.request !== null;
  const mode = followUp ? (plan.mode === 'direct' || plan.mode === 'graph' ? 'hybrid' : plan.mode) : plan.mode === 'direct' ? 'hybrid' : plan.mode;
  let query = followUp ? state.request! : plan.query;
  const attempts: Array<Record<string, unknown>> = [];
  let result = await ctx.retriever.retrieve(mode, query, state.input.repository, s.retrieval_top_k);
  attempts.push({ query, mode: result.mode, hits: result.items.length, bestScore: round(result.bestScore), reformulated: false });
  state.attempts.push({ query, mode: result.mode, hits: result.items.length, bestScore: result.bestScore, reformulated: false });
  for (let retry = 1; result.bestScore < s.corrective.threshold && retry <= s.corrective.max_retries; retry++) {
    if (!ctx.model.available) {
      attempts.push({ skipped: 'corrective retry needs a chat model' });
      break;
    }
    const { text } = await tryModel(state, ctx, reformulatePrompt(state.questionEn, query));
    const next = text?.split(/\r?\n/).map((l) => l.trim()).find(Boolean);
    if (!next || next === query) {
      attempts.push({ skipped: 'no new query from the model' });
      break;
    }
    query = next;
    state.counters.retries++;
    result = await ctx.retriever.retrieve(mode === 'graph' ? 'hybrid' : mode, query, state.input.repository, s.retrieval_top_k);
    attempts.push({ query, mode: result.mode, hits: result.items.length, bestScore: round(result.bestScore), reformulated: true });
    state.attempts.push({ query, mode: result.mode, hits: result.items.length, bestScore: result.bestScore, reformulated: true });
  }
  const added = addEvidence(state, result.items);
  state.request = null;
  const weak = result.bestScore < s.corrective.threshold;
  if (weak) state.warnings.push(`evidence still weak after ${attempts.filter((a) => 'query' in a).length} retrieval attempt(s): best score ${round(result.bestScore)} < threshold ${s.corrective.threshold}`);
  if (result.notes.length > 0) state.warnings.push(...result.notes.filter((n) => /fell back|skipped/.test(n)));
  return { outcome: result.items.length === 0 ? 'empty' : 'ok', detail: { attempts, added, weak, notes: result.notes } };
};

const expandTree: ActionHandler = async (state, step, ctx) => {
  const s = ctx.pipeline.settings;
  const seeds = state.evidence.filter((e) => e.origin === 'hit').map((e) => e.id);
  const maxNodes = Math.min(s.graph_max_nodes, MAX_EXPAND_NODES);
  const direction = param<'in' | 'out' | 'both'>(step, 'direction', 'both');
  const items = await ctx.retriever.expand(seeds, s.graph_edge_allowlist as GraphEdgeType[], s.graph_max_depth, maxNodes, direction);
  const added = addEvidence(state, items);
  return { outcome: 'ok', detail: { seeds: seeds.length, neighbors: items.length, added, depth: s.graph_max_depth, maxNodes } };
};

const fetchNodeTexts: ActionHandler = async (state, _step, ctx) => {
  const n = ctx.pipeline.settings.node_text_fetch_top_n;
  const wanted = state.evidence.filter((e) => e.text === null && e.origin !== 'neighbor').slice(0, n);
  if (wanted.length === 0) return { outcome: 'ok', detail: { fetched: 0 } };
  const texts = await ctx.retriever.texts(wanted.map((e) => e.id), ctx.pipeline.settings.node_text_chars);
  for (const e of wanted) e.text = texts.get(e.id) ?? null;
  return { outcome: 'ok', detail: { fetched: texts.size, ids: wanted.map((e) => e.id) } };
};

const loopGuard: ActionHandler = async (state, _step, ctx) => {
  state.counters.loops++;
  const max = ctx.pipeline.settings.max_turn_loops;
  if (state.counters.loops <= max) return { outcome: 'ok', detail: { loops: state.counters.loops, max } };
  state.missing = state.request;
  const found = state.evidence.slice(0, MAX_LISTED_EVIDENCE).map((e) => `- ${e.qualifiedName} (${e.path}${e.startLine ? `:${e.startLine}` : ''})`);
  state.answerEn = [
    `I could not answer this fully: after ${max} follow-up lookups the evidence was still not enough.`,
    `Still missing: ${state.request}.`,
    found.length > 0 ? `What was found:\n${found.join('\n')}` : 'Nothing relevant was found.',
  ].join('\n');
  state.request = null;
  return { outcome: 'exhausted', detail: { loops: state.counters.loops, max, missing: state.missing } };
};

const finalize: ActionHandler = async (state, _step, ctx) => {
  const english = state.answerEn ?? '';
  if (state.input.isEnglish || !english) {
    state.answer = english;
    return { outcome: 'ok' };
  }
  // The translation is model text too: a citation it invents is held back and dropped like the answer's.
  const ids = new Set(state.evidence.map((e) => e.id));
  const stream = new CitationStreamFilter(ids, ctx.emitChunk);
  const { text, error } = await tryModel(state, ctx, translatePrompt(english, 'out', state.questionOriginal), (t) => stream.push(t));
  stream.end();
  if (text === null || !text.trim()) {
    state.warnings.push(`answer not translated (${error ?? 'the translation was empty'}); shown in English`);
    state.answer = english;
    return { outcome: 'untranslated' };
  }
  const checked = checkCitations(text.trim(), ids);
  state.answer = checked.text;
  const invented = checked.invented.filter((id) => !state.inventedCitations.includes(id));
  if (invented.length > 0) {
    state.inventedCitations.push(...invented);
    state.warnings.push(`${invented.length} cited ids in the translation were not in the evidence and were dropped`);
  }
  return { outcome: 'ok', detail: { translated: true, invented: invented.length } };
};

const persistTurn: ActionHandler = async (state, _step, ctx) => {
  if (!state.input.sessionId) return { outcome: 'skipped', detail: { reason: 'no sessionId' } };
  const seq = await ctx.history.appendTurn({
    sessionId: state.input.sessionId,
    repository: state.input.repository,
    owner: state.input.owner ?? null,
    turnId: state.input.askId,
    questionOriginal: state.questionOriginal,
    questionEn: state.questionEn,
    answerEn: state.answerEn ?? '',
    answer: state.answer ?? '',
  });
  return { outcome: 'done', detail: { seq } };
};

export const ACTION_HANDLERS: Record<PipelineAction, ActionHandler> = {
  translate_in_if_needed: translateIn,
  load_conversation_history: loadHistory,
  check_context_budget: checkBudget,
  call_model: callModel,
  handle_prefix: handlePrefix,
  fetch_more_context: fetchMoreContext,
  expand_dependency_tree: expandTree,
  fetch_node_texts: fetchNodeTexts,
  loop_guard: loopGuard,
  persist_turn_and_finalize: persistTurn,
  finalize,
};

const MAX_DETAIL_CHARS = 500;
const MAX_EXPAND_NODES = 200;
const MAX_LISTED_EVIDENCE = 10;
const round = (n: number) => Math.round(n * 1000) / 1000;
