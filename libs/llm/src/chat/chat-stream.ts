import { backoffDelayMs, RetryPolicy, sleep } from '../retry';
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
}

export interface TextCallResult extends TextChatAnswer {
  attempts: number;
}

/**
 * One model call under the same policy as rerank batches: 429/5xx/network retried with full-jitter
 * backoff (honouring the server's hint) while the time limit lasts; a call that already streamed
 * text is not retried (its chunks were shown). Throws the last ModelCallError.
 */
export async function callTextWithRetry(client: TextChatClient, request: TextChatRequest, policy: RetryPolicy, timeoutMs: number, now: () => number = Date.now): Promise<TextCallResult> {
  const end = now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
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
      return { ...answer, attempts: attempt };
    } catch (error) {
      const e = error instanceof ModelCallError ? error : new ModelCallError(`${client.provider} chat: ${(error as Error)?.message ?? String(error)}`, 'network', undefined, undefined, { cause: error });
      if (streamed || !e.retryable || attempt >= policy.maxAttempts) throw e;
      const delay = backoffDelayMs(attempt, policy, e.retryAfterMs);
      if (now() + delay >= end) throw e;
      await sleep(delay);
    } finally {
      clearTimeout(timer);
    }
  }
}
