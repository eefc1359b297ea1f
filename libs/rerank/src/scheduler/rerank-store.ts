import { Injectable } from '@nestjs/common';
import { QueueService } from '@scopegraph/queue';
import { Redis } from 'ioredis';
import { PromptScope } from '../prompt/prompt';
import { BatchOutcome, RerankResult, Scheduling } from '../rerank.types';
import { RerankMeta, StateView, StoredCandidate } from '../scoring/assemble';
import { CompletionVerdict } from './completion-model';

/** How long a rerank's state and result stay readable after it starts. */
export const RERANK_STATE_TTL_S = 24 * 3600;
const META_CACHE_SIZE = 256;

/**
 * Completes one batch atomically; the same logic as `complete()` in completion-model.ts.
 * KEYS: state, results, succ, order. ARGV: batch, position, outcome JSON, now, TTL (s) for keys it creates.
 * Returns {code, done, total, successors "pos:batch,...", status}; code 1 accepted, 0 duplicate,
 * 2 late (the rerank already completed), -1 unknown rerank.
 */
const COMPLETE_LUA = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-1, 0, 0, '', ''} end
local batch = ARGV[1]
local done = tonumber(redis.call('HGET', KEYS[1], 'done'))
local total = tonumber(redis.call('HGET', KEYS[1], 'total'))
if redis.call('HEXISTS', KEYS[2], batch) == 1 then
  return {0, done, total, redis.call('HGET', KEYS[3], batch) or '', status}
end
if status ~= 'running' then return {2, done, total, '', status} end
redis.call('HSET', KEYS[2], batch, ARGV[3])
if redis.call('TTL', KEYS[2]) < 0 then redis.call('EXPIRE', KEYS[2], ARGV[5]) end
done = redis.call('HINCRBY', KEYS[1], 'done', 1)
local nextPos = tonumber(redis.call('HGET', KEYS[1], 'next'))
local queued = tonumber(redis.call('HGET', KEYS[1], 'queued'))
local parallel = tonumber(redis.call('HGET', KEYS[1], 'parallel'))
local succ = {}
if redis.call('HGET', KEYS[1], 'mode') == 'waves' then
  local wave = math.floor(tonumber(ARGV[2]) / parallel)
  local waveDone = redis.call('HINCRBY', KEYS[1], 'wave:' .. wave, 1)
  local waveSize = math.min(parallel, queued - wave * parallel)
  if waveDone == waveSize then
    while nextPos < queued and #succ < parallel do
      table.insert(succ, nextPos .. ':' .. redis.call('LINDEX', KEYS[4], nextPos))
      nextPos = nextPos + 1
    end
  end
elseif nextPos < queued then
  table.insert(succ, nextPos .. ':' .. redis.call('LINDEX', KEYS[4], nextPos))
  nextPos = nextPos + 1
end
redis.call('HSET', KEYS[1], 'next', nextPos)
if done >= total then
  redis.call('HSET', KEYS[1], 'status', 'completed', 'completedAt', ARGV[4], 'finalReason', 'done')
  status = 'completed'
elseif tonumber(ARGV[4]) >= tonumber(redis.call('HGET', KEYS[1], 'deadlineAt')) then
  redis.call('HSET', KEYS[1], 'status', 'completed', 'completedAt', ARGV[4], 'finalReason', 'deadline')
  status = 'completed'
  succ = {}
