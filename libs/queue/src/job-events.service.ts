import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { QueueName } from './queue.constants';
import { QueueService } from './queue.service';
import { EventInbox } from './event-inbox';
import { JobLostError, LIVENESS_CHECK, Liveness, LivenessCheck } from './liveness';

export type JobEventType = 'progress' | 'completed' | 'failed';

export interface JobEvent {
  queue: QueueName;
  jobId: string;
  type: JobEventType;
  progress?: unknown;
  result?: unknown;
  failedReason?: string;
}

type Listener = (event: JobEvent) => void;

export class UnknownJobError extends DomainError {
  constructor(readonly queue: QueueName, readonly jobId: string) {
    super(DomainErrorCode.JobNotFound, `no job "${jobId}" on queue "${queue}"`);
  }
}

/**
 * Relays job events from Redis to in-process listeners. Events come from BullMQ's Redis event
 * stream (QueueEvents), not from the process that ran the job, so every API replica sees every
 * job's events and can serve any subscription.
 */
@Injectable()
export class JobEventsService implements OnModuleDestroy {
  private readonly logger = new Logger(JobEventsService.name);
  private readonly events = new Map<QueueName, Promise<QueueEvents>>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly queues: QueueService) {}

  /** Why a job is not in Redis: lost with Redis's data (an id of an epoch that ended), else unknown. */
  async missing(queue: QueueName, jobId: string): Promise<Error> {
    return (await this.queues.issuedBeforeDataLoss(jobId)) ? new JobLostError(`job "${jobId}" on queue "${queue}"`) : new UnknownJobError(queue, jobId);
  }

  /**
   * Events of one job until it completes or fails. Subscribes before reading the job's state, so an
   * event cannot fall between the two; a job already finished yields its final event at once.
   * Between events it checks the job itself (Liveness): a final event that the event stream did not
   * deliver is made from the job's state, and a job Redis lost ends the stream with JOB_LOST.
   */
  async *watch(queue: QueueName, jobId: string): AsyncGenerator<JobEvent> {
    await this.ensureListening(queue);
    const inbox = new EventInbox<JobEvent | LivenessCheck>();
    const key = `${queue}:${jobId}`;
    const listener: Listener = inbox.push;
    this.addListener(key, listener);
    const liveness = new Liveness(inbox.push);
    try {
      const { job, state } = await this.jobAndState(queue, jobId);
      if (state === 'completed') {
        yield { queue, jobId, type: 'completed', result: job.returnvalue, progress: job.progress };
        return;
      }
      if (state === 'failed') {
        yield { queue, jobId, type: 'failed', failedReason: job.failedReason, progress: job.progress };
        return;
      }
      // A subscriber that attaches mid-job first gets the latest progress, so it never starts blind.
      let last: string | undefined;
      let lastProgress: unknown = undefined;
      if (job.progress !== undefined && job.progress !== null && job.progress !== 0 && !inbox.some((e) => e !== LIVENESS_CHECK && e.type === 'progress')) {
        last = JSON.stringify(job.progress);
        lastProgress = job.progress;
        yield { queue, jobId, type: 'progress', progress: job.progress };
      }
      for await (const event of inbox) {
        if (event === LIVENESS_CHECK) {
          if (inbox.some(() => true)) continue;
          const final = await liveness.check(() => this.finalFromState(queue, jobId));
          if (final === undefined) continue;
          yield { ...final, progress: final.progress ?? lastProgress };
          return;
        }
        if (event.type === 'progress') {
          const key = JSON.stringify(event.progress);
          if (key === last) continue;
          last = key;
          lastProgress = event.progress;
          yield event;
          continue;
        }
        // Redis's completed/failed events carry no progress: the final event keeps the job's last
        // counters (read back from the job, else the last seen) rather than resetting them to zero.
        yield event.progress !== undefined ? event : { ...event, progress: (await this.latestProgress(queue, jobId)) ?? lastProgress };
        return;
      }
    } finally {
      liveness.stop();
      this.removeListener(key, listener);
    }
  }

  /** The job's final event when it has finished, undefined while it has not; throws when it is gone. */
  private async finalFromState(queue: QueueName, jobId: string): Promise<JobEvent | undefined> {
    const { job, state } = await this.jobAndState(queue, jobId);
    const progress = job.progress === 0 || job.progress === null ? undefined : job.progress;
    if (state === 'completed') return { queue, jobId, type: 'completed', result: job.returnvalue, progress };
    if (state === 'failed') return { queue, jobId, type: 'failed', failedReason: job.failedReason, progress };
    return undefined;
  }

  /**
   * A job and its state. The job is read again once its state says it finished: read before, it may
   * have finished in between, and its result or failure reason (written with that state) would be
   * missing from the copy at hand (seen: an index job failing within milliseconds reported `null`).
   */
  private async jobAndState(queue: QueueName, jobId: string) {
    let job = await this.queues.getJob(queue, jobId);
    if (!job) throw await this.missing(queue, jobId);
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') {
      job = await this.queues.getJob(queue, jobId);
      if (!job) throw await this.missing(queue, jobId);
    }
    return { job, state };
  }

  /** The job's progress as stored now; undefined when it cannot be read (the caller falls back). */
  private async latestProgress(queue: QueueName, jobId: string): Promise<unknown> {
    try {
      const progress = (await this.queues.getJob(queue, jobId))?.progress;
      return progress === 0 || progress === null ? undefined : progress;
    } catch (error) {
      this.logger.warn(`final progress of ${queue} job ${jobId} not read: ${(error as Error).message}`);
      return undefined;
    }
  }

  private addListener(key: string, listener: Listener): void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
  }

  private removeListener(key: string, listener: Listener): void {
    const set = this.listeners.get(key);
    set?.delete(listener);
    if (set?.size === 0) this.listeners.delete(key);
  }

  private emit(event: JobEvent): void {
    for (const listener of this.listeners.get(`${event.queue}:${event.jobId}`) ?? []) listener(event);
  }

  private ensureListening(queue: QueueName): Promise<QueueEvents> {
    let ready = this.events.get(queue);
    if (!ready) {
      const events = this.queues.events(queue);
      events.on('progress', ({ jobId, data }) => this.emit({ queue, jobId, type: 'progress', progress: data }));
      events.on('completed', ({ jobId, returnvalue }) =>
        this.emit({ queue, jobId, type: 'completed', result: parseMaybeJson(returnvalue) }),
      );
      events.on('failed', ({ jobId, failedReason }) => this.emit({ queue, jobId, type: 'failed', failedReason }));
      events.on('error', (e) => this.logger.warn(`queue events ${queue}: ${e.message}`));
      ready = events.waitUntilReady().then(() => events);
      this.events.set(queue, ready);
    }
    return ready;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.events.values()].map(async (p) => (await p).close()));
  }
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
