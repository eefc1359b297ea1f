import { EmbeddingConfigError, EmbeddingProvider } from './embedding-provider';
import { l2Normalize } from './vector-math';

export const HASH_EMBEDDING_MODEL = 'feature-hash-v1';

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Seed for the sign hash, so that sign and bucket are not correlated. */
const SIGN_SEED = 0x9e3779b9;
/** Finaliser constant from MurmurHash3; FNV alone mixes the low bits poorly. */
const MIX_MULTIPLIER = 0x85ebca6b;
/** Bigrams count less than words: they add word-order signal without dominating overlap. */
const BIGRAM_WEIGHT = 0.5;
/** Gives empty or symbol-only input a stable unit vector instead of a zero vector. */
const EMPTY_TEXT_FEATURE = '\u0000empty';

const WORD_RE = /[\p{L}\p{N}]+/gu;
// Splits camelCase / PascalCase / acronym boundaries: parseHTTPRequest → parse, HTTP, Request.
const CAMEL_RE = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|\p{L}+/gu;

/**
 * Deterministic feature-hashing embedder: lower-cased word unigrams and bigrams (identifiers split
 * at camelCase and snake_case), each hashed to a bucket with a hashed ±1 sign, then L2-normalised.
 *
 * FOR UNIT TESTS ONLY. It has no notion of meaning (synonyms score zero), so it is never a default
 * and must never be configured for a real index; it exists so tests of search plumbing run without
 * a model download or network.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'hash' as const;
  readonly model = HASH_EMBEDDING_MODEL;

  constructor(readonly dimensions: number) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new EmbeddingConfigError(`HashEmbeddingProvider: dimensions must be a positive integer, got ${dimensions}`);
    }
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.embed(t));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text);
  }

  /** Synchronous form, handy in test fixtures. */
  embed(text: string): number[] {
    const v = new Float64Array(this.dimensions);
    const tokens = featureHashTokens(text);
    if (tokens.length === 0) this.add(v, EMPTY_TEXT_FEATURE, 1);
    for (let i = 0; i < tokens.length; i++) {
      this.add(v, tokens[i], 1);
      if (i > 0) this.add(v, `${tokens[i - 1]} ${tokens[i]}`, BIGRAM_WEIGHT);
    }
    return l2Normalize(v);
  }

  private add(v: Float64Array, feature: string, weight: number): void {
    const bucket = fnv1a(feature, FNV_OFFSET_BASIS) % this.dimensions;
    const sign = fnv1a(feature, SIGN_SEED) & 1 ? 1 : -1;
    v[bucket] += sign * weight;
  }
}

export function featureHashTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(WORD_RE) ?? []) {
    for (const part of word.match(CAMEL_RE) ?? [word]) out.push(part.toLowerCase());
  }
  return out;
}

function fnv1a(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  // Final avalanche so that nearby strings spread over buckets and the low bit is well mixed.
  h ^= h >>> 16;
  h = Math.imul(h, MIX_MULTIPLIER) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}
