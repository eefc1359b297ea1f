import { subTokenList } from '@scopegraph/code-model';
import { queryWords, withoutPackagePath } from './query-text';

/**
 * Code-safe Lucene queries for the full-text index.
 *
 * Neo4j parses full-text queries with Lucene's classic query parser: `+ - && || ! ( ) { } [ ] ^ " ~
 * * ? : \ /` and the words AND, OR, NOT change the query's structure, and an unbalanced one is a
 * syntax error. User text therefore never reaches the parser raw: it is cut into words, every
 * character the parser treats specially is backslash-escaped, and operator words are escaped too, so
 * user text only ever becomes plain terms, whatever was typed. The structure around those terms
 * (per-field groups and their boosts) comes from constants in this file.
 */

/** Characters with a meaning in the classic query parser (Lucene's QueryParserBase.escape set). */
const SPECIAL = new Set(['\\', '+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '*', '?', '|', '&', '/']);
/** Whitespace as the query parser sees it, plus every other Unicode space (never inside our terms). */
const WHITESPACE = /\s/u;
const OPERATOR_WORDS = new Set(['AND', 'OR', 'NOT', 'TO']);

/**
 * Escapes one word so the parser reads it as a single term: every special character and any
 * whitespace gets a backslash, control characters are dropped, and an operator word (AND/OR/NOT/TO)
 * has its first letter escaped (`\AND` is the term "AND", not the operator).
 */
export function escapeLuceneTerm(word: string): string {
  let out = '';
  for (const ch of word) {
    if (/\p{Cc}/u.test(ch)) continue;
    out += SPECIAL.has(ch) || WHITESPACE.test(ch) ? `\\${ch}` : ch;
  }
  if (OPERATOR_WORDS.has(out)) out = `\\${out}`;
  return out;
}

/**
 * Upper bound on the tokens the standard analyzer makes of a word: one per run of letters/digits,
 * plus one per ideograph (Han, Hiragana) and pictograph, which it emits one by one. Each token becomes
 * one clause per indexed property, and Lucene refuses queries of more than 1024 clauses.
 */
export function estimatedTokens(word: string): number {
  const runs = word.match(/[\p{L}\p{N}\p{M}]+/gu)?.length ?? 0;
  const singles = word.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Extended_Pictographic}]/gu)?.length ?? 0;
  return runs + singles;
}

/** At most this many estimated tokens per query: × 5 indexed properties stays well under 1024 clauses. */
export const MAX_QUERY_TOKENS = 96;

export interface LuceneQuery {
  /** The escaped query; empty when the text holds nothing searchable (the list is then skipped). */
  query: string;
  /** The unescaped terms, in order: each word, then its identifier sub-tokens. */
  terms: string[];
  /** Words or sub-tokens left out to stay within {@link MAX_QUERY_TOKENS}. */
  dropped: number;
  /** Phrases to match word for word (quoted parts, message fragments), each as its words. */
  phrases: string[][];
  /** Field boosts of the terms (default {@link FIELD_BOOSTS}). */
  boosts?: readonly (readonly [field: string, boost: number])[];
}

/** A stretch of fewer words than this is too common to be worth a phrase clause (unless quoted). */
export const MIN_PHRASE_WORDS = 3;
const MAX_PHRASES = 8;
const MAX_PHRASE_WORDS = 24;
/**
 * Phrase matches in bodies outrank any single-word evidence: text pasted from an error, a log or a
 * config appears verbatim in the scope that produces it (a string literal, a comment).
 */
export const PHRASE_FIELDS: readonly (readonly [field: string, boost: number])[] = [
  ['source', 4],
  ['docComment', 2],
];

/** Quoted stretches: "double", `backtick`, “curly”, and 'single' when the quotes stand apart from words (not it's). */
const QUOTED = /"([^"]+)"|`([^`]+)`|“([^”]+)”|‘([^’]+)’|(?:^|\s)'([^']+)'(?=$|[\s.,;:!?)])/gu;
/**
 * Where a pasted message breaks into separately emitted pieces: labels, brackets, clause punctuation,
 * and numbers or paths standing alone (values a format string filled in: "range end index 12 out of
 * range", "The file config/routes.rb does not appear to exist").
 */
