import { MalformedOutputError } from '../rerank.errors';
import {
  CandidateScore,
  FEEDBACK_QUALITIES,
  FeedbackQuality,
  QueryFeedback,
  QuerySuggestion,
  RerankStrategy,
  SUGGESTED_MODES,
  SUGGESTION_TYPES,
  SuggestedSearch,
  SuggestionType,
} from '../rerank.types';

/**
 * Tolerant reading of what an LLM answered (the anchors' parsers throw on malformed output, score
 * empty answers 0, or drop what was not scored). Rules:
 *  - scores are clamped to [0, 1]; "0.7-0.9" is 0.8, "85%" is 0.85, "7/10" is 0.7, "high" is 0.8;
 *    NaN, null, booleans and unreadable text give no score (the candidate stays unscored, never 0);
 *  - an id outside the batch (invented) or seen before (duplicate) is ignored and counted;
 *  - an answer that is not JSON, or has no usable judgement at all, is a MalformedOutputError:
 *    the batch keeps its retrieval order, marked with the reason.
 */

const MAX_REASONING_CHARS = 500;
const MAX_SUGGESTIONS = 5;
const MAX_DESCRIPTION_CHARS = 500;
const MAX_QUERY_TEXT_CHARS = 1_000;
const MAX_FILTER_CHARS = 300;
const MAX_FILTER_ITEMS = 20;
const MAX_TOP_K = 200;
const PERCENT = 100;

/** Words models use instead of numbers. Longer phrases first: "not relevant" before "relevant". */
const SCORE_WORDS: Array<[RegExp, number]> = [
  [/^(not relevant|irrelevant|unrelated|none|zero|no)$/, 0],
  [/^(very low|minimal|negligible)$/, 0.1],
  [/^(low|weak|slight(ly relevant)?)$/, 0.2],
  [/^(medium|moderate|partial(ly relevant)?|somewhat( relevant)?|fair)$/, 0.5],
  [/^(relevant|yes)$/, 0.7],
  [/^(high|strong|highly relevant)$/, 0.8],
  [/^(very high|excellent|perfect|exact|very relevant|extremely relevant)$/, 0.95],
];
const NO_SCORE = /^(n\/?a|nan|null|undefined|unknown|-|)$/;
const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)`;
const RANGE_RE = new RegExp(String.raw`^(${NUMBER})\s*(%?)\s*(?:-|–|—|to|\.\.)\s*(${NUMBER})\s*(%?)$`);
const FRACTION_RE = new RegExp(String.raw`^(${NUMBER})\s*(?:/|out of)\s*(${NUMBER})$`);
const PERCENT_RE = new RegExp(String.raw`^(${NUMBER})\s*%$`);
const LEADING_NUMBER_RE = new RegExp(String.raw`^(${NUMBER})(?![\d.])`);
const ANY_NUMBER_RE = new RegExp(String.raw`(?:^|[^\d.])(${NUMBER})(?![\d.])`);
/** "high (0.8)": a number inside a short phrase still counts; in a long one it may be anything. */
const MAX_PHRASE_CHARS = 40;

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** A score in [0, 1] from whatever the model put there, or null when it gave none we can read. */
export function parseScore(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? clamp01(value) : null;
  if (typeof value !== 'string') return null;
  const s = value.trim().toLowerCase().replace(/\s+/g, ' ');
  if (NO_SCORE.test(s)) return null;
  let m = RANGE_RE.exec(s);
  if (m) {
    const a = Number(m[1]) / (m[2] || m[4] ? PERCENT : 1);
    const b = Number(m[3]) / (m[4] ? PERCENT : 1);
    return Number.isFinite(a) && Number.isFinite(b) ? clamp01((a + b) / 2) : null;
  }
  m = FRACTION_RE.exec(s);
  if (m) {
    const den = Number(m[2]);
    return den > 0 ? clamp01(Number(m[1]) / den) : null;
  }
  m = PERCENT_RE.exec(s);
  if (m) return clamp01(Number(m[1]) / PERCENT);
  for (const [re, score] of SCORE_WORDS) if (re.test(s)) return score;
  m = LEADING_NUMBER_RE.exec(s) ?? (s.length <= MAX_PHRASE_CHARS ? ANY_NUMBER_RE.exec(s) : null);
  if (m) {
    const n = Number(m[1]);
    return Number.isFinite(n) ? clamp01(n) : null;
  }
  return null;
}

export function parseBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (['true', 'yes', 'relevant'].includes(s)) return true;
    if (['false', 'no', 'irrelevant', 'not relevant'].includes(s)) return false;
  }
  return null;
}

/**
 * The JSON value in a model's text: the whole text, else a ```json fence, else the span from the
 * first `{`/`[` to the last `}`/`]`, with trailing commas forgiven.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.length === 0) throw new MalformedOutputError('the model answered nothing', 'empty-output');
  const attempts: string[] = [trimmed];
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  if (fence) attempts.push(fence[1].trim());
  const start = trimmed.search(/[[{]/);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  if (start >= 0 && end > start) attempts.push(trimmed.slice(start, end + 1));
  for (const candidate of attempts) {
    for (const variant of [candidate, candidate.replace(/,\s*([}\]])/g, '$1')]) {
      try {
        return JSON.parse(variant);
      } catch {
        // try the next reading
      }
    }
  }
  throw new MalformedOutputError(`the answer is not JSON: ${JSON.stringify(trimmed.slice(0, 120))}`);
}

