import { withRequestId } from '@scopegraph/observability';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Job, JobsOptions, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { DEFAULT_JOB_OPTIONS, JOB_QUEUE, JobName, QueueName } from './queue.constants';
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

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.prefix = config.queue.prefix;
    this.connection = createFailFastRedisConnection(config.redis.url, config.redis.commandTimeoutMs);
  }

  /** Commands fail rather than wait while disconnected, so boot waits (a bounded time) for the first connect. */
  async onModuleInit(): Promise<void> {
    await this.ready(BOOT_CONNECT_WAIT_MS).catch((e: Error) => this.logger.warn(`Redis not reachable yet (${e.message}); commands fail until it is`));
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
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      this.queues.set(name, queue);
    }
    return queue;
  }

  add<T>(job: JobName, data: T, opts: JobsOptions = {}): Promise<Job<T>> {
    return this.queue(JOB_QUEUE[job]).add(job, withRequestId(data), opts) as Promise<Job<T>>;
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
    return new QueueEvents(name, { connection: createRedisConnection(this.config.redis.url, {}, `events ${name}`), prefix: this.prefix });
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.connection.disconnect();
  }
}
