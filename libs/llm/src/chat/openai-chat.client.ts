import { observeModelCall } from '@scopegraph/observability';
import { DEFAULT_JUDGE_TEMPERATURE, JsonChatAnswer, JsonChatClient, JsonChatRequest } from './chat-json';
import { ModelCallError, postJson } from './model-call.error';

export interface OpenAiCompatibleChatClientOptions {
  /** Up to and including the version segment, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `http://127.0.0.1:8080/v1` (llama.cpp). */
  baseUrl: string;
  model: string;
  /** Local servers usually need none. */
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: unknown }; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * Any OpenAI-compatible `/chat/completions` endpoint (Ollama, llama.cpp server, vLLM, LM Studio, ...)
 * over fetch, in JSON mode (`response_format: {type: "json_object"}`). Small local models follow a
 * schema loosely, so the schema is described in the prompt by the caller and the raw text returned
 * for tolerant parsing; `parsed` is the text as JSON when it is JSON.
 */
export class OpenAiCompatibleChatClient implements JsonChatClient {
  readonly provider = 'openai' as const;
  readonly model: string;
  private readonly url: string;
  private readonly apiKey?: string;
  private readonly temperature: number;
  private readonly maxTokens?: number;

  constructor(options: OpenAiCompatibleChatClientOptions) {
    if (!options.baseUrl) throw new Error('OpenAiCompatibleChatClient needs a base URL');
    if (!options.model) throw new Error('OpenAiCompatibleChatClient needs a model name');
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.model = options.model;
    this.apiKey = options.apiKey;
    this.temperature = options.temperature ?? DEFAULT_JUDGE_TEMPERATURE;
    this.maxTokens = options.maxTokens;
    Object.defineProperty(this, 'apiKey', { enumerable: false });
  }

  generateJson(request: JsonChatRequest): Promise<JsonChatAnswer> {
    return observeModelCall(this.provider, 'chat', () => this.callModel(request), (a) => a.usage);
  }

  private async callModel(request: JsonChatRequest): Promise<JsonChatAnswer> {
    const body = {
      model: this.model,
      temperature: this.temperature,
      ...(this.maxTokens ? { max_tokens: this.maxTokens } : {}),
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
    };
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const answer = (await postJson(this.url, body, headers, request.signal, `chat completion (model ${this.model})`)) as ChatCompletion;
    const content = answer?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') {
      throw new ModelCallError(`chat completion (model ${this.model}): the answer has no choices[0].message.content`, 'http', 200);
    }
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(content);
    } catch {
      parsed = null;
    }
    return { text: content, parsed, usage: { inputTokens: answer.usage?.prompt_tokens, outputTokens: answer.usage?.completion_tokens } };
  }
}