const SEGMENT_BREAK = /[:;[\](){}<>"`|=]|[.!?](?=\s|$)|,\s|\s[-–—]\s|(?<=^|\s)(?:[-+]?\d[\d.,_]*|\S*[/\\]\S*)(?=\s|$)/u;

const phraseWords = (text: string) =>
  queryWords(text)
    .map((w) => w.replace(/^[^\p{L}\p{N}_$]+|[^\p{L}\p{N}_$]+$/gu, ''))
    .filter((w) => estimatedTokens(w) > 0);

/**
 * The phrases of a query: every quoted stretch of two words or more, the stretches between clause
 * punctuation of {@link MIN_PHRASE_WORDS} words or more ("Error: [MobX] Cannot make the object
 * observable; it is not extensible" -> "Cannot make the object observable", "it is not extensible"),
 * the whole text, then (unless something is quoted) each segment of more than {@link MIN_PHRASE_WORDS}
 * words without its first and without its last word. A question that is not pasted text simply matches no phrase.
 */
export function queryPhrases(text: string): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const add = (words: string[], min: number) => {
    const kept = words.slice(0, MAX_PHRASE_WORDS);
    const key = kept.join(' ').toLowerCase();
    if (kept.length < min || seen.has(key) || out.length >= MAX_PHRASES) return;
    seen.add(key);
    out.push(kept);
  };
  let quoted = false;
  for (const m of text.matchAll(QUOTED)) {
    quoted = true;
    add(phraseWords(m.slice(1).find((g) => g !== undefined) ?? ''), 2);
  }
  const segments = text.split(SEGMENT_BREAK).map(phraseWords);
  for (const words of segments) add(words, MIN_PHRASE_WORDS);
  add(phraseWords(text), MIN_PHRASE_WORDS);
  // What follows the last label ("file.cc:135: MARISA_IO_ERROR: ::fflush(file_) != 0") whole, brackets
  // and operators included: a pasted condition or expression is only found as its run of tokens.
  const afterLabel = text.slice(text.lastIndexOf(': ') + 2);
  // Two words are enough when operators say it is code (`origin_ == MAP_FAILED`).
  const labelTokens = afterLabel.split(/[^\p{L}\p{N}_$]+/u).filter(Boolean).length;
  if (text.includes(': ') && labelTokens >= (/[=<>!&|]/u.test(afterLabel) ? 2 : MIN_PHRASE_WORDS)) add(phraseWords(afterLabel), 1);
  // A pasted message carries the values its format string left open, most often at an end
  // ("lz4: backup is a directory -- ignored" from "%s is a directory -- ignored"): each segment
  // without its first word, and without its last, is a phrase too (after the whole ones, so the cap
  // drops these first). Text someone quoted is meant word for word.
  for (const words of quoted ? [] : segments) {
    if (words.length <= MIN_PHRASE_WORDS) continue;
    add(words.slice(1), MIN_PHRASE_WORDS);
    add(words.slice(0, -1), MIN_PHRASE_WORDS);
  }
  return out;
}

/** One phrase clause: its words escaped one by one (the parser removes the escapes inside quotes too). */
export function phraseClause(words: string[]): string {
  return `"${words.map(escapeLuceneTerm).join(' ')}"`;
}

/** Lucene's English stop set: words that match everywhere and rank nothing. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '),
);

/**
 * Field boosts of the keyword query: a term in a scope's name or its sub-tokens says more about the
 * scope than the same term somewhere in its body. Measured on the rxjs dev set (bench/search/tune-hybrid):
 * with stop words dropped, these boosts raise BM25 and hybrid on descriptions, identifiers and graph
 * anchors alike.
 */
export const FIELD_BOOSTS: readonly (readonly [field: string, boost: number])[] = [
  ['nameTokens', 3],
  ['name', 3],
  ['signature', 1.5],
  ['docComment', 1.5],
  ['source', 1],
];

/**
 * Field boosts for a question in plain words: its words are found in prose (doc comments) more than
 * in names, where common words ("when", "values", "run") match the wrong scopes.
 */
