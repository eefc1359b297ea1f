import { Job } from 'bullmq';
import { JobName } from '@scopegraph/queue';

/** One class per job type; the worker routes jobs to it by name. */
export interface JobProcessor<D = unknown, R = unknown> {
  readonly jobName: JobName;
  process(job: Job<D, R>): Promise<R>;
}

export const JOB_PROCESSORS = Symbol('JOB_PROCESSORS');
