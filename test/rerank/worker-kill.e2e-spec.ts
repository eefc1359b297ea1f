import { Redis } from 'ioredis';
import { FAKE_GEMINI_API_KEY, FakeGemini } from '../fakes/fake-gemini';
import { indexOf, pointwiseJudge, promptCandidates, requestText } from '../fakes/rerank-scripts';
import { collect, gql, wsClient } from '../support/graphql-client';
import { API_READY, freePort, runId, RunningApp, startApp, WORKER_READY } from '../support/processes';
import { numberedScopes, RERANK_PROGRESS, ScopeSeeder, START_RERANK } from './support/rerank-harness';

/**
 * A worker killed (SIGKILL) while batches are in flight: BullMQ hands the stalled batch jobs to the
 * restarted worker (after their locks expire, ~30-60 s with BullMQ's default lock and stalled-check
 * intervals), and the rerank completes with every batch scored exactly once.
 */
describe('rerank survives a worker killed mid-rerank', () => {
  const LATENCY_MS = 1_500;
  const BATCHES = 10;
  const KILL_DELAY_MS = 500;
  let gemini: FakeGemini;
  const seeder = new ScopeSeeder();
  const repo = runId('rrkill');
  const prefix = runId('rrk');
  let api: RunningApp;
  let worker: RunningApp;
  let restarted: RunningApp | undefined;
  let url: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    gemini = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY, latencyMs: LATENCY_MS });
    gemini.onGenerate(pointwiseJudge({ score: (c) => indexOf(c) / 30 }));
    env = { QUEUE_PREFIX: prefix, GEMINI_API_KEY: FAKE_GEMINI_API_KEY, GEMINI_BASE_URL: gemini.baseUrl, RERANK_PROVIDER: 'gemini' };
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    [api, worker] = await Promise.all([startApp('api', { ...env, API_PORT: String(port) }, API_READY), startApp('worker', env, WORKER_READY)]);
  });

  afterAll(async () => {
    // A SIGKILLed child has no exit code, so stop() would wait for an exit that already happened.
    await Promise.all([api?.stop(), worker?.process.signalCode ? undefined : worker?.stop(), restarted?.stop()]);
    await seeder.close();
    await gemini?.close();
  });

  it(
    'completes after the worker restarts, no batch lost or counted twice',
    async () => {
      const ids = await seeder.seed(repo, numberedScopes(30));
      const started = await gql(url, START_RERANK, {
        input: { question: 'survive a crash', scopeIds: ids, options: { batchSize: 3, parallel: 3, timeoutMs: 170_000, batchTimeoutMs: 60_000 } },
      });
      expect(started.body.errors).toBeUndefined();
      const jobId = started.body.data.startRerank.jobId;

      const client = wsClient(url);
      let killedAt = 0;
      let killScheduled = false;
      const events: any[] = [];
      try {
        const done = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no final event; got ${JSON.stringify(events.map((e) => e.done))}`)), 150_000);
          client.subscribe(
            { query: RERANK_PROGRESS, variables: { jobId } },
            {
              next: (value) => {
                const event = (value as any).data.rerankProgress;
                events.push(event);
                // Kill a moment after the first progress event, while the batches it freed slots for are
                // waiting on the model; the rest are queued.
                if (!killScheduled && event.kind === 'PROGRESS') {
                  killScheduled = true;
                  setTimeout(() => {
                    killedAt = Date.now();
                    worker.process.kill('SIGKILL');
                    void startApp('worker', env, WORKER_READY).then((w) => (restarted = w), reject);
                  }, KILL_DELAY_MS);
                }
              },
              error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
              complete: () => {
                clearTimeout(timer);
                resolve();
              },
            },
          );
        });
        await done;
      } finally {
        await client.dispose();
      }

      const final = events[events.length - 1];
      expect(final.kind).toBe('COMPLETED');
      const result = final.result;
      expect(result).toMatchObject({ status: 'COMPLETED', reason: 'done', done: BATCHES, total: BATCHES, fallbacks: 0 });
      // Every candidate was scored exactly as the model said: nothing lost, nothing fell back.
      expect(result.hits).toHaveLength(30);
      for (const hit of result.hits) {
        expect(hit.scoreBreakdown.scored).toBe(true);
        expect(hit.scoreBreakdown.llm).toBeCloseTo(indexOf(hit.scope) / 30, 10);
      }
      expect(result.hits[0].scope.name).toBe('fn29');

      // The kill really interrupted batches: some requests never got their answer, and their batches
      // were asked again by the restarted worker.
      const chat = gemini.requests.filter((r) => r.action === 'generateContent');
      const interrupted = chat.filter((r) => r.receivedAt < killedAt && r.respondedAt === undefined);
      expect(interrupted.length).toBeGreaterThan(0);
      const batchesAsked = new Set(chat.map((r) => promptCandidates(requestText(r.body))[0].name));
      expect(batchesAsked.size).toBe(BATCHES);
      expect(chat.length).toBeGreaterThan(BATCHES);

      // The counter in Redis was incremented once per batch, re-runs included.
      const redis = new Redis(seeder.config.redis.url);
      try {
        const state = await redis.hgetall(`${prefix}:rerank:{${jobId}}:state`);
        expect(state).toMatchObject({ status: 'completed', done: String(BATCHES), total: String(BATCHES), finalReason: 'done' });
        expect(await redis.hlen(`${prefix}:rerank:{${jobId}}:results`)).toBe(BATCHES);
      } finally {
        redis.disconnect();
      }
      // Progress kept flowing through the same subscription across the kill, in order.
      const progress = events.filter((e) => e.kind === 'PROGRESS').map((e) => e.done);
      expect(progress).toEqual([...new Set(progress)].sort((a, b) => a - b));
      expect(progress[progress.length - 1]).toBe(BATCHES);
    },
    170_000,
  );
});
