import { Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { DomainError } from '@scopegraph/errors';
import { IngestResult, IngestService } from '@scopegraph/ingest';
import { IndexRepositoryJobData, JobName } from '@scopegraph/queue';
import { JobProcessor } from './job-processor';

export type { IndexRepositoryJobData };

@Injectable()
export class IndexRepositoryProcessor implements JobProcessor<IndexRepositoryJobData, IngestResult> {
  readonly jobName = JobName.INDEX_REPOSITORY;

  constructor(private readonly ingest: IngestService) {}

  async process(job: Job<IndexRepositoryJobData, IngestResult>): Promise<IngestResult> {
    try {
      return await this.ingest.index({ ...job.data, jobId: job.id }, (progress) => job.updateProgress(progress as unknown as object));
    } catch (error) {
      // Bad input (a path that vanished or left the allowed roots) will not come back by retrying.
      if (error instanceof DomainError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }
}
