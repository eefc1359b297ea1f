import { Injectable } from '@nestjs/common';
import { Job } from 'bullmq';
import { AskResult, AskService } from '@scopegraph/pipeline';
import { AskJobData, JobName } from '@scopegraph/queue';
import { JobProcessor } from './job-processor';

export type { AskJobData };

/** One question through its pipeline: AskService.run does the work and publishes the progress. */
@Injectable()
export class AskProcessor implements JobProcessor<AskJobData, AskResult> {
  readonly jobName = JobName.ASK;

  constructor(private readonly ask: AskService) {}

  process(job: Job<AskJobData, AskResult>): Promise<AskResult> {
    return this.ask.run(job.data);
  }
}
