import { subTokenList } from '@scopegraph/code-model';
import { poolBm25, type WeightedTerms } from '../fusion/pool-bm25';
import { rescoreTerms } from '../fusion/rescore';
import { stem } from '../query/stem';
import type { LocalizeEvidence } from '../search.types';
import { PATH_WORD_BOOST, TEST_FILE_FACTOR, VENDORED_FACTOR } from './priors';

/**
 * LOCALIZE's function-level second stage (agentless-style): once the evidence has pointed at a few
 * files, the engineer reads those files' functions against the issue. Inside the best files every
 * function is scored by the issue's words and identifiers (BM25 with idf taken over those files'
 * functions alone, so a word every function of the file holds counts nothing and the issue's rare
 * words decide), and gains a share of its file's best score by that match. The lists before it find
 * files well and functions less so (bench/localize/README.md: most misses sit in the top files).
 */

/** Files read by the stage: the best ones of the ranking (as the file siblings). */
export const STAGE_FILES = 3;
/** What the best-matching function of a file gains, as a share of its file's best score. */
export const STAGE_SHARE = 0.5;
/** Functions read per file (a large file's later functions are candidates too), and source characters per function. */
export const STAGE_PER_FILE = 150;
export const STAGE_SOURCE_CHARS = 2_000;
/** Field weights (BM25F): a function's own name says most, its body's identifiers and words less. */
const NAME_WEIGHT = 3;
const BODY_WEIGHT = 1;
/** The issue's title is its densest sentence. */
const TITLE_WEIGHT = 2;

/** Words that are code's grammar rather than its meaning, in the languages of the dev set and beyond. */
const CODE_KEYWORDS = new Set(
  (
    'def class self cls return if else elif for while in is not and or none true false null undefined nil this new const let var function ' +
    'async await yield import from export default pub fn impl mut let ref struct enum trait match use mod crate super where type interface ' +
    'public private protected static final void int long bool boolean string str char byte float double func go package defer chan map range ' +
    'try except catch finally raise throw throws lambda pass with as of to the a an it be'
  ).split(' '),
);

/** A function the stage reads: its id, names, the file it is in (index into the stage's files) and its source. */
export interface StageCandidate {
  id: string;
  name: string;
  qualifiedName: string;
  fileIndex: number;
  source: string | null;
}

export interface StageFile {
  path: string;
  best: number;
}

export interface StageMatch {
  id: string;
  /** Raw BM25 of the issue's terms; 0 when nothing matched. */
  score: number;
  /** The matched terms that counted most, for the evidence. */
  terms: string[];
}

/** Lower-case, stemmed terms of code or text: whole identifiers and their sub-tokens, keywords and one-letter words dropped. */
export function stageTokens(text: string | null | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const word of text.split(WORD_SPLIT)) {
    if (!word) continue;
    for (const t of termsOf(word)) out.push(t);
  }
  return out;
}

/** As weightedTerms over stageTokens of each field, with only the `wanted` terms' frequencies kept (the length counts every term). */
export function queryTermFrequencies(wanted: ReadonlySet<string>, fields: ReadonlyArray<readonly [text: string | null | undefined, weight: number]>): WeightedTerms {
  const tf = new Map<string, number>();
  let length = 0;
  for (const [text, weight] of fields) {
    if (!text) continue;
    for (const word of text.split(WORD_SPLIT)) {
      if (!word) continue;
      const terms = termsOf(word);
      length += terms.length * weight;
      for (const t of terms) if (wanted.has(t)) tf.set(t, (tf.get(t) ?? 0) + weight);
    }
  }
  return { tf, length };
}

const WORD_SPLIT = /[^\p{L}\p{N}_$]+/u;
/**
 * Each word's terms, remembered: the stage reads up to 450 functions' bodies per query and code
 * repeats a small vocabulary, so splitting and stemming every occurrence was most of its time
 * (~90 ms a query on 450 functions of SQLAlchemy, ~10x the lookups).
 */
const WORD_MEMO_LIMIT = 50_000;
const wordTerms = new Map<string, readonly string[]>();

function termsOf(word: string): readonly string[] {
  let terms = wordTerms.get(word);
  if (terms === undefined) {
    terms = termsOfWord(word);
    if (wordTerms.size >= WORD_MEMO_LIMIT) wordTerms.clear();
    wordTerms.set(word, terms);
  }
  return terms;
}

function termsOfWord(word: string): readonly string[] {
  if (/^\d/.test(word)) return [];
  const lower = word.toLowerCase();
  const parts = subTokenList(word).map((t) => t.toLowerCase());
  const out: string[] = [];
  for (const t of parts.length > 1 ? [lower, ...parts] : [lower]) {
    if (t.length < 2 || CODE_KEYWORDS.has(t)) continue;
    out.push(stem(t));
  }
  return out;
}

