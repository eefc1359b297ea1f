import { readFileSync } from 'node:fs';
import {
  inRanges,
  REFERENCE_DROP_RANGES,
  REFERENCE_PLAIN_RANGES,
  REFERENCE_PUNCT_RANGES,
} from './bert-unicode-compat';

/**
 * A BERT WordPiece tokenizer that reads a Hugging Face `tokenizer.json` and reproduces what the
 * reference (Rust) `tokenizers` library does for BERT-style models: BertNormalizer (clean text,
 * isolate CJK ideographs, strip accents, lowercase), BertPreTokenizer (split on whitespace and
 * punctuation), greedy longest-match WordPiece, `[CLS] … [SEP]`, and special tokens written in the
 * raw text (`[SEP]`) kept as themselves.
 *
 * Hand-written because the maintained packages were slower (measured 2026-11 on ~1,200 1-2 KB
 * snippets of this repository, side by side in one process, median of 7 runs): @anush008/tokenizers
 * (the Rust library's bindings) gives the reference ids exactly but took 3.5-6.4x as long (it is
 * async and always tokenizes the whole text before truncating, where this class stops at the token
 * budget); @huggingface/tokenizers (pure JS, also what @huggingface/transformers uses) took 6-11x as
 * long, has no truncation, and differs from the reference on ~7% of random-Unicode texts (newer
 * Unicode punctuation tables). The reference-id spec decides if this is looked at again.
 */

export interface EncodeResult {
  /** Token ids including [CLS] and [SEP]. */
  ids: Int32Array;
}

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
  normalized: boolean;
  single_word?: boolean;
  lstrip?: boolean;
  rstrip?: boolean;
}

interface TokenizerJson {
  added_tokens?: AddedToken[];
  normalizer?: {
    type?: string;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
    strip_accents?: boolean | null;
    lowercase?: boolean;
  } | null;
  pre_tokenizer?: { type?: string } | null;
  post_processor?: {
    type?: string;
    single?: Array<{ SpecialToken?: { id: string }; Sequence?: { id: string } }>;
    cls?: [string, number];
    sep?: [string, number];
  } | null;
  model?: {
    type?: string;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
    vocab?: Record<string, number>;
  };
}

/** Result of normalising one input code point: what it turns into, or a marker. */
const DROP = '';
const SPACE = ' ';

// Same control/whitespace/punctuation notions as the reference normalizer and pre-tokenizer:
// control = Unicode "other" categories except tab/newline/CR (and lone surrogates, which the
// reference never sees because Rust strings cannot hold them); whitespace = White_Space;
// punctuation = any ASCII punctuation or Unicode P* category.
const CONTROL_RE = /^[\p{Cc}\p{Cf}\p{Co}\p{Cs}]$/u;
const WHITESPACE_RE = /^\p{White_Space}$/u;
const PUNCT_RE = /^\p{P}$/u;
const NONSPACING_MARK_RE = /\p{Mn}/gu;
const ASCII_LIMIT = 128;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const REPLACEMENT_CHAR = 0xfffd;

/** Code point ranges the reference treats as CJK ideographs (each becomes its own word). */
const CJK_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x4e00, 0x9fff],
  [0x3400, 0x4dbf],
  [0x20000, 0x2a6df],
  [0x2a700, 0x2b73f],
  [0x2b740, 0x2b81f],
  [0x2b920, 0x2ceaf],
  [0xf900, 0xfaff],
  [0x2f800, 0x2fa1f],
];

function isCjk(cp: number): boolean {
  for (const [lo, hi] of CJK_RANGES) if (cp >= lo && cp <= hi) return true;
  return false;
}

