import { seededRandom } from '../prompt/shuffle';
import { complete, expire, initialDispatch, initialState, SchedulerState } from './completion-model';

const FAR = Number.MAX_SAFE_INTEGER;

/** Simulates workers: in flight is a set; each step one random in-flight batch finishes (maybe twice). */
function simulate(state: SchedulerState, seed: number, duplicateRate = 0.3) {
  const random = seededRandom(seed);
  const inFlight = new Map<number, number>(initialDispatch(state).map(([position, batch]) => [batch, position]));
  let peak = inFlight.size;
  const started: number[] = [...inFlight.keys()];
  const finished: number[] = [];
  while (inFlight.size > 0) {
    const batches = [...inFlight.keys()];
    const batch = batches[Math.floor(random() * batches.length)];
    const position = inFlight.get(batch)!;
    inFlight.delete(batch);
    const verdict = complete(state, batch, position, 0);
    expect(verdict.outcome).toBe('accepted');
    finished.push(batch);
    if (random() < duplicateRate) {
      // The same job again (a retry after a crash): counted once, same successors handed back.
      const again = complete(state, batch, position, 0);
      expect(again).toMatchObject({ outcome: 'duplicate', done: state.done, successors: verdict.outcome === 'accepted' ? verdict.successors : [] });
    }
    if (verdict.outcome === 'accepted') {
      for (const [p, b] of verdict.successors) {
        expect(inFlight.has(b) || started.includes(b)).toBe(false);
        inFlight.set(b, p);
        started.push(b);
      }
    }
    peak = Math.max(peak, inFlight.size);
  }
  return { peak, started, finished };
}

describe('scheduler bookkeeping (the model of the Lua script)', () => {
  it.each([1, 2, 3, 5, 7])('pool: every batch exactly once, never more than parallel=%i in flight, one successor per completion', (parallel) => {
    for (let seed = 1; seed <= 20; seed++) {
      const order = Array.from({ length: 13 }, (_, i) => i);
      const state = initialState({ total: 13, preDone: 0, order, parallel, mode: 'pool', deadlineAt: FAR });
      const { peak, started, finished } = simulate(state, seed);
      expect(peak).toBe(Math.min(parallel, 13));
      expect([...started].sort((a, b) => a - b)).toEqual(order);
      expect(finished).toHaveLength(13);
      expect(state).toMatchObject({ status: 'completed', done: 13, finalReason: 'done' });
    }
  });

  it('pool: the next batch is claimed by whichever batch finishes first', () => {
    const state = initialState({ total: 4, preDone: 0, order: [0, 1, 2, 3], parallel: 2, mode: 'pool', deadlineAt: FAR });
    expect(initialDispatch(state)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(complete(state, 1, 1, 0)).toMatchObject({ successors: [[2, 2]] }); // batch 0 is still running
    expect(complete(state, 2, 2, 0)).toMatchObject({ successors: [[3, 3]] });
    expect(complete(state, 3, 3, 0)).toMatchObject({ successors: [], status: 'running' });
    expect(complete(state, 0, 0, 0)).toMatchObject({ successors: [], status: 'completed', done: 4 });
  });

  it('waves: the next group starts only when the whole wave is done', () => {
    const state = initialState({ total: 5, preDone: 0, order: [0, 1, 2, 3, 4], parallel: 2, mode: 'waves', deadlineAt: FAR });
    expect(complete(state, 1, 1, 0)).toMatchObject({ successors: [] });
    expect(complete(state, 0, 0, 0)).toMatchObject({ successors: [[2, 2], [3, 3]] });
    expect(complete(state, 3, 3, 0)).toMatchObject({ successors: [] });
    expect(complete(state, 2, 2, 0)).toMatchObject({ successors: [[4, 4]] });
    for (let seed = 1; seed <= 10; seed++) {
      const s = initialState({ total: 9, preDone: 0, order: Array.from({ length: 9 }, (_, i) => i), parallel: 4, mode: 'waves', deadlineAt: FAR });
      expect(simulate(s, seed).started).toHaveLength(9);
    }
  });

  it('counts cache hits as done and dispatches only the misses, in order', () => {
    const state = initialState({ total: 5, preDone: 3, order: [1, 4], parallel: 5, mode: 'pool', deadlineAt: FAR });
    expect(initialDispatch(state)).toEqual([
      [0, 1],
      [1, 4],
    ]);
    complete(state, 4, 1, 0);
    expect(complete(state, 1, 0, 0)).toMatchObject({ status: 'completed', done: 5 });
    expect(initialState({ total: 2, preDone: 2, order: [], parallel: 5, mode: 'pool', deadlineAt: FAR }).status).toBe('completed');
  });

  it('deadline: the first completion after it ends the rerank and claims nothing; later ones are late', () => {
    const state = initialState({ total: 4, preDone: 0, order: [0, 1, 2, 3], parallel: 2, mode: 'pool', deadlineAt: 100 });
    expect(complete(state, 0, 0, 50)).toMatchObject({ outcome: 'accepted', successors: [[2, 2]], status: 'running' });
    expect(complete(state, 1, 1, 150)).toMatchObject({ outcome: 'accepted', successors: [], status: 'completed' });
    expect(state.finalReason).toBe('deadline');
    expect(complete(state, 2, 2, 160)).toEqual({ outcome: 'late', done: 2, total: 4, successors: [], status: 'completed' });
    expect(complete(state, 1, 1, 170)).toMatchObject({ outcome: 'duplicate', done: 2 });
  });

  it('expire: once, and only after the deadline', () => {
    const state = initialState({ total: 2, preDone: 0, order: [0, 1], parallel: 1, mode: 'pool', deadlineAt: 100 });
    expect(expire(state, 99)).toBe(false);
    expect(expire(state, 100)).toBe(true);
    expect(expire(state, 101)).toBe(false);
    expect(state).toMatchObject({ status: 'completed', finalReason: 'deadline' });
  });
});
