import { loadConfig } from '@scopegraph/config';
import { QueueService } from '@scopegraph/queue';
import { completeBatchModel, RerankStore, schedulerInitialState } from '@scopegraph/rerank';
import type { CompletionVerdict, RerankOptions, Scheduling } from '@scopegraph/rerank';
import { seededRandom } from '../../libs/rerank/src/prompt/shuffle';
import { runId } from '../support/processes';

/**
 * The scheduler's Lua script on the real Redis, against its executable specification
 * (completion-model.ts): same completion orders, same verdicts. Plus what only Redis can show:
 * completions racing from separate connections.
 */
describe('rerank scheduler state in Redis', () => {
  const base = loadConfig();
  const config = { ...base, queue: { prefix: runId('rrsched') } };
  const queues = new QueueService(config);
  const store = new RerankStore(queues);
  // The shared connection fails fast while not connected (no offline queue): wait for it, as the apps do at boot.
  beforeAll(() => queues.onModuleInit());
  let n = 0;

  afterAll(async () => {
    const keys = await queues.redis.keys(`${config.queue.prefix}:*`);
    if (keys.length > 0) await queues.redis.del(...keys);
    await queues.onModuleDestroy();
  });

  const OPTIONS: RerankOptions = {
    batchSize: 1,
    parallel: 1,
    minScore: 0,
    withSuggestions: false,
    scoreMerging: 'weighted',
    weights: { vector: 0.3, llm: 0.7 },
    candidateCount: null,
    timeoutMs: 60_000,
    batchTimeoutMs: 1_000,
    strategy: 'pointwise',
    shuffleSeed: null,
    limit: null,
    scheduling: 'pool',
  };

  async function create(p: { total: number; order?: number[]; parallel: number; mode: Scheduling; deadlineAt?: number }) {
    const id = `rr${(++n).toString(16).padStart(16, '0')}`;
    const order = p.order ?? Array.from({ length: p.total }, (_, i) => i);
    const prefilled = new Map(
      Array.from({ length: p.total }, (_, b) => b)
        .filter((b) => !order.includes(b))
        .map((b) => [b, outcome(b)]),
    );
    const deadlineAt = p.deadlineAt ?? Date.now() + 60_000;
    await store.create({
      meta: {
        id,
        question: 'q',
        queryDescription: null,
        options: { ...OPTIONS, parallel: p.parallel, scheduling: p.mode },
        reranker: 'gemini',
        model: 'm',
        strategy: 'pointwise',
        total: p.total,
        reranked: p.total,
        skipReason: null,
        cache: { hits: prefilled.size, misses: order.length },
        notes: [],
        createdAt: Date.now(),
        deadlineAt,
        batchKeys: [],
      },
      candidates: [],
      inputs: new Map(order.map((b) => [b, []])),
      prefilled,
      order,
      parallel: p.parallel,
      mode: p.mode,
    });
    const model = schedulerInitialState({ total: p.total, preDone: prefilled.size, order, parallel: p.parallel, mode: p.mode, deadlineAt });
    return { id, model };
  }

  function outcome(batch: number) {
    return {
      batch,
      ok: true,
      reranker: 'gemini' as const,
      model: 'm',
      strategy: 'pointwise' as const,
      fallbackReason: null,
      detail: null,
      scores: {},
      feedback: null,
      ignored: { duplicates: 0, invented: 0 },
      calls: 1,
      durationMs: 1,
      cached: false,
    };
  }

  const comparable = (v: CompletionVerdict) => JSON.parse(JSON.stringify(v));

  it.each<[Scheduling, number]>([
    ['pool', 1],
    ['pool', 3],
    ['waves', 3],
    ['waves', 4],
  ])('%s, parallel %i: the Lua script gives the model\'s verdicts for random completion orders with retries', async (mode, parallel) => {
    for (let seed = 1; seed <= 6; seed++) {
      const random = seededRandom(seed * 31 + parallel);
      const total = 11;
      // Some batches come from the cache: they are done from the start and never dispatched.
      const order = Array.from({ length: total }, (_, i) => i).filter((b) => !(seed % 2 === 0 && b % 4 === 1));
      const { id, model } = await create({ total, order, parallel, mode });
      const inFlight: Array<[number, number]> = order.slice(0, Math.min(parallel, order.length)).map((b, p) => [p, b]);
      const completed: Array<[number, number]> = [];
      while (inFlight.length > 0) {
        // Either a batch in flight finishes, or one that already finished runs again (a retried job).
        const replay = completed.length > 0 && random() < 0.25;
        const [position, batch] = replay ? completed[Math.floor(random() * completed.length)] : inFlight.splice(Math.floor(random() * inFlight.length), 1)[0];
        const expected = completeBatchModel(model, batch, position, Date.now());
        const actual = await store.complete(id, batch, position, outcome(batch));
        expect(comparable(actual)).toEqual(comparable(expected));
        if (!replay) {
          completed.push([position, batch]);
          if (actual.outcome === 'accepted') inFlight.push(...actual.successors);
        }
      }
      expect(model.done).toBe(total);
      expect(await store.status(id)).toMatchObject({ status: 'completed' });
    }
  });

  it('hands back the successors claimed before a crash, so re-running the job enqueues them again', async () => {
    const { id } = await create({ total: 5, parallel: 2, mode: 'pool' });
    const first = await store.complete(id, 1, 1, outcome(1));
    expect(first).toMatchObject({ outcome: 'accepted', done: 1, successors: [[2, 2]] });
    // ...the worker dies before it enqueued batch 2; BullMQ runs batch 1's job again:
    const again = await store.complete(id, 1, 1, outcome(1));
    expect(again).toEqual({ outcome: 'duplicate', done: 1, total: 5, successors: [[2, 2]], status: 'running' });
    expect(await queues.redis.hget(store.keys(id).state, 'done')).toBe('1');
  });

  it('completes at the deadline: the next completion ends it, later ones are late; expire() works once', async () => {
    // Time is passed to every call: the deadline is crossed by moving `now`, not by sleeping.
    const t0 = Date.now();
    const deadlineAt = t0 + 150;
    const { id } = await create({ total: 4, parallel: 2, mode: 'pool', deadlineAt });
    expect(await store.complete(id, 0, 0, outcome(0), t0)).toMatchObject({ outcome: 'accepted', successors: [[2, 2]], status: 'running' });
    expect(await store.expire(id, t0)).toBe(false);
    const after = deadlineAt + 50;
    expect(await store.complete(id, 1, 1, outcome(1), after)).toMatchObject({ outcome: 'accepted', successors: [], status: 'completed' });
    expect(await store.complete(id, 2, 2, outcome(2), after)).toMatchObject({ outcome: 'late' });
    const snapshot = await store.snapshot(id);
    expect(snapshot!.state).toMatchObject({ status: 'completed', finalReason: 'deadline', done: 2 });
    expect([...snapshot!.outcomes.keys()].sort()).toEqual([0, 1]);

    const other = await create({ total: 2, parallel: 1, mode: 'pool', deadlineAt: t0 + 50 });
    expect(await store.expire(other.id, t0 + 80)).toBe(true);
    expect(await store.expire(other.id, t0 + 80)).toBe(false);
    expect(await store.complete(other.id, 0, 0, outcome(0), t0 + 80)).toMatchObject({ outcome: 'late' });
  });

  it('counts each batch once when completions race from many connections, never exceeding parallel in flight', async () => {
    const total = 60;
    const parallel = 5;
    const { id } = await create({ total, parallel, mode: 'pool' });
    const workers = Array.from({ length: 8 }, () => {
      const q = new QueueService(config);
      return { q, store: new RerankStore(q) };
    });
    await Promise.all(workers.map((w) => w.q.onModuleInit()));
    const queue: Array<[number, number]> = Array.from({ length: parallel }, (_, i) => [i, i]);
    const dispatched = new Set<number>(queue.map(([, b]) => b));
    let inFlight = 0;
    let peak = 0;
    let accepted = 0;
    const random = seededRandom(7);
    try {
      await Promise.all(
        workers.map(async (w) => {
          for (;;) {
            const next = queue.shift();
            if (!next) {
              if (accepted === total) return;
              await new Promise((r) => setTimeout(r, 1));
              continue;
            }
            inFlight++;
            peak = Math.max(peak, inFlight);
            await new Promise((r) => setTimeout(r, random() * 5));
            const [position, batch] = next;
            // Every completion is sent twice, concurrently, as a crashed-and-retried job would.
            const [a, b] = await Promise.all([w.store.complete(id, batch, position, outcome(batch)), w.store.complete(id, batch, position, outcome(batch))]);
            inFlight--;
            expect([a.outcome, b.outcome].sort()).toEqual(['accepted', 'duplicate']);
            accepted++;
            type Settled = Extract<CompletionVerdict, { outcome: 'accepted' | 'duplicate' }>;
            const [won, lost] = (a.outcome === 'accepted' ? [a, b] : [b, a]) as [Settled, Settled];
            const successors = won.successors;
            expect(lost.successors).toEqual(successors);
            for (const s of successors) {
              expect(dispatched.has(s[1])).toBe(false);
              dispatched.add(s[1]);
              queue.push(s);
            }
          }
        }),
      );
    } finally {
      await Promise.all(workers.map((w) => w.q.onModuleDestroy()));
    }
    expect(accepted).toBe(total);
    expect(dispatched.size).toBe(total);
    expect(peak).toBeLessThanOrEqual(parallel);
    expect(await queues.redis.hgetall(store.keys(id).state)).toMatchObject({ status: 'completed', done: String(total), finalReason: 'done' });
    expect(await queues.redis.hlen(store.keys(id).results)).toBe(total);
  });
});
