import { RetryFailure, retryWithBackoff, RetryPolicy } from '../retry';
import { ModelCallError } from './model-call.error';

/** A plain-text chat request whose answer arrives as a stream of text chunks. */
export interface TextChatRequest {
  system: string;
  user: string;
  signal?: AbortSignal;
  /** Called with every text chunk as it arrives. */
  onChunk?: (text: string) => void;
}

export interface TextChatAnswer {
  text: string;
  /** Token counts as the model's API reported them (absent when it reported none). */
  usage?: { inputTokens?: number; outputTokens?: number };
}

/** What the answering pipeline needs from any chat provider: streamed text, usage when reported. */
export interface TextChatClient {
  readonly provider: 'gemini' | 'openai';
  readonly model: string;
  streamText(request: TextChatRequest): Promise<TextChatAnswer>;
  /** The whole answer at once, for callers that show no chunks (a provider may lack it: use streamText). */
  completeText?(request: TextChatRequest): Promise<TextChatAnswer>;
}

export interface TextCallResult extends TextChatAnswer {
  attempts: number;
}

/** A call that already streamed text is not retryable: its chunks were shown. */
interface CallFailure extends RetryFailure {
  error: ModelCallError;
}

/**
 * One model call under the same policy as rerank batches: 429/5xx/network retried with full-jitter
 * backoff (honouring the server's hint) while the time limit lasts; a call that already streamed
 * text is not retried (its chunks were shown). Throws the last ModelCallError.
 */
export async function callTextWithRetry(client: TextChatClient, request: TextChatRequest, policy: RetryPolicy, timeoutMs: number, now: () => number = Date.now): Promise<TextCallResult> {
  const end = now() + timeoutMs;
  return retryWithBackoff<TextCallResult, CallFailure>(
    policy,
    async (attempt) => {
      const remaining = end - now();
      if (remaining <= 0) throw new ModelCallError(`${client.provider} chat (model ${client.model}): no time left (${timeoutMs} ms limit)`, 'timeout');
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`timeout after ${remaining} ms`)), remaining);
      let streamed = false;
      try {
        const answer = await client.streamText({
          ...request,
          signal: controller.signal,
          onChunk: (t) => {
            streamed = true;
            request.onChunk?.(t);
          },
        });
        return { value: { ...answer, attempts: attempt } };
      } catch (error) {
        const e = error instanceof ModelCallError ? error : new ModelCallError(`${client.provider} chat: ${(error as Error)?.message ?? String(error)}`, 'network', undefined, undefined, { cause: error });
        return { failure: { error: e, retryable: !streamed && e.retryable, retryAfterMs: e.retryAfterMs } };
      } finally {
        clearTimeout(timer);
      }
    },
    {
      giveUp: ({ error }) => {
        throw error;
      },
      budgetEnd: end,
      now,
    },
  );
}
