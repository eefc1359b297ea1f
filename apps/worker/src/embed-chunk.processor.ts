import { Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { EmbedFanOut, EmbedModelMismatchError, EmbedSliceResult } from '@scopegraph/ingest';
import { EmbedChunkJobData, JobName } from '@scopegraph/queue';
import { JobProcessor } from './job-processor';

export type { EmbedChunkJobData };

/** One slice of an index run's embedding (see EmbedFanOut): any worker takes it. */
@Injectable()
export class EmbedChunkProcessor implements JobProcessor<EmbedChunkJobData, EmbedSliceResult> {
  readonly jobName = JobName.EMBED_CHUNK;

  constructor(private readonly fanOut: EmbedFanOut) {}

  async process(job: Job<EmbedChunkJobData, EmbedSliceResult>): Promise<EmbedSliceResult> {
    try {
      return await this.fanOut.runSlice(job.id!, job.data);
    } catch (error) {
      // Another worker with the same model would succeed, but retrying here never will.
      if (error instanceof EmbedModelMismatchError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }
}
