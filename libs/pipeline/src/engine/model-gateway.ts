import { callTextWithRetry, RetryPolicy, TextChatClient } from '@scopegraph/llm';
import type { Prompt } from './prompts';

export interface ModelCallRecord {
  text: string;
  ms: number;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The pipeline's only way to a chat model: the rerank's retry/timeout policy around the configured
 * client, timing of every call (the overhead figure is end-to-end minus this). `client` null: no model.
 */
export class ModelGateway {
  constructor(
    readonly client: TextChatClient | null,
    private readonly policy: RetryPolicy,
    private readonly timeoutMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  get available(): boolean {
    return this.client !== null;
  }

  async call(prompt: Prompt, onChunk?: (text: string) => void): Promise<ModelCallRecord> {
    if (!this.client) throw new Error('no chat model configured');
    const t0 = this.clock();
    const answer = await callTextWithRetry(this.client, { system: prompt.system, user: prompt.user, onChunk }, this.policy, this.timeoutMs);
    return { text: answer.text, ms: this.clock() - t0, attempts: answer.attempts, inputTokens: answer.usage?.inputTokens ?? 0, outputTokens: answer.usage?.outputTokens ?? 0 };
  }
}
