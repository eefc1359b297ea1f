/**
 * A fake Gemini API (Generative Language API, v1beta) for tests: plain node:http on 127.0.0.1, a
 * random free port, no dependencies. The real clients (@google/generative-ai under LangChain's
 * GoogleGenerativeAIEmbeddings / ChatGoogleGenerativeAI) talk to it unchanged via `baseUrl`.
 *
 * Start / stop
 *   const fake = await FakeGemini.start({ apiKey: 'test-key', dimensions: 768 });
 *   new GoogleGenerativeAIEmbeddings({ apiKey: 'test-key', baseUrl: fake.baseUrl, ... });
 *   await fake.close();
 *
 * Implemented routes (POST /{v1beta|v1}/models/{model}:{action}):
 *   embedContent        {content:{parts:[{text}]}, taskType?, title?, outputDimensionality?}
 *                       -> {embedding:{values:number[]}}
 *   batchEmbedContents  {requests:[{model:"models/{model}", content, taskType?, outputDimensionality?}]}
 *                       -> {embeddings:[{values:number[]}]}   (at most 100 requests, like the real API)
 * Vectors are deterministic per (text, dimensions), a shorter one being a prefix of a longer one (as
 * with gemini-embedding-001 truncation), and deliberately NOT unit length (the real
 * API only normalises its full-size output); `fake.vectorFor(text, dims)` returns the same numbers.
 * Every request must carry the `x-goog-api-key` header: missing -> 403 PERMISSION_DENIED, wrong ->
 * 400 INVALID_ARGUMENT with reason API_KEY_INVALID (what Google answers).
 *
 * Scripting (each scripted behaviour is consumed by the next matching requests, in FIFO order)
 *   fake.failNext(n, status = 429, { action?, message?, retryDelaySeconds? })
 *       answer the next n requests (optionally only for `action`) with a Google-style error body
 *       {error:{code,message,status,details?}}; retryDelaySeconds adds a RetryInfo detail.
 *   fake.corruptNext(n, kind, { action? })  kind:
 *       'empty'           every vector is []                (the LangChain "[]" trap)
 *       'wrongDimensions' vectors one element too short
 *       'nonFinite'       vectors contain null instead of a number (NaN cannot travel in JSON)
 *       'missing'         the embedding/embeddings field is absent
 *       'invalidJson'     a 200 with a body that is not JSON
 *   fake.setLatency(ms)  wait before every answer (0 = none)
 *   fake.reset()         forget scripts, latency and recorded requests
 * Inspection
 *   fake.requests        every request received, in order: {method, path, query, model, action,
 *                        headers, body, status, receivedAt}; status is what the fake answered
 *   fake.calls(action?)  number of requests (optionally for one action), e.g. 'batchEmbedContents'
 *
 * Chat (built in): generateContent and streamGenerateContent (`?alt=sse`), the routes
 * ChatGoogleGenerativeAI calls, answered in Gemini's wire shape ({candidates:[{content:{role:"model",
 * parts:[{text}]},finishReason,index}], usageMetadata}). What the model "says" is scripted per request:
 *   fake.onGenerate((req) => reply)     the default answer; req = {model, text (all user parts),
 *                                       system, responseSchema, responseMimeType, temperature, body}
 *   fake.generateNext(n, reply | fn)    the next n chat requests answer this instead (FIFO, before onGenerate)
 *   reply = {json} | {text} and optionally {finishReason, latencyMs, status + message (an API error),
 *           hang: true (never answers until close), pauseAfterFirstChunk: a promise the stream waits
 *           for after its first chunk}
 * Without onGenerate the fake answers a minimal value that satisfies the request's responseSchema.
 *   fake.hangNext(n, { action? })       the next n requests never get an answer (timeouts)
 *   fake.setLatency(fn)                 latency may also be a function of the request (jitter)
 *   fake.maxInFlight(action?)           most requests that were being answered at the same time
 *
 * Extending: register a handler for another action; handlers get the parsed request and
 * return {status?, json?} or {sse: chunks[]} for `:streamGenerateContent?alt=sse`. Scripted
 * failures, latency, auth and recording apply to every route, built-in or added.
 *   fake.route('countTokens', ({ model, body }) => ({ json: { totalTokens: 3 } }));
 * To make it built in, add an entry to `builtInRoutes()` below.
 */
