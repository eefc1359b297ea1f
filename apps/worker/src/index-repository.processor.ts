import { Inject, Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { DomainError } from '@scopegraph/errors';
import { HistoryResult, HistoryService } from '@scopegraph/history';
import { EmbedFanOut, IngestResult, IngestService } from '@scopegraph/ingest';
import { IndexRepositoryJobData, JobName, ResourceLockService } from '@scopegraph/queue';
import { JobProcessor } from './job-processor';

export type { IndexRepositoryJobData };

/**
 * `lockHeld`: when this job took the repository's lock and when it finished its work under it (the
 * lock is released after this, so two jobs' spans never overlap; BullMQ's own timestamps can, since
 * a job is marked completed only after its processor released the lock).
 */
export type IndexJobResult = IngestResult & { history: HistoryResult | { error: string }; lockHeld: { from: number; until: number } };

@Injectable()
export class IndexRepositoryProcessor implements JobProcessor<IndexRepositoryJobData, IndexJobResult> {
  readonly jobName = JobName.INDEX_REPOSITORY;
  private readonly logger = new Logger(IndexRepositoryProcessor.name);

  constructor(
    private readonly ingest: IngestService,
    private readonly fanOut: EmbedFanOut,
    private readonly history: HistoryService,
    private readonly locks: ResourceLockService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async process(job: Job<IndexRepositoryJobData, IndexJobResult>, token?: string): Promise<IndexJobResult> {
    // Two jobs for one repository would diff against each other's half-written graph: the second
    // waits (delayed, not holding this worker) while other repositories proceed on other workers.
    const lock = await this.locks.tryAcquire(indexLockName(job.data.name), `job ${job.id} pid ${process.pid}`, this.config.ingest.lockTtlMs);
    if (!lock) {
      this.logger.log(`repository ${job.data.name} is being indexed by ${await this.locks.holder(indexLockName(job.data.name))}; job ${job.id} waits`);
      await job.moveToDelayed(Date.now() + this.config.ingest.lockRetryMs, token);
      throw new DelayedError();
    }
    const lockedAt = Date.now();
    try {
      // Embedding goes out in slices that every worker takes; the graph writes stay behind the lock.
      const jobId = job.id!;
      const embedRunner = this.fanOut.enabled ? { run: (repoId: string, hooks: Parameters<EmbedFanOut['run']>[2]) => this.fanOut.run(repoId, jobId, hooks) } : undefined;
      const result = await this.ingest.index({ ...job.data, jobId }, (progress) => job.updateProgress(progress as unknown as object), embedRunner);
      // History comes after the scopes it is attributed to; a history that cannot be read leaves the
      // index as it is (the error is in the result), it does not fail it.
      const history = await this.history.index(result.repoId, result.rootPath).catch((error: Error) => {
        this.logger.warn(`history of ${result.repoId} not read: ${error.message}`);
        return { error: error.message };
      });
      return { ...result, history, lockHeld: { from: lockedAt, until: Date.now() } };
    } catch (error) {
      // Bad input (a path that vanished or left the allowed roots) will not come back by retrying.
      if (error instanceof DomainError) throw new UnrecoverableError(error.message);
      throw error;
    } finally {
      await lock.release();
    }
  }
}

export function indexLockName(repository: string): string {
  return `index:${repository}`;
}