/** The issue's query terms, each once, the title's counted twice (its BM25 sums over the terms). */
export function issueTerms(title: string, text: string): string[] {
  const terms = rescoreTerms(text, true).filter((t) => t.length >= 2 && !CODE_KEYWORDS.has(t) && !/^\d/.test(t));
  const titleTerms = new Set(rescoreTerms(title, true));
  return terms.flatMap((t) => (titleTerms.has(t) ? Array<string>(TITLE_WEIGHT).fill(t) : [t]));
}

/** Each candidate's match with the issue (same order as given). */
export function functionMatches(title: string, text: string, candidates: readonly StageCandidate[]): StageMatch[] {
  if (candidates.length === 0) return [];
  const terms = issueTerms(title, text);
  // BM25 reads only the query's terms' frequencies and each body's length: the rest is not kept.
  const wanted = new Set(terms);
  const docs = candidates.map((c) => queryTermFrequencies(wanted, [
    [c.qualifiedName, NAME_WEIGHT],
    [c.source, BODY_WEIGHT],
  ]));
  const scores = poolBm25(docs, terms, { shortAsAverage: true });
  const unique = [...new Set(terms)];
  // The terms that counted: in the candidate, rarest in the pool first.
  const df = new Map(unique.map((t) => [t, docs.filter((d) => d.tf.has(t)).length]));
  return candidates.map((c, i) => ({
    id: c.id,
    score: scores[i],
    terms: unique.filter((t) => docs[i].tf.has(t)).sort((a, b) => df.get(a)! - df.get(b)! || a.localeCompare(b)).slice(0, 4),
  }));
}

export interface StageRanked {
  id: string;
  score: number;
  evidence: LocalizeEvidence[];
}

/**
 * The ranking with the stage's share added: per file, a function gains STAGE_SHARE x its file's best
 * score x its match relative to the file's best match (new functions join the ranking), best first.
 */
