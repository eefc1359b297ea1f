/**
 * Fakes of the other model APIs a reranker talks to, protocol-faithful enough for the real clients
 * (libs/llm/src/chat) to call them through their base-URL options. Plain node:http on 127.0.0.1.
 *
 *   FakeOpenAiChat  POST /v1/chat/completions  {model, messages, response_format, temperature}
 *                   -> {id, object: "chat.completion", model, choices: [{index, message: {role, content}, finish_reason}], usage}
 *                   (what Ollama and llama.cpp's server answer; base URL for the client: `${fake.baseUrl}/v1`)
 *                   With `stream: true`: `text/event-stream` of `data: {choices:[{index,delta:{content}}]}` events
 *                   (the content in pieces of `streamChunkChars`), a usage event, then `data: [DONE]`.
 *   FakeCohere      POST /v2/rerank  {model, query, documents, top_n} -> {id, results: [{index, relevance_score}], meta}
 *   FakeVoyage      POST /v1/rerank  {query, documents, model, top_k?, truncation} -> {object: "list", data: [{index, relevance_score}], model, usage}
 *   FakeOpenAiEmbeddings  POST /v1/embeddings  {model, input, encoding_format, dimensions?}
 *                   -> {object: "list", data: [{object: "embedding", index, embedding}], model, usage}
 *                   (text-embeddings-inference, Ollama, vLLM; base URL for the client: `${fake.baseUrl}/v1`)
 *
 * Auth: `authorization: Bearer <key>` when the fake has a key (401 otherwise); a fake without a key
 * accepts any request (local servers need none).
 * Scripting (FIFO, consumed by the next requests):
 *   fake.reply(fn)            the default answer: fn(request) -> body fields (see each fake's type)
 *   fake.failNext(n, status)  API errors (429 adds `retry-after: 0`)
 *   fake.hangNext(n)          never answer (until close)
 *   fake.rawNext(n, text)     a 200 whose body is `text` (malformed)
 *   fake.setLatency(ms | fn)
 * Inspection: fake.requests ({path, headers, body, status}), fake.calls(), fake.maxInFlight().
 */
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { readBody } from './fake-gemini';

export interface FakeRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
  receivedAt: number;
}

type Script = { remaining: number; fail?: number; hang?: boolean; raw?: string };

const LOOPBACK = '127.0.0.1';

abstract class FakeJsonApi<Req, Res> {
  readonly requests: FakeRequest[] = [];
  private server?: Server;
  private url = '';
  private scripts: Script[] = [];
  private latency: number | ((body: Req) => number) = 0;
  private handler?: (request: Req) => Res | Promise<Res>;
  private readonly hanging = new Set<() => void>();
  private inFlight = 0;
  private peak = 0;

  protected constructor(
    private readonly route: string,
    private readonly apiKey?: string,
  ) {}

  get baseUrl(): string {
    return this.url;
  }

  reply(handler: (request: Req) => Res | Promise<Res>): this {
    this.handler = handler;
    return this;
  }

  failNext(count: number, status: number): this {
    this.scripts.push({ remaining: count, fail: status });
    return this;
  }

  hangNext(count: number): this {
    this.scripts.push({ remaining: count, hang: true });
    return this;
  }

  rawNext(count: number, raw: string): this {
    this.scripts.push({ remaining: count, raw });
    return this;
  }

  setLatency(ms: number | ((body: Req) => number)): this {
    this.latency = ms;
    return this;
  }

  calls(): number {
    return this.requests.length;
  }

  maxInFlight(): number {
    return this.peak;
  }

