import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { AdminOnly } from '../auth/api-key.guard';
import type { Access } from '../auth/access';
import { CurrentAccess, jobRepository, maySee } from '../auth/scope';
import { JobEvent, JobEventsService, JobName, ProbeJobData, QueueName, QueueService } from '@scopegraph/queue';
import { JobEventKind, JobEventPayload, JobRef, JobStatus, ProbeInput } from './jobs.model';

@Resolver()
export class JobsResolver {
  constructor(
    private readonly queues: QueueService,
    private readonly events: JobEventsService,
  ) {}

  @AdminOnly()
  @Mutation(() => JobRef, { description: 'Runs a diagnostics job on the worker: N steps with progress events' })
  async startProbe(@Args('input', { type: () => ProbeInput, nullable: true }) input?: ProbeInput): Promise<JobRef> {
    const data: ProbeJobData = { steps: input?.steps ?? 3, stepDelayMs: input?.stepDelayMs ?? 50 };
    const job = await this.queues.add(JobName.PROBE, data, { attempts: 1 });
    return { id: job.id!, queue: QueueName.SYSTEM, name: job.name };
  }

  @Query(() => JobStatus, { nullable: true, description: 'A job by queue and id; null when unknown' })
  async job(
    @Args('queue', { type: () => QueueName }) queue: QueueName,
    @Args('id', { type: () => ID }) id: string,
    @CurrentAccess() access?: Access,
  ): Promise<JobStatus | null> {
    const job = await this.queues.getJob(queue, id);
    if (!job || !jobVisible(access, job.data)) return null;
    return {
      id: job.id!,
      queue,
      name: job.name,
      state: await job.getState(),
      progress: job.progress,
      result: job.returnvalue ?? undefined,
      failedReason: job.failedReason || undefined,
      attemptsMade: job.attemptsMade,
    };
  }

  @Subscription(() => JobEventPayload, {
    description: 'Progress of one job, then one final completed or failed event',
    resolve: (event: JobEvent): JobEventPayload => ({
      jobId: event.jobId,
      queue: event.queue,
      kind: event.type as JobEventKind,
      progress: event.progress,
      result: event.result,
      failedReason: event.failedReason,
    }),
  })
  async jobEvents(
    @Args('queue', { type: () => QueueName }) queue: QueueName,
    @Args('jobId', { type: () => ID }) jobId: string,
    @CurrentAccess() access?: Access,
  ): Promise<AsyncIterator<JobEvent>> {
    // Checked here, not inside the stream, so the client gets a coded error instead of a broken stream.
    // Another repository's job (or a repository-less one, for a scoped key) answers like a missing job.
    const job = await this.queues.getJob(queue, jobId);
    if (!job || !jobVisible(access, job.data)) throw await this.events.missing(queue, jobId);
    return this.events.watch(queue, jobId);
  }
}

function jobVisible(access: Access | undefined, data: unknown): boolean {
  return !access?.repositories || maySee(access, jobRepository(data) ?? '');
}