export function withFunctionMatches(ranked: readonly StageRanked[], files: readonly StageFile[], candidates: readonly StageCandidate[], matches: readonly StageMatch[]): StageRanked[] {
  const byId = new Map(ranked.map((r) => [r.id, { ...r, evidence: [...r.evidence] }]));
  const fileBestMatch = new Map<number, number>();
  candidates.forEach((c, i) => fileBestMatch.set(c.fileIndex, Math.max(fileBestMatch.get(c.fileIndex) ?? 0, matches[i].score)));
  const seen = new Set<string>();
  candidates.forEach((c, i) => {
    const m = matches[i];
    const top = fileBestMatch.get(c.fileIndex) ?? 0;
    if (seen.has(c.id) || m.score <= 0 || top <= 0) return;
    seen.add(c.id);
    const file = files[c.fileIndex];
    const relative = m.score / top;
    const contribution = STAGE_SHARE * file.best * relative;
    const entry = byId.get(c.id) ?? { id: c.id, score: 0, evidence: [] };
    entry.score += contribution;
    entry.evidence.push({
      signal: 'function-match',
      detail: `its name and body hold the issue's words (${m.terms.join(', ')}), ${Math.round(relative * 100)}% of the best match in ${file.path}`,
      rank: c.fileIndex + 1,
      contribution: Math.round(contribution * 10_000) / 10_000,
    });
    byId.set(c.id, entry);
  });
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Callees and callers of the strongest functions: once the ranking has settled on a function, the
 * bug is often in a helper it calls (the renderer's text wrapper, the parser's tokenizer) or in the
 * code that calls it with the wrong arguments. The TOP_SEEDS best functions lend each neighbor over
 * CALLS a share of their score (callees more than callers).
 */
export const TOP_SEEDS = 3;
export const TOP_PER_SEED = 8;
export const CALLEE_SHARE = 0.3;
export const CALLER_SHARE = 0.15;

export function withTopNeighbors(
  ranked: readonly StageRanked[],
  seeds: readonly StageRanked[],
  neighbors: readonly { seedIndex: number; fromName: string; id: string; direction: 'in' | 'out' }[],
): StageRanked[] {
  const byId = new Map(ranked.map((r) => [r.id, { ...r, evidence: [...r.evidence] }]));
  const seen = new Set<string>();
  for (const n of neighbors) {
    const seed = seeds[n.seedIndex];
    // A seed does not lend to itself or to another seed (they are ranked already), and a neighbor counts once.
    if (!seed || seen.has(n.id) || seeds.some((s) => s.id === n.id)) continue;
    seen.add(n.id);
    const share = n.direction === 'out' ? CALLEE_SHARE : CALLER_SHARE;
    const contribution = share * seed.score;
    const entry = byId.get(n.id) ?? { id: n.id, score: 0, evidence: [] };
    entry.score += contribution;
    entry.evidence.push({
      signal: 'top-neighbor',
      detail: n.direction === 'out' ? `called by ${n.fromName}, ranked ${n.seedIndex + 1} by the evidence` : `calls ${n.fromName}, ranked ${n.seedIndex + 1} by the evidence`,
      rank: n.seedIndex + 1,
      contribution: Math.round(contribution * 10_000) / 10_000,
      edge: 'CALLS',
      from: n.fromName,
    });
    byId.set(n.id, entry);
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** The stages after the fusion, for explain: each one's evidence signal, the hits it touched and its rule. */
export function afterFusionExplain(ranked: readonly { evidence: readonly { signal: string }[] }[], siblingFiles: number, siblingShare: number): { signal: string; hits: number; rule: string }[] {
  const count = (signal: string) => ranked.filter((r) => r.evidence.some((e) => e.signal === signal)).length;
  return [
    { signal: 'file-prior', hits: count('file-prior'), rule: `score x${TEST_FILE_FACTOR} in a test file or test scope, x${VENDORED_FACTOR} in vendored code, x${1 + PATH_WORD_BOOST} / x${1 + 2 * PATH_WORD_BOOST} when the path shares 1 / 2 or more words with the issue` },
    { signal: 'file-sibling', hits: count('file-sibling'), rule: `every function of the ${siblingFiles} best files gains ${siblingShare} x its file's best score` },
    { signal: 'function-match', hits: count('function-match'), rule: `in those files (up to ${STAGE_PER_FILE} functions each), ${STAGE_SHARE} x the file's best score x the function's BM25 match with the issue (name x${NAME_WEIGHT}, body; idf over those functions) relative to the file's best match` },
    { signal: 'top-neighbor', hits: count('top-neighbor'), rule: `callees of the ${TOP_SEEDS} best functions gain ${CALLEE_SHARE} x its score, callers ${CALLER_SHARE} x` },
    { signal: 'contract', hits: count('contract'), rule: `when one of the ${TOP_SEEDS} best functions is an equality, hashing or ordering method (equals, hashCode, compareTo, __eq__, __hash__, eq, cmp...), the same type's other such methods gain ${CONTRACT_SHARE} x its score` },
  ];
}

/**
 * Equality contracts: equality, hashing and ordering of a type must agree (Java's `equals` /
 * `hashCode` / `compareTo`, Python's `__eq__` / `__hash__` / `__lt__`..., Rust's `eq` / `hash` /
 * `cmp`, C#'s `Equals` / `GetHashCode` / `CompareTo`), so a fix to one of them ("compare
 * `_snapshotInfo` in `Version.compareTo`") changes its partners too, which share none of the issue's
 * words. When one of the TOP_SEEDS best functions is such a method, the same type's other contract
 * methods (read with the best files' functions) gain CONTRACT_SHARE of its score.
 */
export const CONTRACT_SHARE = 0.3;
const CONTRACT_METHODS = new Set(
  'equals hashCode compareTo __eq__ __ne__ __hash__ __lt__ __le__ __gt__ __ge__ __cmp__ eq ne hash cmp partial_cmp Equals GetHashCode CompareTo'.split(' '),
);

export function isContractMethod(name: string): boolean {
  return CONTRACT_METHODS.has(name);
}

/** The type a method belongs to (its qualified name less its own name), or null for a free function. */
function ownerOf(qualifiedName: string, name: string): string | null {
  return qualifiedName.endsWith(`.${name}`) ? qualifiedName.slice(0, -name.length - 1) : null;
}

export function withContractPartners(
  ranked: readonly StageRanked[],
  seeds: readonly (StageRanked & { name: string; qualifiedName: string })[],
  candidates: readonly { id: string; name: string; qualifiedName: string }[],
): StageRanked[] {
  const byId = new Map(ranked.map((r) => [r.id, { ...r, evidence: [...r.evidence] }]));
  const seen = new Set<string>();
  seeds.forEach((seed, i) => {
    const owner = isContractMethod(seed.name) ? ownerOf(seed.qualifiedName, seed.name) : null;
    if (!owner) return;
    for (const c of candidates) {
      if (c.id === seed.id || seen.has(c.id) || seeds.some((s) => s.id === c.id) || !isContractMethod(c.name) || ownerOf(c.qualifiedName, c.name) !== owner) continue;
      seen.add(c.id);
      const contribution = CONTRACT_SHARE * seed.score;
      const entry = byId.get(c.id) ?? { id: c.id, score: 0, evidence: [] };
      entry.score += contribution;
      entry.evidence.push({
        signal: 'contract',
        detail: `${c.qualifiedName} must agree with ${seed.qualifiedName} (equality, hashing and ordering of ${owner}), ranked ${i + 1} by the evidence`,
        rank: i + 1,
        contribution: Math.round(contribution * 10_000) / 10_000,
        from: seed.qualifiedName,
      });
      byId.set(c.id, entry);
    }
  });
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
