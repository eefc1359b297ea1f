import { randomBytes } from 'node:crypto';
import { withRequestId } from '@scopegraph/observability';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { IRedisTransaction, Job, JobsOptions, Queue, QueueEvents } from 'bullmq';
import { ChainableCommander, Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { bullQueueName, DEFAULT_JOB_OPTIONS, JOB_ID_KIND, JOB_QUEUE, JobName, QueueName } from './queue.constants';
import { createFailFastRedisConnection, createRedisConnection } from './redis.connection';

export interface QueueCounts {
  name: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

const BOOT_CONNECT_WAIT_MS = 10_000;
/** Hex digits of a dataset epoch, and of the random part of a job id. */
const EPOCH_HEX = 8;
const ID_RANDOM_BYTES = 8;
/** An id from newJobId (a rerank batch's too): the epoch it was issued in is group 1. */
const ISSUED_ID = new RegExp(`^[a-z]+([0-9a-f]{${EPOCH_HEX}})[0-9a-f]{${ID_RANDOM_BYTES * 2}}(?:-\\d+)?$`);
/** How long a refused job's id stays taken: far longer than the add it refuses can arrive after it. */
const REFUSED_ID_TTL_MS = 3_600_000;
/** Share of the add's deadline kept for its reply to travel back: Redis must decide before the rest. */
const REPLY_SHARE = 0.2;

/**
 * Runs in the same MULTI just before the adds. Past the caller's deadline (Redis's clock) the job ids
 * are taken by a placeholder, so the adds that follow find them "already there" and add nothing: a
 * command that reaches Redis late (it was frozen, or the reply was slow) never creates work the caller
 * was told was refused. KEYS: the job keys. ARGV: deadline (ms, Redis clock), placeholder TTL (ms).
 * Returns 1 when in time, 0 when refused.
 */
const ACCEPT_BEFORE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now <= tonumber(ARGV[1]) then return 1 end
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'name', 'refused', 'data', '{}', 'opts', '{}', 'timestamp', now, 'failedReason', 'refused: it reached Redis after its deadline')
    redis.call('PEXPIRE', key, ARGV[2])
  end
end
return 0
`;

/**
 * The current epoch, started (and the caller's last known one recorded as ended) when there is none.
 * KEYS: epoch, ended epochs (set). ARGV: a new epoch, the caller's last known epoch or ''.
 */
const EPOCH_LUA = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('SADD', KEYS[2], ARGV[2]) end
return ARGV[1]
`;

/** The TIME reply as ms. */
const redisNowMs = ([s, us]: [string, string]) => Number(s) * 1000 + Math.floor(Number(us) / 1000);

/** A job for `addForCaller`: its id is chosen by the caller, so adding it twice adds it once. */
export interface RefusableJob<T = unknown> {
  name: JobName;
  data: T;
  jobId: string;
  opts?: Omit<JobsOptions, 'jobId'>;
}

/**
 * A job Redis did not accept before the caller's deadline. It never runs: if the add reaches Redis
 * later, it finds its id taken and adds nothing. (The message names Redis, so the API answers 503.)
 */
export class JobRefusedError extends Error {
  constructor(readonly jobIds: string[], reason: string) {
    super(`Redis did not accept the job in time (${reason}); it was refused and will not run`);
    this.name = 'JobRefusedError';
  }
}

/** Producer side of the queues, plus Redis facts for health. The worker hosts the consumers. */
@Injectable()
export class QueueService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(QueueService.name);
  private readonly connection: Redis;
  /** For plain commands (caches, counters); never for blocking reads. */
  get redis(): Redis {
    return this.connection;
  }
  private readonly queues = new Map<QueueName, Queue>();
  readonly prefix: string;
  /** Redis's clock minus ours, measured at every connect (deadlines checked in Redis use its clock). */
  private clockOffsetMs = 0;
  /** The epoch of the data in Redis as last read; forgotten at every reconnect. */
  private epochCache?: Promise<string>;
  /** Every epoch this process has seen (the last one is handed on when Redis lost its data). */
  private readonly seenEpochs = new Set<string>();
  private lastEpoch = '';

  /** One hash tag for both: EPOCH_LUA touches them together, which Redis Cluster allows only within a slot. */
  private readonly epochKeys: { current: string; ended: string };

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.prefix = config.queue.prefix;
    this.epochKeys = { current: `${this.prefix}:{epoch}`, ended: `${this.prefix}:{epoch}:ended` };
    this.connection = createFailFastRedisConnection(config.redis.url, config.redis.commandTimeoutMs);
    this.connection.on('ready', () => {
      this.epochCache = undefined;
      void this.measureClock();
    });
  }

  /** Commands fail rather than wait while disconnected, so boot waits (a bounded time) for the first connect. */
  async onModuleInit(): Promise<void> {
    // Created now, while nothing waits on them: a queue first created during an outage would hold its
    // first add until Redis is back.
    for (const name of Object.values(QueueName)) this.queue(name);
    await this.ready(BOOT_CONNECT_WAIT_MS).catch((e: Error) => this.logger.warn(`Redis not reachable yet (${e.message}); commands fail until it is`));
  }

  private async measureClock(): Promise<void> {
    try {
      const sent = Date.now();
      const time = (await this.connection.time()) as unknown as [string, string];
      this.clockOffsetMs = redisNowMs(time) - (sent + Date.now()) / 2;
    } catch (error) {
      this.logger.warn(`Redis clock not read (${(error as Error).message}); deadlines assume the same clock`);
    }
  }

  /**
   * An id naming the data set Redis holds: written once and gone with the data, so a Redis restarted
   * without its data gets a new epoch. Job ids carry the epoch they were issued in, which tells work
   * Redis lost (an epoch that ended) from ids that never existed.
   */
  epoch(): Promise<string> {
    this.epochCache ??= this.connection
      .eval(EPOCH_LUA, 2, this.epochKeys.current, this.epochKeys.ended, randomBytes(EPOCH_HEX / 2).toString('hex'), this.lastEpoch)
      .then((reply) => {
        const epoch = String(reply);
        this.seenEpochs.add(epoch);
        this.lastEpoch = epoch;
        return epoch;
      })
      .catch((error: Error) => {
        this.epochCache = undefined;
        throw error;
      });
    return this.epochCache;
  }

  /** A new job id: `kind`, the current epoch, random hex. */
  async newJobId(kind: string): Promise<string> {
    return `${kind}${await this.epoch()}${randomBytes(ID_RANDOM_BYTES).toString('hex')}`;
  }

  /**
   * Whether a job id (of any kind, rerank batches included) was issued in an epoch that has ended, i.e. Redis lost the data it was
   * kept in. An id of an epoch nobody knew (made up) is not: that is simply unknown.
   */
  /**
   * Whether this queue prefix's Redis data set issued a job id (in its current epoch or one that
   * ended). Ids of another prefix or deployment sharing the same Neo4j are not this process's to judge.
   */
  async issuedHere(jobId: string): Promise<boolean> {
    const issued = ISSUED_ID.exec(jobId);
    if (!issued) return false;
    if (issued[1] === (await this.epoch())) return true;
    return this.issuedBeforeDataLoss(jobId);
  }

  async issuedBeforeDataLoss(jobId: string): Promise<boolean> {
    const issued = ISSUED_ID.exec(jobId);
    if (!issued) return false;
    const issuedIn = issued[1];
    this.epochCache = undefined;
    if (issuedIn === (await this.epoch())) return false;
    return this.seenEpochs.has(issuedIn) || (await this.connection.sismember(this.epochKeys.ended, issuedIn)) === 1;
  }

  /** Resolves once the shared connection is ready; rejects after timeoutMs. */
  ready(timeoutMs: number): Promise<void> {
    if (this.connection.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.connection.off('ready', onReady);
        reject(new Error(`no connection within ${timeoutMs} ms`));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.connection.once('ready', onReady);
    });
  }

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(bullQueueName(name), { connection: this.connection, prefix: this.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** One job for a caller who waits: see addForCaller. Its id is `opts.jobId`, else a new one. */
  async add<T>(job: JobName, data: T, opts: JobsOptions = {}): Promise<{ id: string; name: JobName }> {
    const jobId = opts.jobId ?? (await this.newJobId(JOB_ID_KIND[job]));
    const [id] = await this.addForCaller(JOB_QUEUE[job], [{ name: job, data, jobId, opts }]);
    return { id, name: job };
  }

  /**
   * Adds jobs on behalf of a caller who waits for the answer (an API request): they are either
   * accepted, in Redis before REDIS_COMMAND_TIMEOUT_MS with the ids returned, or refused (an error)
   * and then never run. There is no offline queue and no resend (see createFailFastRedisConnection),
   * but a command already written to a frozen Redis is still run when it wakes: so the adds travel in
   * one MULTI behind ACCEPT_BEFORE_LUA, which lets them add nothing once the deadline has passed.
   * Ids are the caller's, so a repeated add is a no-op rather than a second run.
   */
  async addForCaller(queueName: QueueName, jobs: RefusableJob[]): Promise<string[]> {
    const timeoutMs = this.config.redis.commandTimeoutMs;
    const ids = jobs.map((j) => j.jobId);
    const startedAt = Date.now();
    const decideBy = startedAt + Math.floor(timeoutMs * (1 - REPLY_SHARE));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JobRefusedError(ids, `no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const add = async (): Promise<string[]> => {
      const queue = this.queue(queueName);
      const client = await queue.getBackend().client;
      if (Date.now() > decideBy) throw new JobRefusedError(ids, 'not connected in time');
      // BullMQ's transaction over ioredis is ioredis's own MULTI with BullMQ's scripts on it.
      const multi = client.multi() as unknown as ChainableCommander & IRedisTransaction;
      multi.eval(ACCEPT_BEFORE_LUA, jobs.length, ...ids.map((id) => queue.toKey(id)), String(Math.round(decideBy + this.clockOffsetMs)), String(REFUSED_ID_TTL_MS));
      for (const j of jobs) {
        const opts = { ...queue.defaultJobOptions, ...j.opts, jobId: j.jobId };
        // Queued on the MULTI synchronously (BullMQ's own addBulk relies on the same); settled by exec.
        void new Job(queue, j.name, withRequestId(j.data), opts, j.jobId).addJob(multi).catch(() => undefined);
      }
      const replies = (await multi.exec()) ?? [];
      const [guardError, inTime] = replies[0] ?? [new Error('no reply')];
      if (guardError) throw guardError;
      if (inTime !== 1) throw new JobRefusedError(ids, 'it reached Redis after its deadline');
      return replies.slice(1).map(([error, id]: [Error | null, unknown], i: number) => {
        if (error) throw error;
        if (typeof id === 'number' && id < 0) throw new Error(`BullMQ refused job ${ids[i]} (code ${id})`);
        return String(id);
      });
    };
    const adding = add();
    adding.catch(() => undefined); // when the deadline wins the race, the add's own failure is moot
    try {
      return await Promise.race([adding, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async getJob(queue: QueueName, id: string): Promise<Job | undefined> {
    return (await this.queue(queue).getJob(id)) ?? undefined;
  }

  async counts(): Promise<QueueCounts[]> {
    return Promise.all(
      Object.values(QueueName).map(async (name) => {
        const c = await this.queue(name).getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
        return { name, waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, completed: c.completed ?? 0, failed: c.failed ?? 0 };
      }),
    );
  }

  async redisVersion(): Promise<string> {
    const info = await this.connection.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  }

  /** A QueueEvents listener on its own connection (it blocks on XREAD). The caller closes it. */
  events(name: QueueName): QueueEvents {
    return new QueueEvents(bullQueueName(name), { connection: createRedisConnection(this.config.redis.url, {}, `events ${name}`), prefix: this.prefix });
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.connection.disconnect();
  }
}