export interface ParsedBatch {
  /** By scope id. Candidates the model did not mention are absent. */
  scores: Record<string, CandidateScore>;
  feedback: QueryFeedback | null;
  ignored: { duplicates: number; invented: number };
}

/** How the prompt named the batch's candidates (`s1`, `s2`, ...) and which scope each one is. */
export type LocalIds = Map<string, string>;

/** Reads a judgement of one batch (pointwise scores or a listwise ranking) from the model's text or parsed JSON. */
export function parseBatchAnswer(answer: unknown, localIds: LocalIds, strategy: RerankStrategy): ParsedBatch {
  const json = typeof answer === 'string' ? extractJson(answer) : answer;
  if (json === null || json === undefined) throw new MalformedOutputError('the model answered nothing', 'empty-output');
  return strategy === 'listwise' ? parseListwise(json, localIds) : parsePointwise(json, localIds);
}

const EVALUATION_KEYS = ['evaluations', 'scores', 'results', 'scope_evaluations', 'scopeEvaluations', 'candidates', 'judgements', 'judgments'];
const RANKING_KEYS = ['ranking', 'rankings', 'order', 'ranked', 'ids', 'results'];

function parsePointwise(json: unknown, localIds: LocalIds): ParsedBatch {
  const list = findArray(json, EVALUATION_KEYS);
  if (!list) throw new MalformedOutputError('the answer has no list of evaluations');
  // An entry that is not an object names no candidate: it counts as invented.
  const entries = list.map((entry) => (entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {}));
  const { scores, ignored, kept } = firstJudgements(
    entries,
    localIds,
    (e) => e.id ?? e.scopeId ?? e.scope_id ?? e.index,
    (e) => {
      const rawScore = e.score ?? e.relevance ?? e.relevance_score ?? e.relevanceScore;
      const llm = parseScore(rawScore);
      return {
        llm,
        relevant: parseBoolean(e.relevant ?? e.is_relevant ?? e.isRelevant),
        reasoning: text(e.reasoning ?? e.reason ?? e.explanation, MAX_REASONING_CHARS),
        note: llm === null ? `unreadable-score: ${JSON.stringify(rawScore ?? null).slice(0, 40)}` : null,
      };
    },
  );
  if (kept === 0) {
    throw new MalformedOutputError(
      list.length === 0 ? 'the model returned no evaluations' : `no evaluation named a candidate of the batch (${ignored.invented} unknown ids)`,
      'empty-output',
    );
  }
  return { scores, feedback: parseFeedback(json), ignored };
}

/**
 * Listwise: the batch ordered best first. A position becomes a score on [1/n, 1] (n = batch size),
 * so the first of a batch scores 1; candidates left out of the order stay unscored.
 */
function parseListwise(json: unknown, localIds: LocalIds): ParsedBatch {
  const list = findArray(json, RANKING_KEYS);
  if (!list) throw new MalformedOutputError('the answer has no ranking list');
  const n = localIds.size;
  // A bare value in a ranking is the id itself.
  const entries = list.map((entry) => (entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : { id: entry }));
  const { scores, ignored, kept } = firstJudgements(
    entries,
    localIds,
    (e) => e.id ?? e.scopeId ?? e.index,
    (e, position) => ({
      llm: clamp01((n - position) / n),
      relevant: parseBoolean(e.relevant),
      reasoning: text(e.reasoning ?? e.reason, MAX_REASONING_CHARS),
      note: null,
    }),
  );
  if (kept === 0) {
    throw new MalformedOutputError(list.length === 0 ? 'the model returned an empty ranking' : 'no ranked id named a candidate of the batch', 'empty-output');
  }
  return { scores, feedback: parseFeedback(json), ignored };
}