function isAsciiPunct(cp: number): boolean {
  return (cp >= 0x21 && cp <= 0x2f) || (cp >= 0x3a && cp <= 0x40) || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class BertWordPieceTokenizer {
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  readonly unkId: number;

  private readonly vocab: Map<string, number>;
  /** Continuation pieces keyed without their `##` prefix, so lookups need no string concatenation. */
  private readonly continuationVocab: Map<string, number>;
  private readonly maxPieceChars: number;
  private readonly maxInputCharsPerWord: number;
  private readonly lowercase: boolean;
  private readonly stripAccents: boolean;
  private readonly handleChineseChars: boolean;
  private readonly cleanText: boolean;
  private readonly specialTokenIds: Map<string, number>;
  private readonly specialTokenRe: RegExp | null;
  /** First characters of the special tokens: text without any of them skips the special-token scan. */
  private readonly specialStarts: Set<string>;
  private readonly asciiNormalized: string[];
  private readonly normalizedCache = new Map<number, string>();
  private readonly punctCache = new Map<string, boolean>();

  static fromFile(tokenizerJsonPath: string): BertWordPieceTokenizer {
    const json = JSON.parse(readFileSync(tokenizerJsonPath, 'utf8')) as TokenizerJson;
    return new BertWordPieceTokenizer(json, tokenizerJsonPath);
  }

  constructor(json: TokenizerJson, source = 'tokenizer.json') {
    const model = json.model;
    if (model?.type !== 'WordPiece' || !model.vocab) {
      throw new Error(`${source}: expected a WordPiece model, got ${model?.type ?? 'none'}`);
    }
    const norm = json.normalizer;
    if (norm?.type !== 'BertNormalizer') {
      throw new Error(`${source}: expected a BertNormalizer, got ${norm?.type ?? 'none'}`);
    }
    if (json.pre_tokenizer?.type !== 'BertPreTokenizer') {
      throw new Error(`${source}: expected a BertPreTokenizer, got ${json.pre_tokenizer?.type ?? 'none'}`);
    }
    this.cleanText = norm.clean_text ?? true;
    this.handleChineseChars = norm.handle_chinese_chars ?? true;
    this.lowercase = norm.lowercase ?? true;
    // The reference strips accents whenever it lowercases unless told otherwise.
    this.stripAccents = norm.strip_accents ?? this.lowercase;

    this.vocab = new Map(Object.entries(model.vocab));
    const prefix = model.continuing_subword_prefix ?? '##';
    this.continuationVocab = new Map();
    let maxPieceChars = 0;
    for (const [piece, id] of this.vocab) {
      const bare = piece.startsWith(prefix) ? piece.slice(prefix.length) : piece;
      if (piece.startsWith(prefix)) this.continuationVocab.set(bare, id);
      maxPieceChars = Math.max(maxPieceChars, [...bare].length);
    }
    this.maxPieceChars = maxPieceChars;
    this.maxInputCharsPerWord = model.max_input_chars_per_word ?? 100;

    const [clsToken, sepToken] = this.specialTemplate(json, source);
    this.clsId = this.requireId(clsToken, source);
    this.sepId = this.requireId(sepToken, source);
    this.unkId = this.requireId(model.unk_token ?? '[UNK]', source);
    this.padId = this.vocab.get('[PAD]') ?? 0;

    // Special added tokens are matched in raw text. lstrip/rstrip only decide which whitespace the
    // token absorbs, and whitespace yields no WordPiece id, so they change nothing here; a
    // normalised token (MPNet's <unk>) is matched as the lowercasing normaliser would see it.
    // single_word is refused rather than half-supported.
    this.specialTokenIds = new Map();
    const alternatives: string[] = [];
    for (const t of json.added_tokens ?? []) {
      if (t.single_word || (t.normalized && !this.lowercase)) {
        throw new Error(`${source}: added token ${JSON.stringify(t.content)} uses options this tokenizer does not support`);
      }
      this.specialTokenIds.set(t.normalized ? t.content.toLowerCase() : t.content, t.id);
      const pattern = escapeRegExp(t.content);
      alternatives.push(t.normalized ? pattern.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`) : pattern);
    }
    // Longest first, so that a token is never cut short by another that is its prefix.
    alternatives.sort((a, b) => b.length - a.length);
    this.specialTokenRe = alternatives.length ? new RegExp(alternatives.join('|'), 'g') : null;
    this.specialStarts = new Set([...this.specialTokenIds.keys()].map((k) => k[0]));

    this.asciiNormalized = [];
    for (let cp = 0; cp < ASCII_LIMIT; cp++) this.asciiNormalized.push(this.normalizeCodePoint(cp));
  }

  /**
   * Token ids for one text: `[CLS] tokens [SEP]`, truncated so that the whole sequence is at most
   * `maxLength` ids (the tail is dropped, as the reference's truncation does for one sequence).
   */
  encode(text: string, maxLength: number): Int32Array {
    const budget = maxLength - 2;
    if (budget < 0) throw new RangeError(`maxLength must be at least 2, got ${maxLength}`);
    const ids: number[] = [this.clsId];
    const limit = budget + 1; // +1 for the [CLS] already in `ids`
    if (this.specialTokenRe && [...this.specialStarts].some((c) => text.includes(c))) {
      this.specialTokenRe.lastIndex = 0;
      let last = 0;
      for (const m of text.matchAll(this.specialTokenRe)) {
        if (ids.length >= limit) break;
        this.tokenizeSegment(text.slice(last, m.index), ids, limit);
        if (ids.length < limit) ids.push((this.specialTokenIds.get(m[0]) ?? this.specialTokenIds.get(m[0].toLowerCase())) as number);
        last = (m.index as number) + m[0].length;
      }
      if (ids.length < limit) this.tokenizeSegment(text.slice(last), ids, limit);
    } else {
      this.tokenizeSegment(text, ids, limit);
    }
    if (ids.length > limit) ids.length = limit;
    ids.push(this.sepId);
    return Int32Array.from(ids);
  }

  /** Normalised form of the text (for tests and debugging). */
  normalize(text: string): string {
    let out = '';
    for (const ch of text) out += this.normalizedOf(ch.codePointAt(0) as number);
    return out;
  }

  private tokenizeSegment(text: string, ids: number[], limit: number): void {
    let word = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      const norm = this.normalizedOf(cp);
      if (norm.length === 1 && cp < ASCII_LIMIT) {
        // Fast path: ASCII letters, digits, space and punctuation map to exactly one char.
        if (norm === SPACE) {
          if (word) {
            this.wordPiece(word, ids);
            word = '';
          }
        } else if (isAsciiPunct(cp)) {
          if (word) {
            this.wordPiece(word, ids);
            word = '';
          }
          this.wordPiece(norm, ids);
        } else {
          word += norm;
        }
      } else {
        for (const c of norm) {
          if (c === SPACE) {
            if (word) {
              this.wordPiece(word, ids);
              word = '';
            }
          } else if (this.isPunct(c)) {
            if (word) {
              this.wordPiece(word, ids);
              word = '';
            }
            this.wordPiece(c, ids);
          } else {
            word += c;
          }
        }
      }
      if (ids.length >= limit) return;
    }
    if (word) this.wordPiece(word, ids);
  }

  private isPunct(c: string): boolean {
    const cp = c.codePointAt(0) as number;
    if (cp < ASCII_LIMIT) return isAsciiPunct(cp);
    let hit = this.punctCache.get(c);
    if (hit === undefined) {
      hit = inRanges(cp, REFERENCE_PUNCT_RANGES) || (!inRanges(cp, REFERENCE_PLAIN_RANGES) && PUNCT_RE.test(c));
      this.punctCache.set(c, hit);
    }
    return hit;
  }

  private wordPiece(word: string, ids: number[]): void {
    const whole = this.vocab.get(word);
    if (whole !== undefined) {
      ids.push(whole);
      return;
    }
    // Code point boundaries: WordPiece works on characters, not UTF-16 units.
    const bounds: number[] = [0];
    for (let i = 0; i < word.length; ) {
      i += (word.codePointAt(i) as number) > 0xffff ? 2 : 1;
      bounds.push(i);
    }
    const n = bounds.length - 1;
    if (n > this.maxInputCharsPerWord) {
      ids.push(this.unkId);
      return;
    }
    const pieces: number[] = [];
    let start = 0;
    while (start < n) {
      let end = Math.min(n, start + this.maxPieceChars);
      let found = -1;
      const table = start === 0 ? this.vocab : this.continuationVocab;
      while (start < end) {
        const id = table.get(word.slice(bounds[start], bounds[end]));
        if (id !== undefined) {
          found = id;
          break;
        }
        end--;
      }
      if (found < 0) {
        ids.push(this.unkId);
        return;
      }
      pieces.push(found);
      start = end;
    }
    for (const p of pieces) ids.push(p);
  }

  private normalizedOf(cp: number): string {
    if (cp < ASCII_LIMIT) return this.asciiNormalized[cp];
    let hit = this.normalizedCache.get(cp);
    if (hit === undefined) {
      hit = this.normalizeCodePoint(cp);
      this.normalizedCache.set(cp, hit);
    }
    return hit;
  }

  /**
   * The reference normalizer works char by char (clean → CJK → NFD + drop Mn → lowercase), so the
   * result for a code point never depends on its neighbours; that is what makes caching it safe.
   */
  private normalizeCodePoint(cp: number): string {
    const ch = String.fromCodePoint(cp);
    if (inRanges(cp, REFERENCE_PLAIN_RANGES) || inRanges(cp, REFERENCE_PUNCT_RANGES)) return ch;
    if (inRanges(cp, REFERENCE_DROP_RANGES)) return DROP;
    if (this.cleanText) {
      if (cp === TAB || cp === LF || cp === CR) return SPACE;
      if (cp === NUL || cp === REPLACEMENT_CHAR || CONTROL_RE.test(ch)) return DROP;
      if (WHITESPACE_RE.test(ch)) return SPACE;
    }
    let out = ch;
    if (this.stripAccents) out = out.normalize('NFD').replace(NONSPACING_MARK_RE, '');
    if (this.lowercase) {
      // Per code point, like the reference: no context-sensitive rules such as final sigma.
      let lowered = '';
      for (const c of out) lowered += c.toLowerCase();
      out = lowered;
    }
    // Compatibility ideographs (U+F900…) are tested before NFD turns them into unified ones.
    if (this.handleChineseChars && isCjk(cp)) return ` ${out} `;
    return out;
  }

  private specialTemplate(json: TokenizerJson, source: string): [string, string] {
    const post = json.post_processor;
    if (post?.type === 'TemplateProcessing' && post.single) {
      const ids = post.single.map((p) => p.SpecialToken?.id ?? (p.Sequence ? '$A' : '?'));
      if (ids.length === 3 && ids[1] === '$A') return [ids[0], ids[2]];
    }
    // For one sequence RobertaProcessing (MPNet) is `cls $A sep` as well; its other options only move offsets.
    if ((post?.type === 'BertProcessing' || post?.type === 'RobertaProcessing') && post.cls && post.sep) return [post.cls[0], post.sep[0]];
    throw new Error(`${source}: expected a "[CLS] $A [SEP]" post-processor`);
  }

  private requireId(token: string, source: string): number {
    const id = this.vocab.get(token);
    if (id === undefined) throw new Error(`${source}: token ${token} is not in the vocabulary`);
    return id;
  }
}