end
local succStr = table.concat(succ, ',')
redis.call('HSET', KEYS[3], batch, succStr)
if redis.call('TTL', KEYS[3]) < 0 then redis.call('EXPIRE', KEYS[3], ARGV[5]) end
return {1, done, total, succStr, status}
`;

/** The deadline passed: complete with what is done. KEYS: state. ARGV: now. Returns 1 when it completed it. */
const EXPIRE_LUA = `
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'running' then return 0 end
if tonumber(ARGV[1]) < tonumber(redis.call('HGET', KEYS[1], 'deadlineAt')) then return 0 end
redis.call('HSET', KEYS[1], 'status', 'completed', 'completedAt', ARGV[1], 'finalReason', 'deadline')
return 1
`;

interface ScriptedRedis extends Redis {
  rerankComplete(
    state: string,
    results: string,
    succ: string,
    order: string,
    batch: number,
    position: number,
    outcome: string,
    now: number,
    ttl: number,
  ): Promise<[number, number, number, string, string]>;
  rerankExpire(state: string, now: number): Promise<number>;
}

export interface NewRerank {
  meta: RerankMeta;
  candidates: StoredCandidate[];
  /** Scopes of every batch still to score. */
  inputs: Map<number, PromptScope[]>;
  /** Batches already known (cache hits). */
  prefilled: Map<number, BatchOutcome>;
  /** Batches to score, in dispatch order. */
  order: number[];
  parallel: number;
  mode: Scheduling;
  /** A rerank complete from the start (skipped, local, fully cached): its result, stored in the same transaction. */
  result?: RerankResult;
}

export interface RerankSnapshot {
  meta: RerankMeta;
  candidates: StoredCandidate[];
  outcomes: Map<number, BatchOutcome>;
  state: StateView & { done: number; total: number; deadlineAt: number };
}

/**
 * A rerank's state in Redis, under the queue prefix (so test runs and deployments never mix), all
 * keys of one rerank sharing a hash tag `{id}` (one Redis Cluster slot, so the scripts stay legal):
 *   meta, cands    immutable JSON written at start (options, candidates without source)
 *   input          hash batch -> the batch's scopes (with source), dropped when the rerank completes
 *   state          hash: status, total, done, next, queued, parallel, mode, deadlineAt, completedAt, finalReason
 *   results        hash batch -> BatchOutcome JSON (written once, by the completion script)
 *   succ           hash batch -> successors it claimed ("pos:batch,...")
 *   order          list of batches to score, in dispatch order
 *   result         the final RerankResult JSON (SET NX: one writer wins)
 * and the pub/sub channel `<prefix>:rerank-events:<id>`.
 */
@Injectable()
export class RerankStore {
  private readonly metaCache = new Map<string, { meta: RerankMeta; candidates: StoredCandidate[] }>();

  constructor(private readonly queues: QueueService) {}

  private get redis(): ScriptedRedis {
    const redis = this.queues.redis as ScriptedRedis;
    if (typeof redis.rerankComplete !== 'function') {
      redis.defineCommand('rerankComplete', { numberOfKeys: 4, lua: COMPLETE_LUA });
      redis.defineCommand('rerankExpire', { numberOfKeys: 1, lua: EXPIRE_LUA });
    }
    return redis;
  }

  keys(id: string) {
    const base = `${this.queues.prefix}:rerank:{${id}}`;
    return {
      meta: `${base}:meta`,
      cands: `${base}:cands`,
      input: `${base}:input`,
      state: `${base}:state`,
      results: `${base}:results`,
      succ: `${base}:succ`,
      order: `${base}:order`,
      result: `${base}:result`,
    };
  }

  channel(id: string): string {
    return `${this.queues.prefix}:rerank-events:${id}`;
  }

  async create(r: NewRerank): Promise<void> {
    const k = this.keys(r.meta.id);
    const done = r.prefilled.size;
    const completed = done >= r.meta.total;
    const multi = this.redis.multi();
    multi.set(k.meta, JSON.stringify(r.meta), 'EX', RERANK_STATE_TTL_S);
    multi.set(k.cands, JSON.stringify(r.candidates), 'EX', RERANK_STATE_TTL_S);
    if (r.inputs.size > 0) {
      multi.hset(k.input, Object.fromEntries([...r.inputs].map(([b, scopes]) => [String(b), JSON.stringify(scopes)])));
      multi.expire(k.input, RERANK_STATE_TTL_S);
    }
    if (r.prefilled.size > 0) {
      multi.hset(k.results, Object.fromEntries([...r.prefilled].map(([b, o]) => [String(b), JSON.stringify(o)])));
      multi.expire(k.results, RERANK_STATE_TTL_S);
    }
    if (r.order.length > 0) {
      multi.rpush(k.order, ...r.order.map(String));
      multi.expire(k.order, RERANK_STATE_TTL_S);
    }
    multi.hset(k.state, {
      status: completed ? 'completed' : 'running',
      total: r.meta.total,
      done,
      next: Math.min(r.parallel, r.order.length),
      queued: r.order.length,
      parallel: r.parallel,
      mode: r.mode,
      deadlineAt: r.meta.deadlineAt,
      ...(completed ? { completedAt: r.meta.createdAt, finalReason: 'done' } : {}),
    });
    multi.expire(k.state, RERANK_STATE_TTL_S);
    if (r.result) multi.set(k.result, JSON.stringify(r.result), 'EX', RERANK_STATE_TTL_S);
    await multi.exec();
    this.remember(r.meta.id, { meta: r.meta, candidates: r.candidates });
  }

  /** The immutable part; cached in the process (it never changes once written). */
  async loadMeta(id: string): Promise<{ meta: RerankMeta; candidates: StoredCandidate[] } | null> {
    const cached = this.metaCache.get(id);
    if (cached) return cached;
    const k = this.keys(id);
    const [meta, cands] = await this.redis.mget(k.meta, k.cands);
    if (!meta || !cands) return null;
    const value = { meta: JSON.parse(meta) as RerankMeta, candidates: JSON.parse(cands) as StoredCandidate[] };
    this.remember(id, value);
    return value;
  }

  /** State and outcomes read together (MULTI), so a snapshot is never half of one completion. */
  async snapshot(id: string): Promise<RerankSnapshot | null> {
    const fixed = await this.loadMeta(id);
    if (!fixed) return null;
    const k = this.keys(id);
    const replies = await this.redis.multi().hgetall(k.state).hgetall(k.results).exec();
    const state = (replies?.[0]?.[1] ?? {}) as Record<string, string>;
    const results = (replies?.[1]?.[1] ?? {}) as Record<string, string>;
    if (!state.status) return null;
    const outcomes = new Map<number, BatchOutcome>(Object.entries(results).map(([b, json]) => [Number(b), JSON.parse(json) as BatchOutcome]));
    return {
      ...fixed,
      outcomes,
      state: {
        status: state.status === 'completed' ? 'completed' : 'running',
        completedAt: state.completedAt ? Number(state.completedAt) : null,
        finalReason: state.finalReason ?? null,
        done: Number(state.done),
        total: Number(state.total),
        deadlineAt: Number(state.deadlineAt),
      },
    };
  }

  async status(id: string): Promise<{ status: string; deadlineAt: number; done: number } | null> {
    const [status, deadlineAt, done] = await this.redis.hmget(this.keys(id).state, 'status', 'deadlineAt', 'done');
    return status ? { status, deadlineAt: Number(deadlineAt), done: Number(done) } : null;
  }

  /** What a batch job needs to know before it runs, in one round trip. */
  async batchContext(id: string, batch: number): Promise<{ status: string | null; recorded: boolean; scopes: PromptScope[] | null }> {
    const k = this.keys(id);
    const replies = await this.redis.multi().hget(k.state, 'status').hexists(k.results, String(batch)).hget(k.input, String(batch)).exec();
    const [status, recorded, input] = (replies ?? []).map((r) => r?.[1]) as [string | null, number, string | null];
    return { status: status ?? null, recorded: recorded === 1, scopes: input ? (JSON.parse(input) as PromptScope[]) : null };
  }

  async complete(id: string, batch: number, position: number, outcome: BatchOutcome, now = Date.now()): Promise<CompletionVerdict> {
    const k = this.keys(id);
    const [code, done, total, succ, status] = await this.redis.rerankComplete(k.state, k.results, k.succ, k.order, batch, position, JSON.stringify(outcome), now, RERANK_STATE_TTL_S);
    if (code === -1) return { outcome: 'unknown' };
    const successors = parseSuccessors(succ);
    const s = status === 'completed' ? 'completed' : 'running';
    if (code === 2) return { outcome: 'late', done, total, successors: [], status: 'completed' };
    return { outcome: code === 1 ? 'accepted' : 'duplicate', done, total, successors, status: s };
  }

  /** Completes the rerank if its deadline has passed; true when this call did it. */
  async expire(id: string, now = Date.now()): Promise<boolean> {
    return (await this.redis.rerankExpire(this.keys(id).state, now)) === 1;
  }

  async getResult(id: string): Promise<RerankResult | null> {
    const json = await this.redis.get(this.keys(id).result);
    return json ? (JSON.parse(json) as RerankResult) : null;
  }

  /** Stores the final result unless one is there; true when this call stored it. */
  async putResult(result: RerankResult): Promise<boolean> {
    const k = this.keys(result.jobId);
    const stored = await this.redis.set(k.result, JSON.stringify(result), 'EX', RERANK_STATE_TTL_S, 'NX');
    if (stored === 'OK') await this.redis.del(k.input);
    return stored === 'OK';
  }

  private remember(id: string, value: { meta: RerankMeta; candidates: StoredCandidate[] }): void {
    if (this.metaCache.size >= META_CACHE_SIZE) this.metaCache.delete(this.metaCache.keys().next().value!);
    this.metaCache.set(id, value);
  }
}

function parseSuccessors(succ: string): Array<[number, number]> {
  if (!succ) return [];
  return succ.split(',').map((pair) => {
    const [position, batch] = pair.split(':').map(Number);
    return [position, batch] as [number, number];
  });
}
