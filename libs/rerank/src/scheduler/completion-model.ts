import { Scheduling } from '../rerank.types';

/**
 * The scheduler's bookkeeping as a pure state machine: the executable specification of the Lua
 * script in rerank-store.ts (which runs it atomically in Redis). Tests drive both with the same
 * completion orders and compare.
 *
 * Batches still to score are dispatched in `order`; `next` points at the first one not yet
 * dispatched. Completing a batch, exactly once:
 *   - records it and counts it (a second completion of the same batch — a retried job after a crash —
 *     changes nothing and returns the successors recorded the first time, so they can be enqueued
 *     again idempotently: a batch is never lost and never counted twice);
 *   - pool:  claims the next batch at once (at most `parallel` in flight, the next one starting as
 *            soon as ANY finishes);
 *     waves: claims the next `parallel` batches only when every batch of its wave has finished;
 *   - completes the rerank when every batch is done, or when the deadline has passed.
 */
export interface SchedulerState {
  status: 'running' | 'completed';
  total: number;
  done: number;
  next: number;
  order: number[];
  parallel: number;
  mode: Scheduling;
  deadlineAt: number;
  finalReason: string | null;
  /** batch -> successors claimed when it completed (as [position, batch]). */
  completed: Map<number, Array<[number, number]>>;
  waveDone: Map<number, number>;
}

export type CompletionVerdict =
  | { outcome: 'accepted'; done: number; total: number; successors: Array<[number, number]>; status: SchedulerState['status'] }
  | { outcome: 'duplicate'; done: number; total: number; successors: Array<[number, number]>; status: SchedulerState['status'] }
  | { outcome: 'late'; done: number; total: number; successors: []; status: 'completed' }
  | { outcome: 'unknown' };

export function initialState(p: { total: number; preDone: number; order: number[]; parallel: number; mode: Scheduling; deadlineAt: number }): SchedulerState {
  const done = p.preDone;
  return {
    status: done >= p.total ? 'completed' : 'running',
    total: p.total,
    done,
    next: Math.min(p.parallel, p.order.length),
    order: p.order,
    parallel: p.parallel,
    mode: p.mode,
    deadlineAt: p.deadlineAt,
    finalReason: done >= p.total ? 'done' : null,
    completed: new Map(),
    waveDone: new Map(),
  };
}

/** The batches to enqueue when the rerank starts, as [position, batch]. */
export function initialDispatch(state: SchedulerState): Array<[number, number]> {
  return state.order.slice(0, state.next).map((batch, position) => [position, batch]);
}

export function complete(state: SchedulerState, batch: number, position: number, now: number): CompletionVerdict {
  const previous = state.completed.get(batch);
  if (previous) return { outcome: 'duplicate', done: state.done, total: state.total, successors: previous, status: state.status };
  if (state.status !== 'running') return { outcome: 'late', done: state.done, total: state.total, successors: [], status: 'completed' };
  state.done++;
  const successors: Array<[number, number]> = [];
  if (state.mode === 'waves') {
    const wave = Math.floor(position / state.parallel);
    const waveDone = (state.waveDone.get(wave) ?? 0) + 1;
    state.waveDone.set(wave, waveDone);
    const waveSize = Math.min(state.parallel, state.order.length - wave * state.parallel);
    if (waveDone === waveSize) {
      while (state.next < state.order.length && successors.length < state.parallel) {
        successors.push([state.next, state.order[state.next]]);
        state.next++;
      }
    }
  } else if (state.next < state.order.length) {
    successors.push([state.next, state.order[state.next]]);
    state.next++;
  }
  if (state.done >= state.total) {
    state.status = 'completed';
    state.finalReason = 'done';
  } else if (now >= state.deadlineAt) {
    state.status = 'completed';
    state.finalReason = 'deadline';
    successors.length = 0;
  }
  state.completed.set(batch, successors);
  return { outcome: 'accepted', done: state.done, total: state.total, successors, status: state.status };
}

/** The deadline passed: complete with what is done (idempotent; false when nothing changed). */
export function expire(state: SchedulerState, now: number): boolean {
  if (state.status !== 'running' || now < state.deadlineAt) return false;
  state.status = 'completed';
  state.finalReason = 'deadline';
  return true;
}