import { createHash } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakeGeminiOptions {
  /** Key the fake accepts in `x-goog-api-key`. */
  apiKey?: string;
  /** Vector size when a request does not set outputDimensionality. */
  dimensions?: number;
  latencyMs?: number | LatencyFn;
}

/** Latency per request (e.g. jitter); gets the parsed request of any route. */
export type LatencyFn = (request: { action?: string; model?: string; body: unknown }) => number;

/** One chat request as the fake's script sees it. */
export interface GenerateRequest {
  model: string;
  /** Every text part of every `contents` entry, joined with newlines. */
  text: string;
  /** The systemInstruction's text ('' when none). */
  system: string;
  responseSchema?: unknown;
  responseMimeType?: string;
  temperature?: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the raw request
}

/** What the scripted model answers to one chat request. */
export interface GenerateReply {
  /** Sent as the answer text, JSON-encoded (what structured output returns). */
  json?: unknown;
  /** Sent as the answer text as is (wins over json; use it for malformed output). */
  text?: string;
  finishReason?: string;
  /** Extra wait for this answer, on top of the fake's latency. */
  latencyMs?: number;
  /** Answer with a Google-style API error instead. */
  status?: number;
  message?: string;
  /** Never answer (until the fake closes). */
  hang?: boolean;
  /** streamGenerateContent: send the first chunk, then wait for this before the rest (a stream caught mid-answer). */
  pauseAfterFirstChunk?: Promise<unknown>;
}

export type GenerateHandler = (request: GenerateRequest) => GenerateReply | Promise<GenerateReply>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  model?: string;
  action?: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  status: number;
  receivedAt: number;
  /** When the answer was sent (undefined while pending, or for a request left hanging). */
  respondedAt?: number;
}

export interface RouteContext {
  model: string;
  action: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON of any route
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  fake: FakeGemini;
  /** Set when a scripted corruptNext applies to this request; built-in routes honour it. */
  corruption?: CorruptionKind;
}

export interface RouteResult {
  status?: number;
  json?: unknown;
  /** Server-sent events: each chunk becomes one `data: <json>` event. */
  sse?: unknown[];
  /** Raw body, sent as is (used for invalid JSON). */
  raw?: string;
  /** With sse: the rest of the events wait for this after the first one. */
  pauseAfterFirstChunk?: Promise<unknown>;
}

export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
export type CorruptionKind = 'empty' | 'wrongDimensions' | 'nonFinite' | 'missing' | 'invalidJson';

interface Script {
  remaining: number;
  action?: string;
  fail?: { status: number; message?: string; retryDelaySeconds?: number };
  corrupt?: CorruptionKind;
  hang?: boolean;
  generate?: GenerateHandler;
}

const CHAT_ACTIONS = new Set(['generateContent', 'streamGenerateContent']);
/** Rough token estimate for usageMetadata (the real API counts tokens; clients only display it). */
const CHARS_PER_TOKEN = 4;

export const FAKE_GEMINI_API_KEY = 'fake-gemini-test-key';
const DEFAULT_DIMENSIONS = 768;
const MAX_DIMENSIONS = 3072;
const MAX_BATCH_REQUESTS = 100;
const LOOPBACK = '127.0.0.1';
const ROUTE_RE = /^\/(v1beta|v1)\/models\/([^/:]+):([A-Za-z]+)$/;
/** Scale applied to the fake's vectors so that clients must normalise them themselves. */
const VECTOR_SCALE = 0.5;
const BYTES_PER_UINT32 = 4;
const UINT32_RANGE = 2 ** 32;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
  }
}

export class FakeGemini {
  readonly requests: RecordedRequest[] = [];
  readonly apiKey: string;
  readonly dimensions: number;
  private latencyMs: number | LatencyFn;
  private scripts: Script[] = [];
  private readonly routes = new Map<string, RouteHandler>();
  private generateHandler?: GenerateHandler;
  private readonly hanging = new Set<() => void>();
  private readonly inFlight = new Map<string, number>();
  private readonly peakInFlight = new Map<string, number>();
  private server?: Server;
  private url = '';

  static async start(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
    const fake = new FakeGemini(options);
    await fake.listen();
    return fake;
  }

  private constructor(options: FakeGeminiOptions) {
    this.apiKey = options.apiKey ?? FAKE_GEMINI_API_KEY;
    this.dimensions = options.dimensions ?? DEFAULT_DIMENSIONS;
    this.latencyMs = options.latencyMs ?? 0;
    for (const [action, handler] of Object.entries(this.builtInRoutes())) this.routes.set(action, handler);
  }

