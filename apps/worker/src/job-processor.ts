import { Job } from 'bullmq';
import { JobName } from '@scopegraph/queue';

/** One class per job type; the worker routes jobs to it by name. */
export interface JobProcessor<D = unknown, R = unknown> {
  readonly jobName: JobName;
  /** `token` is the worker's lock on the job, needed to move it (e.g. back to delayed). */
  process(job: Job<D, R>, token?: string): Promise<R>;
}

export const JOB_PROCESSORS = Symbol('JOB_PROCESSORS');
