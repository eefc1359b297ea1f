import type { ZodTypeAny } from 'zod';

/** A chat model asked for one JSON answer: what an LLM reranker needs from any provider. */
export interface JsonChatRequest {
  system: string;
  user: string;
  /**
   * The answer's shape. Providers that support a response schema (Gemini) send it; the others ask for
   * JSON mode. Either way the caller gets the raw text and parses it itself, tolerantly.
   */
  schema: ZodTypeAny;
  signal?: AbortSignal;
}

export interface JsonChatAnswer {
  /** The model's answer as it came, before any parsing. */
  text: string;
  /** The answer parsed by the schema, or null when it did not fit (the raw text is still there). */
  parsed: unknown | null;
  usage?: { inputTokens?: number; outputTokens?: number };
}

export interface JsonChatClient {
  readonly provider: 'gemini' | 'openai';
  readonly model: string;
  generateJson(request: JsonChatRequest): Promise<JsonChatAnswer>;
}

/** Low temperature: relevance judgements should be repeatable, not creative. */
export const DEFAULT_JUDGE_TEMPERATURE = 0.1;
