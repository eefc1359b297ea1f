import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimitedFetch, RateLimitGiveUpError, type RateWaitEvent } from './rate-limit';

/**
 * A small HTTP server that limits like the API (@nestjs/throttler's headers, a GraphQL 429 body),
 * driven by the same virtual clock the client sleeps on: no real waiting, nothing raced.
 */
class LimitedServer {
  readonly server = http.createServer((req, res) => this.handle(req, res));
  sent: { at: number; status: number }[] = [];
  private windowStart = 0;
  private used = 0;
  constructor(private readonly clock: { now: number }, readonly limit: number, readonly windowMs: number, private readonly headers = true) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/graphql`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    req.on('end', () => {
      if (this.clock.now - this.windowStart >= this.windowMs) {
        this.windowStart = this.clock.now;
        this.used = 0;
      }
      const resetS = Math.ceil((this.windowStart + this.windowMs - this.clock.now) / 1000);
      if (this.used >= this.limit) {
        this.sent.push({ at: this.clock.now, status: 429 });
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(resetS) });
        res.end(JSON.stringify({ errors: [{ message: 'rate limit reached', extensions: { code: 'RATE_LIMITED', retryAfterS: resetS } }] }));
        return;
      }
      this.used++;
      this.sent.push({ at: this.clock.now, status: 200 });
      const limits = this.headers
        ? { 'x-ratelimit-limit': String(this.limit), 'x-ratelimit-remaining': String(this.limit - this.used), 'x-ratelimit-reset': String(resetS) }
        : {};
      res.writeHead(200, { 'content-type': 'application/json', ...limits });
      res.end(JSON.stringify({ data: { ok: true } }));
    });
  }
}

describe('RateLimitedFetch', () => {
  const servers: LimitedServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.server.close(r)))));

  const setup = async (limit: number, windowMs: number, opts: { headers?: boolean; maxWaitMs?: number } = {}) => {
    const clock = { now: 1_000_000 };
    const server = new LimitedServer(clock, limit, windowMs, opts.headers ?? true);
    servers.push(server);
    const url = await server.start();
    const waits: RateWaitEvent[] = [];
    const client = new RateLimitedFetch({
      now: () => clock.now,
      sleep: async (ms) => void (clock.now += ms),
      random: () => 0,
      maxWaitMs: opts.maxWaitMs,
      onWait: (e) => waits.push(e),
    });
    const post = () => client.fetch(url, { method: 'POST', body: '{"query":"{ ok }"}' });
    return { clock, server, client, waits, post };
  };

  it('paces itself by the limit headers: never refused, waits exactly until each window resets', async () => {
    const { server, client, waits, post } = await setup(3, 10_000);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await post()).status);
    expect(statuses).toEqual(Array(10).fill(200));
    expect(server.sent.every((s) => s.status === 200)).toBe(true);
    expect(waits.map((w) => [w.reason, w.waitMs])).toEqual([['paced', 10_000], ['paced', 10_000], ['paced', 10_000]]);
    expect(client.stats).toEqual({ limited: 0, paced: 3, waitedMs: 30_000 });
  });

  it('without limit headers, waits the Retry-After of each 429 and goes on; its 429 count is the server\'s', async () => {
    const { server, client, waits, post } = await setup(2, 6_000, { headers: false });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = server.sent.filter((s) => s.status === 429).length;
    expect(refused).toBe(2);
    expect(client.stats.limited).toBe(refused);
    expect(waits.map((w) => w.message)).toEqual(['rate limited, resuming in 6 s', 'rate limited, resuming in 6 s']);
    expect(client.stats.waitedMs).toBe(12_000);
  });

  it('adds jitter of up to a tenth of the wait', async () => {
    const clock = { now: 0 };
    const server = new LimitedServer(clock, 1, 20_000, false);
    servers.push(server);
    const url = await server.start();
    const client = new RateLimitedFetch({ now: () => clock.now, sleep: async (ms) => void (clock.now += ms), random: () => 0.5 });
    await client.fetch(url, { method: 'POST', body: '{}' });
    await client.fetch(url, { method: 'POST', body: '{}' });
    expect(client.stats.waitedMs).toBe(21_000);
  });

  it('gives up with a clear message when one request would wait past the limit it was given', async () => {
    const { server, post } = await setup(1, 60_000, { headers: false, maxWaitMs: 30_000 });
    await post();
    await expect(post()).rejects.toThrow(RateLimitGiveUpError);
    await expect(post()).rejects.toThrow(/could go through in 60 s, past the 30 s this client may wait \(SCOPEGRAPH_MAX_RATE_WAIT_S/);
    // the third request knew the window was spent: it gave up without being refused again
    expect(server.sent.map((s) => s.status)).toEqual([200, 429]);
  });
});
