import { getEncoding, Tiktoken } from 'js-tiktoken';

let encoder: Tiktoken | undefined;

/**
 * Special-token strings (`<|endoftext|>`) in code or questions are ordinary text here: js-tiktoken's
 * default refuses them with an error, which would fail an ask about any repository that mentions one.
 */
const encode = (text: string): number[] => {
  encoder ??= getEncoding('o200k_base');
  return encoder.encode(text, [], []);
};

/**
 * Tokens of a text by a real BPE tokenizer (o200k_base, shipped offline by js-tiktoken). Gemini's own
 * count would need a network round trip per budget check, so budgets use this local count and the
 * model's reported usage is recorded in the trace next to it.
 */
export function countTokens(text: string): number {
  return encode(text).length;
}

/** The longest prefix of `text` that fits `maxTokens`, cut at a token boundary. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const tokens = encode(text);
  return tokens.length <= maxTokens ? text : encoder!.decode(tokens.slice(0, maxTokens));
}

/** Token counts of pieces seen before: evidence entries recur (follow-up loops, the same scopes in later asks). */
const pieceCounts = new Map<string, number>();
const MAX_CACHED_PIECES = 5_000;

function cachedCount(piece: string): number {
  let n = pieceCounts.get(piece);
  if (n === undefined) {
    n = countTokens(piece);
    // Dropping the whole cache when full is enough: it only saves time, never changes a count.
    if (pieceCounts.size >= MAX_CACHED_PIECES) pieceCounts.clear();
    pieceCounts.set(piece, n);
  }
  return n;
}

/**
 * Tokens of `parts.join(separator)`, counted part by part (each count cached). Exact, not an
 * estimate, when the separator is made of newlines and every part starts with `[`: o200k's
 * pre-tokenizer then cuts the joined text right after each separator (its newline runs are greedy and
 * `[` cannot join them), and BPE never merges across pre-tokens. Evidence entries are written so.
 */
export function countJoinedTokens(parts: string[], separator: string): number {
  if (parts.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < parts.length - 1; i++) n += cachedCount(parts[i] + separator);
  return n + cachedCount(parts[parts.length - 1]);
}
