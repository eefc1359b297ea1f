import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError, Worker } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { JOB_REQUEST_ID, jobDuration, MetricsShare, PUBLISH_INTERVAL_MS, runWithRequestId } from '@scopegraph/observability';
import { bullQueueName, createRedisConnection, JOB_QUEUE, JobName, logicalQueueName, QueueName } from '@scopegraph/queue';
import { JOB_PROCESSORS, JobProcessor } from './job-processor';

const DEFAULT_CONCURRENCY: Record<QueueName, number> = {
  [QueueName.SYSTEM]: 4,
  // One index job per worker (parsing and the model use every core); more repositories in parallel
  // means more workers, and a per-repository lock keeps two jobs off the same repository.
  [QueueName.INDEX]: 1,
  // Rerank batches mostly wait on the LLM; a worker holds up to the largest `parallel` allowed.
  [QueueName.RERANK]: 20,
  // An ask mostly waits on the chat model and Neo4j.
  [QueueName.ASK]: 8,
  // Set by INGEST_EMBED_CONCURRENCY (see concurrencyOf): a few slices, so the model never waits on
  // Neo4j between them. More throughput is more workers, each with its own model or endpoint.
  [QueueName.EMBED]: 2,
};

/**
 * How soon a crashed worker's jobs are picked up again. Rerank batches are short and a user waits on
 * them, so their lock is short too (the worker renews it while a batch runs); indexing keeps
 * BullMQ's defaults.
 */
const LOCKING: Partial<Record<QueueName, { lockDuration: number; stalledInterval: number }>> = {
  [QueueName.RERANK]: { lockDuration: 10_000, stalledInterval: 5_000 },
  // A slice of a dead worker goes to another worker within seconds (its index job is waiting on it).
  [QueueName.EMBED]: { lockDuration: 10_000, stalledInterval: 5_000 },
};

/**
 * Hosts one BullMQ Worker per queue and routes each job to the processor registered for its name.
 * Refuses to start when a job type has no processor or two.
 */
@Injectable()
export class WorkerHostService implements OnApplicationShutdown {
  private readonly logger = new Logger(WorkerHostService.name);
  private readonly workers: Worker[] = [];
  private readonly byName = new Map<string, JobProcessor>();
  private publishTimer?: NodeJS.Timeout;

  constructor(
    @Inject(JOB_PROCESSORS) processors: JobProcessor[],
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsShare,
  ) {
    for (const jobName of Object.values(JobName)) {
      const handlers = processors.filter((p) => p.jobName === jobName);
      if (handlers.length !== 1) {
        throw new Error(`job "${jobName}" has ${handlers.length} processors; exactly one is required`);
      }
      this.byName.set(jobName, handlers[0]);
    }
  }

  /** Called by main after migrations, so no job runs against a graph without its schema. */
  start(): void {
    const queues = new Set(Object.values(JOB_QUEUE));
    for (const queue of queues) {
      const worker = new Worker(bullQueueName(queue), (job, token) => this.dispatch(job, token), {
        connection: createRedisConnection(this.config.redis.url),
        prefix: this.config.queue.prefix,
        concurrency: queue === QueueName.EMBED ? this.config.ingest.embedConcurrency : DEFAULT_CONCURRENCY[queue],
        ...LOCKING[queue],
      });
      worker.on('failed', (job, error) => this.logger.warn(`job ${job?.name}#${job?.id} failed: ${error.message}`));
      worker.on('error', (error) => this.logger.error(`worker ${queue}: ${error.message}`));
      this.workers.push(worker);
    }
    // Between jobs too, so a scrape never sees a live worker as gone (snapshots expire).
    this.publishTimer = setInterval(() => this.publishMetrics(), PUBLISH_INTERVAL_MS).unref();
    this.logger.log(`worker ${process.pid} consuming ${[...queues].join(', ')}`);
  }

  /** Runs a job under the request id that queued it (or one of its own), timed, metrics published after. */
  private dispatch(job: Job, token?: string): Promise<unknown> {
    const fromRequest = (job.data as Record<string, unknown> | undefined)?.[JOB_REQUEST_ID];
    const queueName = logicalQueueName(job.queueName);
    const requestId = typeof fromRequest === 'string' ? fromRequest : `job:${queueName}:${job.id}`;
    return runWithRequestId(requestId, async () => {
      const end = jobDuration.startTimer({ queue: queueName, job: job.name });
      try {
        const result = await this.run(job, token);
        const seconds = end({ outcome: 'completed' });
        this.logger.log(`job ${job.name}#${job.id} completed in ${Math.round(seconds * 1000)} ms`);
        return result;
      } catch (error) {
        end({ outcome: 'failed' });
        throw error;
      } finally {
        await this.publishMetrics();
      }
    });
  }

  private async run(job: Job, token?: string): Promise<unknown> {
    const processor = this.byName.get(job.name);
    if (!processor) throw new Error(`no processor for job "${job.name}" (id ${job.id})`);
    try {
      return await processor.process(job, token);
    } catch (error) {
      // BullMQ acts on these by class: wrapping them would turn a postponement into a failure.
      if (error instanceof UnrecoverableError || error instanceof DelayedError) throw error;
      throw new Error(`job ${job.name}#${job.id} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Metrics are best effort: a Redis hiccup must not fail the job that just ran. */
  private async publishMetrics(): Promise<void> {
    await this.metrics.publish().catch((e: Error) => this.logger.warn(`publishing metrics: ${e.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    // close() lets active jobs finish; a killed worker's jobs are picked up again as stalled.
    await Promise.all(this.workers.map((w) => w.close()));
    clearInterval(this.publishTimer);
    await this.publishMetrics();
  }
}