  reset(): this {
    this.scripts = [];
    this.latency = 0;
    this.handler = undefined;
    this.requests.length = 0;
    this.peak = 0;
    for (const release of this.hanging) release();
    this.hanging.clear();
    return this;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, LOOPBACK, () => resolve());
    });
    this.url = `http://${LOOPBACK}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const release of this.hanging) release();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The answer when no script applies and no reply() was set. */
  protected abstract defaultAnswer(request: Req): Res;
  protected abstract wrap(request: Req, answer: Res): unknown;
  protected abstract errorBody(status: number): unknown;
  /** A server-sent-events body when the request asked for a stream (undefined: answer JSON). */
  protected streamBody(_request: Req, _answer: Res): string | undefined {
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: FakeRequest = { path: req.url ?? '', headers: req.headers, body: undefined, status: 0, receivedAt: Date.now() };
    this.requests.push(record);
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    let status = 200;
    let body: string;
    let eventStream = false;
    try {
      const raw = await readBody(req);
      record.body = raw ? JSON.parse(raw) : undefined;
      const latency = typeof this.latency === 'function' ? this.latency(record.body) : this.latency;
      if (latency > 0) await new Promise((r) => setTimeout(r, latency));
      if (req.method !== 'POST' || new URL(record.path, this.url).pathname !== this.route) {
        status = 404;
        body = JSON.stringify({ message: `no route ${req.method} ${record.path}` });
      } else if (this.apiKey && req.headers.authorization !== `Bearer ${this.apiKey}`) {
        status = 401;
        body = JSON.stringify(this.errorBody(401));
      } else {
        const script = this.take();
        if (script?.hang) await new Promise<void>((resolve) => this.hanging.add(resolve));
        if (script?.fail) {
          status = script.fail;
          body = JSON.stringify(this.errorBody(status));
        } else if (script?.raw !== undefined) {
          body = script.raw;
        } else {
          const answer = this.handler ? await this.handler(record.body as Req) : this.defaultAnswer(record.body as Req);
          const events = this.streamBody(record.body as Req, answer);
          eventStream = events !== undefined;
          body = events ?? JSON.stringify(this.wrap(record.body as Req, answer));
        }
      }
    } catch (error) {
      status = 400;
      body = JSON.stringify({ message: (error as Error).message });
    }
    this.inFlight--;
    record.status = status;
    if (res.destroyed) return;
    const headers: Record<string, string | number> = { 'content-type': eventStream ? 'text/event-stream' : 'application/json', 'content-length': Buffer.byteLength(body) };
    if (status === 429) headers['retry-after'] = '0';
    res.writeHead(status, headers);
    res.end(body);
  }

  private take(): Script | undefined {
    const script = this.scripts[0];
    if (!script) return undefined;
    if (--script.remaining === 0) this.scripts.shift();
    return script;
  }
}

export interface OpenAiChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string };
  temperature?: number;
}

/** What the scripted model says: its message content. */
export interface OpenAiChatAnswer {
  content: string;
}

export class FakeOpenAiChat extends FakeJsonApi<OpenAiChatRequest, OpenAiChatAnswer> {
  /** Size of the content pieces of a streamed answer. */
  streamChunkChars = 8;

  static start(apiKey?: string): Promise<FakeOpenAiChat> {
    return new FakeOpenAiChat(apiKey).listen();
  }

  private constructor(apiKey?: string) {
    super('/v1/chat/completions', apiKey);
  }

  /** The user message's text (where the prompt's candidates are). */
  static userText(request: OpenAiChatRequest): string {
    return request.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  }

  protected defaultAnswer(): OpenAiChatAnswer {
    return { content: '{}' };
  }

  protected wrap(request: OpenAiChatRequest, answer: OpenAiChatAnswer): unknown {
    return {
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    };
  }

  protected errorBody(status: number): unknown {
    return { error: { message: `fake error ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error', code: status } };
  }

  protected streamBody(request: OpenAiChatRequest & { stream?: boolean }, answer: OpenAiChatAnswer): string | undefined {
    if (!request.stream) return undefined;
    const id = `chatcmpl-${this.requests.length}`;
    const event = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
    const pieces: string[] = [];
    for (let i = 0; i < answer.content.length; i += this.streamChunkChars) pieces.push(answer.content.slice(i, i + this.streamChunkChars));
    return [
      ...pieces.map((content) => event({ id, object: 'chat.completion.chunk', model: request.model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      event({ id, object: 'chat.completion.chunk', model: request.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      event({ id, object: 'chat.completion.chunk', model: request.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: pieces.length, total_tokens: 10 + pieces.length } }),
      event('[DONE]'),
    ].join('');
  }
}

export interface RerankApiRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  top_k?: number;
}

/** Scores by document index; indices may be out of range or repeated (to test the client's checks). */
export interface RerankApiAnswer {
  results: Array<{ index: number; relevance_score: number }>;
}

export class FakeCohere extends FakeJsonApi<RerankApiRequest, RerankApiAnswer> {
  static start(apiKey = 'fake-cohere-key'): Promise<FakeCohere> {
    return new FakeCohere(apiKey).listen();
  }

  private constructor(apiKey: string) {
    super('/v2/rerank', apiKey);
  }

  protected defaultAnswer(request: RerankApiRequest): RerankApiAnswer {
    return { results: request.documents.map((_, index) => ({ index, relevance_score: 0.5 })) };
  }

  protected wrap(request: RerankApiRequest, answer: RerankApiAnswer): unknown {
    const sorted = [...answer.results].sort((a, b) => b.relevance_score - a.relevance_score).slice(0, request.top_n ?? answer.results.length);
    return { id: `rerank-${this.requests.length}`, results: sorted, meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } };
  }

  protected errorBody(status: number): unknown {
    return { message: status === 429 ? 'You are using a Trial key, which is limited' : `fake error ${status}` };
  }
}

export class FakeVoyage extends FakeJsonApi<RerankApiRequest, RerankApiAnswer> {
  static start(apiKey = 'fake-voyage-key'): Promise<FakeVoyage> {
    return new FakeVoyage(apiKey).listen();
  }

  private constructor(apiKey: string) {
    super('/v1/rerank', apiKey);
  }

  protected defaultAnswer(request: RerankApiRequest): RerankApiAnswer {
    return { results: request.documents.map((_, index) => ({ index, relevance_score: 0.5 })) };
  }

  protected wrap(request: RerankApiRequest, answer: RerankApiAnswer): unknown {
    const sorted = [...answer.results].sort((a, b) => b.relevance_score - a.relevance_score).slice(0, request.top_k ?? answer.results.length);
    return { object: 'list', data: sorted, model: request.model, usage: { total_tokens: 100 } };
  }

  protected errorBody(status: number): unknown {
    return { detail: `fake error ${status}` };
  }
}

export interface OpenAiEmbeddingsRequest {
  model: string;
  input: string[];
  encoding_format?: string;
  dimensions?: number;
}

/** The vectors by input index; the fake may list them out of order (the client sorts by `index`). */
export interface OpenAiEmbeddingsAnswer {
  data: Array<{ index: number; embedding: number[] }>;
}

export class FakeOpenAiEmbeddings extends FakeJsonApi<OpenAiEmbeddingsRequest, OpenAiEmbeddingsAnswer> {
  static start(apiKey?: string): Promise<FakeOpenAiEmbeddings> {
    return new FakeOpenAiEmbeddings(apiKey).listen();
  }

  private constructor(apiKey?: string) {
    super('/v1/embeddings', apiKey);
  }

  protected defaultAnswer(request: OpenAiEmbeddingsRequest): OpenAiEmbeddingsAnswer {
    return { data: request.input.map((text, index) => ({ index, embedding: [text.length, 1, 0, 0] })) };
  }

  protected wrap(request: OpenAiEmbeddingsRequest, answer: OpenAiEmbeddingsAnswer): unknown {
    return {
      object: 'list',
      data: answer.data.map((d) => ({ object: 'embedding', ...d })),
      model: request.model,
      usage: { prompt_tokens: request.input.length, total_tokens: request.input.length },
    };
  }

  protected errorBody(status: number): unknown {
    return { error: { message: `fake error ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error', code: status } };
  }
}
