import { subTokenList } from '@scopegraph/code-model';
import { ENGLISH_STOP_WORDS, queryPhrases } from '../query/lucene';
import { queryWords, withoutPackagePath } from '../query/query-text';
import type { KeywordDoc } from './keyword-blend';
import { poolBm25, weightedTerms, type WeightedTerms } from './pool-bm25';
import { stem } from '../query/stem';

/**
 * The second stage of the default search: the fused list's top candidates re-ordered by evidence
 * read from the candidates themselves, which the first stage cannot see together:
 *   - keyword: BM25F of the query's terms over the pool (names weigh most), so a word rare among
 *     the candidates counts more than one they all share;
 *   - phrase: the candidate's body holds a phrase of the query word for word (a pasted message);
 *   - name: the candidate is named by a word of the query;
 *   - name words: the candidate's name is made of two or more words, every one a word of the query
 *     (`loadConfig` for "load the config from disk"). A question in plain words has no
 *     identifier, so this is the only way it can name a scope; without it a one-line helper whose
 *     doc comment repeats the question's words outranked the function named by them;
 *   - container: the candidate's container (its class, enclosing function or file) is a candidate
 *     too. Two scopes of the same region found on their own, say a class by its doc comment and a
 *     method by its body, are better evidence for the region than either alone, and the member is
 *     the more specific answer of the two;
 *   - link: the candidate calls, references, extends, implements or overrides another candidate,
 *     or is called... by one. Code that does what a question describes is usually a few scopes
 *     working together; two of them found independently agree, where a lone match of the words
 *     has nothing around it.
 * final = (1 - w) · fused / max(fused) + w · keyword / max(keyword) + phrase bonus + name bonus
 *         + name words bonus + container bonus + link bonus.
 * Hand-written because it runs on a few dozen fetched candidates per query; a search library would
 * need an index of its own for them.
 */

export interface RescoreParams {
  /** Candidates re-ordered (the fused top N); the rest keep their order after them. */
  depth: number;
  /** Share of the pool keyword score, 0-1. */
  keywordWeight: number;
  /** Added when a query phrase is found verbatim in the body, scaled by the phrase's share of the query's words. */
  phraseBonus: number;
  /** Added when the candidate's name is a word of the query. */
  nameBonus: number;
  /** Added when the candidate's name has two or more words and the query holds each of them (0 or absent: off). */
  nameWordsBonus?: number;
  /** Added when the candidate's container (parent scope) is among the re-ordered candidates too (0 or absent: off). */
  containerBonus?: number;
  /** Added when the candidate has a code edge with another re-ordered candidate (0 or absent: off; the docs must carry `linked`). */
  linkBonus?: number;
  /** Pool BM25: a candidate shorter than the pool's average counts as average-length (no reward for being tiny). */
  shortAsAverage?: boolean;
  /** Compare words by their English stem (converted = convert, listeners = listener). */
  stemming?: boolean;
  /** Field weights of the pool BM25 (default: names 3, signature and doc comment 1.5, source 1). */
  fieldWeights?: { name: number; signature: number; doc: number; source: number };
}

export interface RescoreInput {
  id: string;
  score: number;
}

export interface RescoredItem {
  id: string;
  score: number;
  rescore: { fused: number; keyword: number; phrase: number; name: number; nameWords: number; container: number; link: number };
}

/** A verbatim run this long is full evidence, however much else was pasted around it ("Error: [Lib] ..."). */
const FULL_PHRASE_WORDS = 6;
const FIELD_WEIGHT = { name: 3, signature: 1.5, doc: 1.5, source: 1 } as const;

/** Lower-case identifier sub-tokens and words of a text (`parseFile(x)` -> parsefile, parse, file, x), stemmed on request. */
function tokens(text: string | null | undefined, stemming = false): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}_$]+/u)) {
    if (!word) continue;
    for (const t of wordTokens(word)) out.push(t);
  }
  return stemming ? out.map(stem) : out;
}

/**
 * A word's tokens (itself lower-cased, then its other sub-tokens), remembered: a query's candidates
 * repeat a small vocabulary, and splitting each occurrence again was most of tokens()' time.
 */