/**
 * The first judgement of each candidate of the batch, in the model's order: an id outside the batch
 * counts as invented, one seen before as a duplicate, and neither is kept. `judge` gets the entry and
 * how many were kept before it (its rank).
 */
function firstJudgements(
  entries: Array<Record<string, unknown>>,
  localIds: LocalIds,
  idOf: (entry: Record<string, unknown>) => unknown,
  judge: (entry: Record<string, unknown>, kept: number) => CandidateScore,
): { scores: Record<string, CandidateScore>; ignored: ParsedBatch['ignored']; kept: number } {
  const scores: Record<string, CandidateScore> = {};
  const ignored = { duplicates: 0, invented: 0 };
  let kept = 0;
  for (const entry of entries) {
    const scopeId = resolveId(idOf(entry), localIds);
    if (!scopeId) {
      ignored.invented++;
      continue;
    }
    if (scores[scopeId]) {
      ignored.duplicates++;
      continue;
    }
    scores[scopeId] = judge(entry, kept);
    kept++;
  }
  return { scores, ignored, kept };
}

function findArray(json: unknown, keys: string[]): unknown[] | null {
  if (Array.isArray(json)) return json;
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  for (const key of keys) if (Array.isArray(o[key])) return o[key] as unknown[];
  return null;
}

/** `s3`, `S3 `, `"3"` and `3` all name the third candidate; anything else is not a candidate of this batch. */
function resolveId(raw: unknown, localIds: LocalIds): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const s = String(raw).trim().toLowerCase();
  return localIds.get(s) ?? (/^\d+$/.test(s) ? (localIds.get(`s${s}`) ?? null) : null);
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t.length === 0 ? null : t.slice(0, max);
}

/** The query feedback block, reduced to known values; a suggestion's query is kept only as data. */
export function parseFeedback(json: unknown): QueryFeedback | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const raw = (o.feedback ?? o.query_feedback ?? o.queryFeedback) as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object') return null;
  const quality = typeof raw.quality === 'string' ? (raw.quality.trim().toLowerCase() as FeedbackQuality) : undefined;
  if (!quality || !FEEDBACK_QUALITIES.includes(quality)) return null;
  const suggestions: QuerySuggestion[] = [];
  for (const s of Array.isArray(raw.suggestions) ? raw.suggestions : []) {
    if (!s || typeof s !== 'object') continue;
    const r = s as Record<string, unknown>;
    const description = text(r.description, MAX_DESCRIPTION_CHARS);
    if (!description) continue;
    const type = typeof r.type === 'string' && SUGGESTION_TYPES.includes(r.type as SuggestionType) ? (r.type as SuggestionType) : 'other';
    suggestions.push({ type, description, suggestedQuery: parseSuggestedSearch(r.suggestedQuery ?? r.suggested_query) });
    if (suggestions.length === MAX_SUGGESTIONS) break;
  }
  return { quality, suggestions };
}

/** Only a structured search survives; a string (code a model wrote) is dropped, never run. */
export function parseSuggestedSearch(value: unknown): SuggestedSearch | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const q = value as Record<string, unknown>;
  const queryText = text(q.text ?? q.query, MAX_QUERY_TEXT_CHARS);
  if (!queryText) return null;
  const mode = typeof q.mode === 'string' && (SUGGESTED_MODES as readonly string[]).includes(q.mode.toLowerCase()) ? (q.mode.toLowerCase() as SuggestedSearch['mode']) : 'hybrid';
  const topK = typeof q.topK === 'number' && Number.isFinite(q.topK) ? Math.min(MAX_TOP_K, Math.max(1, Math.round(q.topK))) : null;
  const f = (q.filters && typeof q.filters === 'object' ? q.filters : {}) as Record<string, unknown>;
  const list = (v: unknown) =>
    Array.isArray(v)
      ? v
          .filter((x): x is string => typeof x === 'string' && x.trim().length > 0)
          .map((x) => x.trim().slice(0, MAX_FILTER_CHARS))
          .slice(0, MAX_FILTER_ITEMS)
      : [];
  return {
    text: queryText,
    mode,
    topK,
    filters: {
      repository: text(f.repository, MAX_FILTER_CHARS),
      pathContains: text(f.pathContains, MAX_FILTER_CHARS),
      pathGlob: text(f.pathGlob, MAX_FILTER_CHARS),
      languages: list(f.languages),
      kinds: list(f.kinds),
      name: text(f.name, MAX_FILTER_CHARS),
    },
  };
}
