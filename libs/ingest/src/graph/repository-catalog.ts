import { Injectable, Logger } from '@nestjs/common';
import { QueueName, QueueService } from '@scopegraph/queue';
import { IngestRepository, IndexRunState, RepositoryRow } from './ingest.repository';

/**
 * The repositories with the truth about their last run. A run marks its repository FAILED when it
 * throws; one whose worker died with its job lost (Redis restarted without its data) cannot, so a
 * repository still INDEXING is checked against its job: gone from the queue, or failed there, it is
 * marked FAILED now (half-written: a new index run completes it).
 */
@Injectable()
export class RepositoryCatalog {
  private readonly logger = new Logger(RepositoryCatalog.name);

  constructor(
    private readonly repo: IngestRepository,
    private readonly queues: QueueService,
  ) {}

  async repositories(): Promise<RepositoryRow[]> {
    return Promise.all((await this.repo.repositories()).map((row) => this.reconcile(row)));
  }

  private async reconcile(row: RepositoryRow): Promise<RepositoryRow> {
    if (row.indexStatus !== 'INDEXING' || !row.indexJobId) return row;
    const jobId = row.indexJobId;
    let reason: string | undefined;
    try {
      const job = await this.queues.getJob(QueueName.INDEX, jobId);
      // A run started through another queue prefix (another deployment, a test's own stack) on the same
      // Neo4j is not in this queue at all: only that deployment can tell whether it is still running.
      if (!job && !(await this.queues.issuedHere(jobId))) return row;
      if (!job) reason = `its index job ${jobId} was lost (Redis no longer holds it); index it again to complete it`;
      else if ((await job.getState()) === 'failed') reason = `its index job ${jobId} failed: ${job.failedReason}`;
      else return withRun(row, job.progress);
    } catch (error) {
      // Redis unreachable: the stored status is all there is to say.
      this.logger.debug(`index job ${jobId} of ${row.name} not checked: ${(error as Error).message}`);
      return row;
    }
    if (!reason) return row;
    if (await this.repo.failRepository(row.id, jobId, reason)) this.logger.warn(`repository ${row.name} marked FAILED: ${reason}`);
    return { ...row, indexStatus: 'FAILED', indexError: reason };
  }
}

/**
 * A running index's counts from its job's progress: the scopes written so far (and the vectors), so
 * a listing during a run says what search can already find instead of nothing. A repository indexed
 * before keeps its stored counts; a first run shows the live ones in their place.
 */
function withRun(row: RepositoryRow, progress: unknown): RepositoryRow {
  const p = progress as Partial<{ phase: string; scopes: number; embedded: number; toEmbed: number }> | undefined;
  if (!p || typeof p !== 'object' || typeof p.phase !== 'string') return row;
  const run: IndexRunState = { phase: p.phase, scopesWritten: p.scopes ?? 0, embedded: p.embedded ?? 0, toEmbed: p.toEmbed ?? 0 };
  return { ...row, indexRun: run, scopes: row.scopes ?? run.scopesWritten, embedded: row.embedded ?? run.embedded };
}