const WORD_MEMO_LIMIT = 50_000;
const wordMemo = new Map<string, readonly string[]>();

function wordTokens(word: string): readonly string[] {
  let out = wordMemo.get(word);
  if (out === undefined) {
    const lower = word.toLowerCase();
    out = [lower, ...subTokenList(word).filter((t) => t !== lower)];
    if (wordMemo.size >= WORD_MEMO_LIMIT) wordMemo.clear();
    wordMemo.set(word, out);
  }
  return out;
}

/** The query's searchable terms: its words and their sub-tokens, without English stop words. */
export function rescoreTerms(text: string, stemming = false): string[] {
  const plain = text.split(/(\s+)/u).map(withoutPackagePath).join('');
  return [...new Set(tokens(plain).filter((t) => !ENGLISH_STOP_WORDS.has(t)).map((t) => (stemming ? stem(t) : t)))];
}

/** Plain lower-case words, for word-for-word phrase matching. */
function words(text: string | null | undefined): string[] {
  return text ? text.toLowerCase().split(/[^\p{L}\p{N}_$']+/u).filter(Boolean) : [];
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** What the second stage reads from one candidate, whatever the query: its field-weighted terms and its body's words. */
interface CandidateText {
  terms: WeightedTerms;
  body: string[];
}

/** A candidate read lately: the fields it was read from (compared on reuse, so an edited scope is read again) and what was read. */
interface CandidateRead {
  fields: [string, string | null, string | null, string | null];
  read: CandidateText;
}

/**
 * Candidates read lately, by scope id (least recently used dropped first; ~40 KB each at most): the
 * same scopes come back query after query, and reading them again was ~0.5 ms of a search's CPU on
 * a repository of small scopes and ~4 ms on rxjs's 4,000-character ones (bench/load). Keyed by id
 * and checked field by field rather than keyed by the text itself: building that key copied every
 * candidate's source on every search.
 */
const CANDIDATE_TEXT_CACHE_SIZE = 1_000;
const candidateTexts = new Map<string, CandidateRead>();

function candidateText(d: KeywordDoc, stemming: boolean, fw: NonNullable<RescoreParams['fieldWeights']>): CandidateText {
  const how = `${stemming ? 's' : 'p'}${fw.name},${fw.signature},${fw.doc},${fw.source}`;
  const key = `${how};${d.id}`;
  const hit = candidateTexts.get(key);
  if (hit && hit.fields[0] === d.qualifiedName && hit.fields[1] === d.signature && hit.fields[2] === d.docComment && hit.fields[3] === d.source) {
    // Most recently used last.
    candidateTexts.delete(key);
    candidateTexts.set(key, hit);
    return hit.read;
  }
  const read: CandidateText = {
    terms: weightedTerms([
      [tokens(d.qualifiedName, stemming), fw.name],
      [tokens(d.signature, stemming), fw.signature],
      [tokens(d.docComment, stemming), fw.doc],
      [tokens(d.source, stemming), fw.source],
    ]),
    body: words(`${d.source ?? ''}\n${d.docComment ?? ''}`),
  };
  candidateTexts.delete(key);
  if (candidateTexts.size >= CANDIDATE_TEXT_CACHE_SIZE) candidateTexts.delete(candidateTexts.keys().next().value as string);
  candidateTexts.set(key, { fields: [d.qualifiedName, d.signature, d.docComment, d.source], read });
  return read;
}

/** True when `name` has two or more words (its identifier sub-tokens, stop words aside) and each is one of `terms`. */
function namedByWords(name: string, terms: ReadonlySet<string>, stemming: boolean): boolean {
  const parts = new Set(subTokenList(name).map((t) => t.toLowerCase()).filter((t) => !ENGLISH_STOP_WORDS.has(t)).map((t) => (stemming ? stem(t) : t)));
  if (parts.size < 2) return false;
  for (const t of parts) if (!terms.has(t)) return false;
  return true;
}

export function rescore(fused: RescoreInput[], docs: Map<string, KeywordDoc>, text: string, params: RescoreParams): RescoredItem[] {
  const head = fused.slice(0, params.depth).filter((f) => docs.has(f.id));
  const headIds = new Set(head.map((h) => h.id));
  const tail = fused.filter((f) => !headIds.has(f.id));
  const stemming = params.stemming ?? false;
  const fw = params.fieldWeights ?? FIELD_WEIGHT;
  const terms = rescoreTerms(text, stemming);
  const termSet = new Set(terms);
  // Split like the bodies are (`Python.Runtime.dll` -> python runtime dll), or a dotted word never matches.
  const phrases = queryPhrases(text).map((p) => p.flatMap((w) => words(w)));
  const queryWordCount = Math.max(1, words(text).length);
  const queryNames = new Set(queryWords(text).map((w) => w.replace(/[^\p{L}\p{N}_$.]+/gu, '').toLowerCase()).filter((w) => w.length > 2 && !ENGLISH_STOP_WORDS.has(w)));

  // Pool BM25F: term frequencies weighted by field, lengths normalised over the pool.
  const read = head.map((h) => candidateText(docs.get(h.id)!, stemming, fw));
  const keywordRaw = poolBm25(
    read.map((r) => r.terms),
    terms,
    { shortAsAverage: params.shortAsAverage ?? false },
  );
  const maxKeyword = Math.max(0, ...keywordRaw);
  const maxFused = Math.max(0, ...head.map((h) => h.score));
  const containerBonus = params.containerBonus ?? 0;
  const nameWordsBonus = params.nameWordsBonus ?? 0;
  const linkBonus = params.linkBonus ?? 0;

  const longestPhrase = head.map((_, i) => Math.max(0, ...phrases.filter((p) => containsSequence(read[i].body, p)).map((p) => p.length)));
  // A pasted message belongs to the innermost scope holding it: a container (file, namespace, class)
  // whose own member among the candidates holds as long a phrase gets no phrase bonus of its own. In
  // C++ a message sits in a method, its namespace blocks (one per level) and its file, all verbatim.
  const heldByMember = new Set<string>();
  head.forEach((h, i) => {
    const parent = docs.get(h.id)!.parentId;
    if (parent && longestPhrase[i] > 0) {
      const p = head.findIndex((c) => c.id === parent);
      if (p >= 0 && longestPhrase[i] >= longestPhrase[p]) heldByMember.add(parent);
    }
  });

  const rescored = head.map((h, i) => {
    const d = docs.get(h.id)!;
    const longest = heldByMember.has(h.id) ? 0 : longestPhrase[i];
    const phrase = longest > 0 ? params.phraseBonus * Math.min(1, longest / Math.min(queryWordCount, FULL_PHRASE_WORDS)) : 0;
    const name = queryNames.has(d.name.toLowerCase()) || queryNames.has(d.qualifiedName.toLowerCase()) ? params.nameBonus : 0;
    const nameWords = nameWordsBonus > 0 && namedByWords(d.name, termSet, stemming) ? nameWordsBonus : 0;
    const container = containerBonus > 0 && d.parentId && headIds.has(d.parentId) ? containerBonus : 0;
    const link = linkBonus > 0 && d.linked?.some((id) => headIds.has(id)) ? linkBonus : 0;
    const fusedPart = (1 - params.keywordWeight) * (maxFused > 0 ? h.score / maxFused : 0);
    const keywordPart = params.keywordWeight * (maxKeyword > 0 ? keywordRaw[i] / maxKeyword : 0);
    return { id: h.id, score: fusedPart + keywordPart + phrase + name + nameWords + container + link, rescore: { fused: fusedPart, keyword: keywordPart, phrase, name, nameWords, container, link }, order: i };
  });
  rescored.sort((a, b) => b.score - a.score || a.order - b.order);
  // The tail keeps its order below every rescored candidate.
  const floor = Math.min(0, ...rescored.map((r) => r.score));
  return [
    ...rescored.map(({ order: _order, ...r }) => r),
    ...tail.map((t, i) => ({ id: t.id, score: floor - (i + 1) * 1e-6, rescore: { fused: 0, keyword: 0, phrase: 0, name: 0, nameWords: 0, container: 0, link: 0 } })),
  ];
}
