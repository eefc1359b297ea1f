import { Injectable } from '@nestjs/common';
import { Job } from 'bullmq';
import { JobName, RerankBatchJobData } from '@scopegraph/queue';
import { RerankBatchJobResult, RerankBatchRunner } from '@scopegraph/rerank';
import { JobProcessor } from './job-processor';

export type { RerankBatchJobData };

/** One batch of a rerank: scoring, merging, successors and events are RerankBatchRunner's job. */
@Injectable()
export class RerankBatchProcessor implements JobProcessor<RerankBatchJobData, RerankBatchJobResult> {
  readonly jobName = JobName.RERANK_BATCH;

  constructor(private readonly rerank: RerankBatchRunner) {}

  process(job: Job<RerankBatchJobData, RerankBatchJobResult>): Promise<RerankBatchJobResult> {
    return this.rerank.runBatch(job.data);
  }
}