  /** `http://127.0.0.1:PORT`, to pass as the client's baseUrl. */
  get baseUrl(): string {
    return this.url;
  }

  route(action: string, handler: RouteHandler): this {
    this.routes.set(action, handler);
    return this;
  }

  failNext(count: number, status = 429, opts: { action?: string; message?: string; retryDelaySeconds?: number } = {}): this {
    this.scripts.push({ remaining: count, action: opts.action, fail: { status, message: opts.message, retryDelaySeconds: opts.retryDelaySeconds } });
    return this;
  }

  corruptNext(count: number, kind: CorruptionKind, opts: { action?: string } = {}): this {
    this.scripts.push({ remaining: count, action: opts.action, corrupt: kind });
    return this;
  }

  setLatency(ms: number | LatencyFn): this {
    this.latencyMs = ms;
    return this;
  }

  /** The default answer of generateContent / streamGenerateContent. */
  onGenerate(handler: GenerateHandler | undefined): this {
    this.generateHandler = handler;
    return this;
  }

  /** The next `count` chat requests get this answer (FIFO with the other scripts), before onGenerate. */
  generateNext(count: number, reply: GenerateReply | GenerateHandler): this {
    const generate: GenerateHandler = typeof reply === 'function' ? reply : () => reply;
    this.scripts.push({ remaining: count, action: 'generateContent', generate });
    return this;
  }

  /** The next `count` requests (optionally only for `action`) are never answered. */
  hangNext(count: number, opts: { action?: string } = {}): this {
    this.scripts.push({ remaining: count, action: opts.action, hang: true });
    return this;
  }

  /** Most requests (optionally of one action) that were being answered at the same moment. */
  maxInFlight(action?: string): number {
    return this.peakInFlight.get(action ?? '*') ?? 0;
  }

  reset(): this {
    this.scripts = [];
    this.latencyMs = 0;
    this.requests.length = 0;
    this.generateHandler = undefined;
    this.peakInFlight.clear();
    this.releaseHanging();
    return this;
  }

  calls(action?: string): number {
    return action ? this.requests.filter((r) => r.action === action).length : this.requests.length;
  }

  /** The vector the fake returns for `text` (before any scripted corruption). */
  vectorFor(text: string, dimensions = this.dimensions): number[] {
    // Keyed by text only (not model), so tests can predict vectors without knowing the model.
    const out: number[] = [];
    let counter = 0;
    while (out.length < dimensions) {
      const block = createHash('sha256').update(`${counter++}\u0000${text}`).digest();
      for (let i = 0; i + BYTES_PER_UINT32 <= block.length && out.length < dimensions; i += BYTES_PER_UINT32) {
        out.push((block.readUInt32LE(i) / UINT32_RANGE - 0.5) * 2 * VECTOR_SCALE);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    this.releaseHanging();
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  }

  private builtInRoutes(): Record<string, RouteHandler> {
    return {
      embedContent: ({ body, corruption }) => {
        const dims = this.requestedDimensions(body?.outputDimensionality);
        const text = this.textOf(body?.content, 'content');
        if (corruption === 'missing') return { json: {} };
        return { json: { embedding: { values: this.corrupted(this.vectorFor(text, dims), corruption) } } };
      },
      batchEmbedContents: ({ model, body, corruption }) => {
        const requests = body?.requests;
        if (!Array.isArray(requests) || requests.length === 0) throw new HttpError(400, '* BatchEmbedContentsRequest.requests: must not be empty');
        if (requests.length > MAX_BATCH_REQUESTS) {
          throw new HttpError(400, `* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH_REQUESTS} requests can be in one batch`);
        }
        const embeddings = requests.map((r: { model?: string; content?: unknown; outputDimensionality?: unknown }, i: number) => {
          if (r?.model !== `models/${model}`) {
            throw new HttpError(400, `* BatchEmbedContentsRequest.requests[${i}].model: model "${r?.model}" does not match "models/${model}"`);
          }
          const dims = this.requestedDimensions(r.outputDimensionality);
          return { values: this.corrupted(this.vectorFor(this.textOf(r.content, `requests[${i}].content`), dims), corruption) };
        });
        return corruption === 'missing' ? { json: {} } : { json: { embeddings } };
      },
      generateContent: async ({ model, body }) => {
        const reply = await this.generateReply(model, body, 'generateContent');
        return { json: this.chatResponse(model, body, reply) };
      },
      streamGenerateContent: async ({ model, body }) => {
        const reply = await this.generateReply(model, body, 'streamGenerateContent');
        const response = this.chatResponse(model, body, reply);
        // One chunk per half of the text, the usage on the last one, like the real stream.
        const text: string = response.candidates[0].content.parts[0].text;
        const cut = Math.ceil(text.length / 2);
        const chunk = (t: string, last: boolean) => ({
          candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0, ...(last ? { finishReason: response.candidates[0].finishReason } : {}) }],
          ...(last ? { usageMetadata: response.usageMetadata } : {}),
        });
        return { sse: [chunk(text.slice(0, cut), false), chunk(text.slice(cut), true)], pauseAfterFirstChunk: reply.pauseAfterFirstChunk };
      },
    };
  }

