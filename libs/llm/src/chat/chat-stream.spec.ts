import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { callTextWithRetry } from './chat-stream';
import { OpenAiCompatibleChatClient } from './openai-chat.client';

// The OpenAI-compatible stream (Ollama, llama.cpp) against a loopback server speaking its SSE wire shape.
describe('OpenAI-compatible streaming chat', () => {
  let server: Server;
  let baseUrl: string;
  const replies: Array<{ status: number; body: string; retryAfter?: string; cut?: boolean }> = [];
  const bodies: any[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        const reply = replies.shift() ?? { status: 500, body: 'no reply scripted' };
        res.writeHead(reply.status, { 'content-type': reply.status === 200 ? 'text/event-stream' : 'text/plain', ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}) });
        if (reply.cut) {
          // The connection breaks after the first chunks: the client has already shown them.
          res.write(reply.body);
          setImmediate(() => res.destroy());
        } else res.end(reply.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
  const delta = (content: string) => ({ choices: [{ delta: { content } }] });

  it('streams chunks in order and reads the usage event', async () => {
    replies.push({ status: 200, body: sse(delta('[Answer:] It '), delta('is X.'), { choices: [], usage: { prompt_tokens: 12, completion_tokens: 4 } }, '[DONE]') });
    const client = new OpenAiCompatibleChatClient({ baseUrl, model: 'llama3' });
    const chunks: string[] = [];
    const answer = await client.streamText({ system: 's', user: 'u', onChunk: (t) => chunks.push(t) });
    expect(chunks).toEqual(['[Answer:] It ', 'is X.']);
    expect(answer).toEqual({ text: '[Answer:] It is X.', usage: { inputTokens: 12, outputTokens: 4 } });
    expect(bodies[bodies.length - 1]).toMatchObject({ model: 'llama3', stream: true, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] });
  });

  it('retries a 503 under the shared policy, and gives up on a 400', async () => {
    const client = new OpenAiCompatibleChatClient({ baseUrl, model: 'llama3' });
    replies.push({ status: 503, body: 'busy' }, { status: 200, body: sse(delta('ok'), '[DONE]') });
    const done = await callTextWithRetry(client, { system: 's', user: 'u' }, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 }, 5_000);
    expect(done).toMatchObject({ text: 'ok', attempts: 2 });
    replies.push({ status: 400, body: 'bad request' });
    await expect(callTextWithRetry(client, { system: 's', user: 'u' }, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 }, 5_000)).rejects.toThrow(/HTTP 400/);
  });

  it('does not retry a call that already streamed text', async () => {
    const client = new OpenAiCompatibleChatClient({ baseUrl, model: 'llama3' });
    replies.push({ status: 200, body: sse(delta('half an ')), cut: true }, { status: 200, body: sse(delta('ok'), '[DONE]') });
    const chunks: string[] = [];
    const calls = bodies.length;
    await expect(callTextWithRetry(client, { system: 's', user: 'u', onChunk: (t) => chunks.push(t) }, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 }, 5_000)).rejects.toThrow();
    expect(chunks).toEqual(['half an ']);
    expect(bodies.length - calls).toBe(1);
    replies.length = 0;
  });

  it('does not start a retry whose wait would overrun the time limit', async () => {
    const client = new OpenAiCompatibleChatClient({ baseUrl, model: 'llama3' });
    // The server asks for 10 s; the call has 5 s in all, so it gives up at once with the 503.
    replies.push({ status: 503, body: 'busy', retryAfter: '10' }, { status: 200, body: sse(delta('ok'), '[DONE]') });
    const calls = bodies.length;
    await expect(callTextWithRetry(client, { system: 's', user: 'u' }, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 60_000 }, 5_000)).rejects.toThrow(/HTTP 503/);
    expect(bodies.length - calls).toBe(1);
    replies.length = 0;
  });
});
