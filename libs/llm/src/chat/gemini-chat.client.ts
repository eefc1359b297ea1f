import { observeModelCall } from '@scopegraph/observability';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import type { BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import type { ZodTypeAny } from 'zod';
import { DEFAULT_GEMINI_BASE_URL } from '../embeddings/gemini-embedding.provider';
import { DEFAULT_JUDGE_TEMPERATURE, JsonChatAnswer, JsonChatClient, JsonChatRequest } from './chat-json';
import { TextChatAnswer, TextChatClient, TextChatRequest } from './chat-stream';
import { ModelCallError } from './model-call.error';
import { geminiRetryDelayMs } from '../gemini-retry-info';

export interface GeminiChatClientOptions {
  apiKey: string;
  /** Root URL without the API version, e.g. a fake server's `http://127.0.0.1:PORT` in tests. */
  baseUrl?: string;
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
}

type Structured = Runnable<BaseMessage[] | [string, string][], { raw: BaseMessage; parsed: unknown }>;

/**
 * Gemini chat through LangChain's ChatGoogleGenerativeAI with structured output: the zod schema is
 * sent as `generationConfig.responseSchema` (JSON mode). `includeRaw` keeps the model's text even
 * when it does not fit the schema, so callers can parse it tolerantly instead of losing the answer.
 * LangChain's own retries are off: the caller decides (it knows its deadline). The key is passed
 * explicitly, never read from GOOGLE_API_KEY behind our back.
 */
export class GeminiChatClient implements JsonChatClient, TextChatClient {
  readonly provider = 'gemini' as const;
  readonly model: string;
  private readonly chat: ChatGoogleGenerativeAI;
  private readonly structured = new WeakMap<ZodTypeAny, Structured>();

  constructor(options: GeminiChatClientOptions) {
    if (!options.apiKey) throw new Error('GeminiChatClient needs an API key (GEMINI_API_KEY)');
    this.model = options.model.replace(/^models\//, '');
    this.chat = new ChatGoogleGenerativeAI({
      apiKey: options.apiKey,
      baseUrl: (options.baseUrl ?? DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, ''),
      model: this.model,
      temperature: options.temperature ?? DEFAULT_JUDGE_TEMPERATURE,
      maxOutputTokens: options.maxOutputTokens,
      maxRetries: 0,
    });
    Object.defineProperty(this, 'chat', { enumerable: false });
    handleStreamAggregate(this.chat);
  }

  generateJson(request: JsonChatRequest): Promise<JsonChatAnswer> {
    return observeModelCall(this.provider, 'chat', () => this.callModel(request), (a) => a.usage);
  }

  private async callModel(request: JsonChatRequest): Promise<JsonChatAnswer> {
    const runnable = this.runnableFor(request.schema);
    const messages: [string, string][] = [
      ['system', request.system],
      ['human', request.user],
    ];
    let out: { raw: BaseMessage; parsed: unknown };
    try {
      // The signal ends our wait; LangChain does not hand it to the HTTP request, so race it here too.
      out = await raceAbort(runnable.invoke(messages, { signal: request.signal }), request.signal);
    } catch (error) {
      throw classify(error, request.signal, this.model);
    }
    const usage = (out.raw as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
    return {
      text: contentText(out.raw.content),
      parsed: out.parsed ?? null,
      usage: usage ? { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } : undefined,
    };
  }

  /** Plain text through `:streamGenerateContent?alt=sse`, each chunk handed to onChunk as it arrives. */
  async streamText(request: TextChatRequest): Promise<TextChatAnswer> {
    const messages: [string, string][] = [
      ['system', request.system],
      ['human', request.user],
    ];
    let text = '';
    let inputTokens: number | undefined;
    let outputTokens: number | undefined;
    const consume = async () => {
      const stream = await this.chat.stream(messages, { signal: request.signal });
      for await (const chunk of stream) {
        const piece = contentText(chunk.content);
        if (piece) {
          text += piece;
          request.onChunk?.(piece);
        }
        const usage = (chunk as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
        if (usage) {
          inputTokens = (inputTokens ?? 0) + (usage.input_tokens ?? 0);
          outputTokens = (outputTokens ?? 0) + (usage.output_tokens ?? 0);
        }
      }
    };
    try {
      await raceAbort(consume(), request.signal);
    } catch (error) {
      throw classify(error, request.signal, this.model);
    }
    return { text, usage: inputTokens === undefined && outputTokens === undefined ? undefined : { inputTokens, outputTokens } };
  }

  /**
   * Plain text in one answer (`:generateContent`). @google/generative-ai leaves a stream's aggregate
   * promise unhandled when an SSE body does not parse (an unhandledRejection, which ends a Node
   * process); callers that show no chunks take this path instead.
   */
  completeText(request: TextChatRequest): Promise<TextChatAnswer> {
    return observeModelCall(this.provider, 'chat', () => this.complete(request), (a) => a.usage);
  }

  private async complete(request: TextChatRequest): Promise<TextChatAnswer> {
    const messages: [string, string][] = [
      ['system', request.system],
      ['human', request.user],
    ];
    let out: BaseMessage;
    try {
      out = await raceAbort(this.chat.invoke(messages, { signal: request.signal }), request.signal);
    } catch (error) {
      throw classify(error, request.signal, this.model);
    }
    const usage = (out as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
    return { text: contentText(out.content), usage: usage ? { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } : undefined };
  }

  private runnableFor(schema: ZodTypeAny): Structured {
    let runnable = this.structured.get(schema);
    if (!runnable) {
      runnable = this.chat.withStructuredOutput(schema, { includeRaw: true, method: 'jsonSchema' }) as unknown as Structured;
      this.structured.set(schema, runnable);
    }
    return runnable;
  }
}

/**
 * @google/generative-ai's generateContentStream returns `{stream, response}`; LangChain reads only
 * `stream`. When an SSE body does not parse, `response` rejects too and nobody awaits it: an
 * unhandledRejection that ends the Node process (the worker, mid-ask). The stream itself still
 * carries the error to our caller, so the aggregate's rejection is marked handled here.
 */
function handleStreamAggregate(chat: ChatGoogleGenerativeAI): void {
  const model = (chat as unknown as { client?: { generateContentStream?: (...args: unknown[]) => Promise<{ response?: Promise<unknown> }> } }).client;
  const original = model?.generateContentStream;
  if (!model || !original) return;
  model.generateContentStream = async (...args: unknown[]) => {
    const result = await original.apply(model, args);
    result.response?.catch(() => undefined);
    return result;
  };
}

function contentText(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part === 'string' ? part : 'text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function classify(error: unknown, signal: AbortSignal | undefined, model: string): ModelCallError {
  const what = `Gemini generateContent (model ${model})`;
  if (signal?.aborted) {
    return new ModelCallError(`${what}: no answer before the time limit`, 'timeout', undefined, undefined, { cause: error });
  }
  // A 200 whose body is not JSON surfaces as the SyntaxError of response.json() (which LangChain may
  // re-wrap as a plain Error "SyntaxError: ..."): the server answered, badly; callers treat it like
  // any unusable answer rather than retrying it as a lost request.
  const text = String((error as Error)?.message ?? error);
  if ((error as Error)?.name === 'SyntaxError' || text.startsWith('SyntaxError:')) {
    return new ModelCallError(`${what}: the answer body is not JSON: ${text}`, 'http', 200, undefined, { cause: error });
  }
  const e = error as { status?: unknown; message?: unknown; errorDetails?: unknown };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (status === undefined) return new ModelCallError(`${what}: ${message}`, 'network', undefined, undefined, { cause: error });
  return new ModelCallError(`${what}: HTTP ${status}: ${message}`, 'http', status, geminiRetryDelayMs(e.errorDetails), { cause: error });
}