export const PROSE_FIELD_BOOSTS: readonly (readonly [field: string, boost: number])[] = [
  ['nameTokens', 1],
  ['name', 1],
  ['signature', 1],
  ['docComment', 3],
  ['source', 1],
];

/**
 * Builds the full-text term list for user text: each word that is not an English stop word
 * (lower-cased, so AND/OR/NOT are plain words; the analyzer lower-cases anyway), followed by its
 * identifier sub-tokens (`parseFileAnalysis` -> `parsefileanalysis parse file analysis`; a qualified
 * name's package path gives none, see {@link withoutPackagePath}),
 * de-duplicated, escaped, joined by spaces (OR). {@link fieldBoostedQuery} spreads it over the fields.
 */
export function buildLuceneQuery(text: string): LuceneQuery {
  const terms: string[] = [];
  const seen = new Set<string>();
  let budget = MAX_QUERY_TOKENS;
  let dropped = 0;
  const add = (term: string) => {
    if (seen.has(term)) return;
    const cost = estimatedTokens(term);
    if (cost === 0) return;
    if (cost > budget) {
      dropped++;
      return;
    }
    seen.add(term);
    budget -= cost;
    terms.push(term);
  };
  const words = queryWords(text);
  const meaningful = words.filter((w) => !ENGLISH_STOP_WORDS.has(w.toLowerCase()));
  // A query made only of stop words ("to be or not to be") keeps them: something must be searched.
  for (const word of meaningful.length > 0 ? meaningful : words) {
    add(word.toLowerCase());
    for (const sub of subTokenList(withoutPackagePath(word))) add(sub);
  }
  return { query: terms.map(escapeLuceneTerm).join(' '), terms, dropped, phrases: queryPhrases(text) };
}

/**
 * The query sent to the full-text index: the flat, escaped term list of {@link buildLuceneQuery}
 * repeated per field with the boosts of {@link FIELD_BOOSTS}. All structure comes from these
 * constants; user text only ever appears as escaped terms inside the groups.
 */
export function fieldBoostedQuery(flat: string, phrases: string[][] = [], boosts: readonly (readonly [field: string, boost: number])[] = FIELD_BOOSTS): string {
  if (flat === '') return '';
  const groups = boosts.map(([field, boost]) => (boost === 1 ? `${field}:(${flat})` : `${field}:(${flat})^${boost}`));
  if (phrases.length > 0) {
    const clauses = phrases.map(phraseClause).join(' ');
    for (const [field, boost] of PHRASE_FIELDS) groups.push(`${field}:(${clauses})^${boost}`);
  }
  return groups.join(' OR ');
}

/** A full-text query of phrases alone (semantic_rerank widens its pool with their hits). */
export function phraseOnlyQuery(phrases: string[][]): string {
  if (phrases.length === 0) return '';
  const clauses = phrases.map(phraseClause).join(' ');
  return PHRASE_FIELDS.map(([field, boost]) => `${field}:(${clauses})^${boost}`).join(' OR ');
}

/** The full-text query of a built query: boosted terms plus its phrases. */
export function keywordQuery(lucene: LuceneQuery): string {
  return fieldBoostedQuery(lucene.query, lucene.phrases, lucene.boosts);
}

/** At most this many repositories go into the repository clause (one clause each); with more, the Cypher filter alone narrows. */
export const MAX_REPOSITORY_CLAUSES = 64;

/**
 * Narrows a full-text query to some repositories inside Lucene (the index holds `repoId`): the index
 * then scores and streams only their scopes, where filtering after the procedure first read every
 * other repository's matches (a 102-scope repository beside a 53k-scope one: 40 ms → 2.6 ms a query).
 * The clause has boost 0, so scores are those of `query` alone. An id is matched as the phrase of its
 * analyzer tokens, so `a-b` also matches `a-b-c`: callers still filter on repoId exactly.
 */
export function withinRepositories(query: string, repoIds: readonly string[]): string {
  if (!query || repoIds.length === 0 || repoIds.length > MAX_REPOSITORY_CLAUSES) return query;
  const ids = repoIds.map((id) => `repoId:"${escapeLuceneTerm(id)}"`).join(' ');
  return `+(${ids})^0 +(${query})`;
}
