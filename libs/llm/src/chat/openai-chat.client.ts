import { observeModelCall } from '@scopegraph/observability';
import { DEFAULT_JUDGE_TEMPERATURE, JsonChatAnswer, JsonChatClient, JsonChatRequest } from './chat-json';
import { TextChatAnswer, TextChatClient, TextChatRequest } from './chat-stream';
import { ModelCallError, postJson, retryAfterMs } from './model-call.error';

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
export class OpenAiCompatibleChatClient implements JsonChatClient, TextChatClient {
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

  /** `stream: true`: server-sent `data: {choices:[{delta:{content}}]}` events, then `data: [DONE]`. */
  async streamText(request: TextChatRequest): Promise<TextChatAnswer> {
    const what = `chat completion stream (model ${this.model})`;
    const body = {
      model: this.model,
      temperature: this.temperature,
      ...(this.maxTokens ? { max_tokens: this.maxTokens } : {}),
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) };
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal: request.signal });
    } catch (error) {
      if (request.signal?.aborted) throw new ModelCallError(`${what}: no answer before the time limit`, 'timeout', undefined, undefined, { cause: error });
      throw new ModelCallError(`${what}: ${(error as Error).message}`, 'network', undefined, undefined, { cause: error });
    }
    if (!res.ok || !res.body) {
      const detail = await res.text().catch(() => '');
      throw new ModelCallError(`${what}: HTTP ${res.status}: ${detail.slice(0, MAX_ERROR_CHARS)}`, 'http', res.status, retryAfterMs(res.headers.get('retry-after')));
    }
    let text = '';
    let usage: TextChatAnswer['usage'];
    let pending = '';
    const decoder = new TextDecoder();
    const handleLine = (line: string) => {
      if (!line.startsWith('data:')) return;
      const data = line.slice('data:'.length).trim();
      if (data === '' || data === '[DONE]') return;
      let event: { choices?: Array<{ delta?: { content?: unknown } }>; usage?: { prompt_tokens?: number; completion_tokens?: number } };
      try {
        event = JSON.parse(data);
      } catch {
        throw new ModelCallError(`${what}: an event is not JSON: ${data.slice(0, MAX_ERROR_CHARS)}`, 'http', 200);
      }
      const piece = event.choices?.[0]?.delta?.content;
      if (typeof piece === 'string' && piece) {
        text += piece;
        request.onChunk?.(piece);
      }
      if (event.usage) usage = { inputTokens: event.usage.prompt_tokens, outputTokens: event.usage.completion_tokens };
    };
    try {
      for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(bytes, { stream: true });
        const lines = pending.split(/\r?\n/);
        pending = lines.pop() ?? '';
        lines.forEach(handleLine);
      }
      handleLine(pending);
    } catch (error) {
      if (error instanceof ModelCallError) throw error;
      if (request.signal?.aborted) throw new ModelCallError(`${what}: no answer before the time limit`, 'timeout', undefined, undefined, { cause: error });
      throw new ModelCallError(`${what}: ${(error as Error).message}`, 'network', undefined, undefined, { cause: error });
    }
    return { text, usage };
  }
}

const MAX_ERROR_CHARS = 300;