  /** The scripted answer for one chat request: a generateNext script, else onGenerate, else a minimal valid value. */
  private async generateReply(model: string, body: any, action: string): Promise<GenerateReply> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const contents = Array.isArray(body?.contents) ? body.contents : [];
    if (contents.length === 0) throw new HttpError(400, '* GenerateContentRequest.contents: contents is not specified');
    const partsText = (c: { parts?: Array<{ text?: unknown }> } | undefined) =>
      (Array.isArray(c?.parts) ? c!.parts : []).map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
    const request: GenerateRequest = {
      model,
      text: contents.map(partsText).join('\n'),
      system: partsText(body?.systemInstruction),
      responseSchema: body?.generationConfig?.responseSchema,
      responseMimeType: body?.generationConfig?.responseMimeType,
      temperature: body?.generationConfig?.temperature,
      body,
    };
    const script = this.takeScript(action, (s) => s.generate !== undefined);
    const handler = script?.generate ?? this.generateHandler;
    const reply = handler ? await handler(request) : { json: minimalFromSchema(request.responseSchema) };
    if (reply.latencyMs) await new Promise((r) => setTimeout(r, reply.latencyMs));
    if (reply.hang) await this.hang();
    if (reply.status && reply.status >= 400) throw new HttpError(reply.status, reply.message ?? defaultMessage(reply.status));
    return reply;
  }

  private chatResponse(model: string, body: unknown, reply: GenerateReply) {
    const text = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    const promptTokens = Math.ceil(JSON.stringify(body ?? '').length / CHARS_PER_TOKEN);
    const outputTokens = Math.ceil(text.length / CHARS_PER_TOKEN);
    return {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: reply.finishReason ?? 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: outputTokens, totalTokenCount: promptTokens + outputTokens },
      modelVersion: model,
    };
  }

  /** Waits until the fake closes or resets: a request that never gets its answer. */
  private hang(): Promise<void> {
    return new Promise<void>((resolve) => this.hanging.add(resolve)).then(() => {
      throw new HttpError(503, 'fake closed while the request was hanging');
    });
  }

  private releaseHanging(): void {
    for (const release of this.hanging) release();
    this.hanging.clear();
  }

  private requestedDimensions(value: unknown): number {
    if (value === undefined || value === null) return this.dimensions;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DIMENSIONS) {
      throw new HttpError(400, `* outputDimensionality: must be an integer in [1, ${MAX_DIMENSIONS}], got ${JSON.stringify(value)}`);
    }
    return value;
  }

  private textOf(content: unknown, field: string): string {
    const parts = (content as { parts?: Array<{ text?: unknown }> })?.parts;
    if (!Array.isArray(parts) || parts.length === 0) throw new HttpError(400, `* ${field}.parts: must not be empty`);
    return parts.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  }

  private corrupted(v: number[], kind: CorruptionKind | undefined): Array<number | null> {
    switch (kind) {
      case 'empty':
        return [];
      case 'wrongDimensions':
        return v.slice(0, -1);
      case 'nonFinite':
        return v.map((x, i) => (i === 0 ? null : x));
      default:
        return v;
    }
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, LOOPBACK, () => {
        const { port } = this.server!.address() as AddressInfo;
        this.url = `http://${LOOPBACK}:${port}`;
        resolve();
      });
    });
  }

  private takeScript(action: string | undefined, kind: (s: Script) => boolean = (s) => s.generate === undefined): Script | undefined {
    // generateNext scripts apply to both chat actions; the others to any action unless they name one.
    const matches = (s: Script) =>
      !s.action || s.action === action || (s.generate !== undefined && action !== undefined && CHAT_ACTIONS.has(action));
    const idx = this.scripts.findIndex((s) => s.remaining > 0 && kind(s) && matches(s));
    if (idx < 0) return undefined;
    const script = this.scripts[idx];
    if (--script.remaining === 0) this.scripts.splice(idx, 1);
    return script;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const match = ROUTE_RE.exec(url.pathname);
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.search,
      model: match?.[2],
      action: match?.[3],
      headers: req.headers,
      body: undefined,
      status: 0,
      receivedAt: Date.now(),
    };
    this.requests.push(record);
    const counters = ['*', record.action ?? '?'];
    for (const c of counters) {
      const now = (this.inFlight.get(c) ?? 0) + 1;
      this.inFlight.set(c, now);
      this.peakInFlight.set(c, Math.max(now, this.peakInFlight.get(c) ?? 0));
    }
    let result: RouteResult;
    try {
      const rawBody = await readBody(req);
      try {
        record.body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        throw new HttpError(400, 'Invalid JSON payload received.');
      }
      const latency = typeof this.latencyMs === 'function' ? this.latencyMs({ action: record.action, model: record.model, body: record.body }) : this.latencyMs;
      if (latency > 0) await new Promise((r) => setTimeout(r, latency));
      result = await this.dispatch(req, url, match, record.body);
    } catch (err) {
      result = errorResult(err);
    }
    for (const c of counters) this.inFlight.set(c, (this.inFlight.get(c) ?? 1) - 1);
    record.status = result.status ?? 200;
    if (res.destroyed || res.writableEnded) return;
    record.respondedAt = Date.now();
    await send(res, result);
  }

  private async dispatch(req: IncomingMessage, url: URL, match: RegExpExecArray | null, body: unknown): Promise<RouteResult> {
    const key = req.headers['x-goog-api-key'];
    if (!key) throw new HttpError(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
    if (key !== this.apiKey) {
      throw new HttpError(400, 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
    }
    const handler = match ? this.routes.get(match[3]) : undefined;
    if (!match || !handler || req.method !== 'POST') {
      throw new HttpError(404, `Requested entity was not found: ${req.method} ${url.pathname}`);
    }
    const script = this.takeScript(match[3]);
    if (script?.hang) await this.hang();
    if (script?.fail) {
      const { status, message, retryDelaySeconds } = script.fail;
      const details = retryDelaySeconds === undefined ? undefined : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryDelaySeconds}s` }];
      throw new HttpError(status, message ?? defaultMessage(status), details);
    }
    if (script?.corrupt === 'invalidJson') return { raw: '{"embeddings": [ this is not json' };
    return handler({ model: match[2], action: match[3], body, query: url.searchParams, headers: req.headers, fake: this, corruption: script?.corrupt });
  }
}

/** The smallest value that satisfies a Gemini responseSchema (OpenAPI subset): what an unscripted chat answers. */
export function minimalFromSchema(schema: unknown): unknown {
  const s = schema as { type?: string; properties?: Record<string, unknown>; required?: string[]; enum?: string[] } | undefined;
  if (!s || typeof s !== 'object') return {};
  switch (String(s.type ?? 'object').toLowerCase()) {
    case 'object':
      return Object.fromEntries((s.required ?? []).filter((k) => s.properties?.[k]).map((k) => [k, minimalFromSchema(s.properties![k])]));
    case 'array':
      return [];
    case 'string':
      return s.enum?.[0] ?? '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function defaultMessage(status: number): string {
  if (status === 429) return 'Resource has been exhausted (e.g. check quota).';
  if (status >= 500) return 'An internal error has occurred. Please retry or report in the troubleshooting guide.';
  return 'Request failed.';
}

function errorResult(err: unknown): RouteResult {
  const status = err instanceof HttpError ? err.status : 500;
  const message = err instanceof Error ? err.message : String(err);
  const details = err instanceof HttpError ? err.details : undefined;
  return { status, json: { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN', ...(details ? { details } : {}) } } };
}

/** The whole request body as text (shared by the fake model servers). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function send(res: ServerResponse, result: RouteResult): Promise<void> {
  const status = result.status ?? 200;
  if (result.sse) {
    res.writeHead(status, { 'content-type': 'text/event-stream' });
    for (const [i, chunk] of result.sse.entries()) {
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      if (i === 0 && result.pauseAfterFirstChunk) await result.pauseAfterFirstChunk;
    }
    res.end();
    return;
  }
  const body = result.raw ?? JSON.stringify(result.json ?? {});
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
