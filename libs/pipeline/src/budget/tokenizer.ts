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
