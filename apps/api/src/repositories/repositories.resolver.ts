import { Inject, Logger } from '@nestjs/common';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { AdminOnly, WriteRole } from '../auth/api-key.guard';
import type { Access } from '../auth/access';
import { CurrentAccess, jobRepository, maySee } from '../auth/scope';
import { ForbiddenException } from '@nestjs/common';
import { basename } from 'node:path';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Neo4jService } from '@scopegraph/graph';
import { IngestProgress, IngestRepository, ParseCache, RepositoryCatalog, SymbolIndex, validateIndexRequest, validateScipPath } from '@scopegraph/ingest';
import { JobEvent, JobEventsService, JobName, QueueName, QueueService } from '@scopegraph/queue';
import { JobRef } from '../jobs/jobs.model';
import { IndexProgress, IndexRepositoryInput, LanguageCoverage, Repository } from './repositories.model';

const EMPTY_PROGRESS: Omit<IndexProgress, 'jobId'> = {
  phase: 'waiting', filesTotal: 0, filesParsed: 0, filesReused: 0, scopes: 0, edges: 0, embedded: 0, embedReused: 0, toEmbed: 0, etaSeconds: null, errors: 0, recentErrors: [],
};

@Resolver(() => Repository)
export class RepositoriesResolver {
  private readonly logger = new Logger(RepositoriesResolver.name);

  constructor(
    private readonly queues: QueueService,
    private readonly events: JobEventsService,
    private readonly repo: IngestRepository,
    private readonly parseCache: ParseCache,
    private readonly catalog: RepositoryCatalog,
    private readonly neo4j: Neo4jService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @WriteRole()
  @Mutation(() => JobRef, { description: 'Queues an (incremental) index of a repository; watch it with indexProgress' })
  async indexRepository(@Args('input') input: IndexRepositoryInput, @CurrentAccess() access?: Access): Promise<JobRef> {
    // Checked before the path, so a scoped key learns nothing about the server's folders.
    if (input.name !== undefined && !maySee(access, input.name)) throw new ForbiddenException(`this key may not index repository "${input.name}"`);
    const path = await validateIndexRequest(input, this.config.ingest.allowedRoots);
    if (!maySee(access, input.name ?? basename(path))) throw new ForbiddenException(`this key may not index repository "${input.name ?? basename(path)}"`);
    // A path on the server rather than an upload: CI writes the index beside the checkout the server
    // already reads, and indexes run to hundreds of megabytes (no request-size limits to raise).
    const scip = input.scip ? await validateScipPath(input.scip, this.config.ingest.allowedRoots) : undefined;
    const job = await this.queues.add(JobName.INDEX_REPOSITORY, {
      path,
      name: input.name,
      excludeDocComments: input.excludeDocComments,
      ...(input.include ? { include: input.include } : {}),
      ...(input.exclude ? { exclude: input.exclude } : {}),
      ...(scip ? { scip } : {}),
    });
    return { id: job.id!, queue: QueueName.INDEX, name: job.name };
  }

  @Query(() => [Repository], { description: 'The repositories this key may see' })
  async repositories(@CurrentAccess() access?: Access): Promise<Repository[]> {
    return (await this.catalog.repositories()).filter((r) => maySee(access, r.name));
  }

  @ResolveField(() => String, { nullable: true, description: 'The folder on the server (admin keys only: null for others)' })
  rootPath(@Parent() repository: Repository, @CurrentAccess() access?: Access): string | null {
    return access === undefined || access.role === 'admin' ? repository.rootPath : null;
  }

  @ResolveField(() => [LanguageCoverage], { description: 'Per language: references resolved, external, dynamic and unresolved (read when asked)' })
  coverage(@Parent() repository: Repository): Promise<LanguageCoverage[]> {
    return this.repo.referenceCoverage(repository.id);
  }

  @Query(() => Repository, { nullable: true })
  async repository(@Args('name') name: string, @CurrentAccess() access?: Access): Promise<Repository | null> {
    if (!maySee(access, name)) return null;
    return (await this.catalog.repositories()).find((r) => r.name === name) ?? null;
  }

  @AdminOnly()
  @Mutation(() => Boolean, { description: 'Deletes a repository and everything indexed from it' })
  async deleteRepository(@Args('name') name: string, @CurrentAccess() access?: Access): Promise<boolean> {
    if (!maySee(access, name) || !(await this.repo.repositories()).some((r) => r.name === name)) throw new DomainError(DomainErrorCode.RepositoryNotFound, `no repository named "${name}"`);
    await this.repo.deleteRepository(name);
    await this.parseCache.forgetRepository(name);
    // The symbol index sits beside the worker on a one-machine install; elsewhere a leftover file is
    // only disk: a later repository of the same name uses no entry whose content hash the graph lacks.
    if (this.config.ingest.symbolIndexDir) await SymbolIndex.remove(this.config.ingest.symbolIndexDir, this.config.queue.prefix, name).catch((e: unknown) => this.logger.warn(`symbol index of ${name} not removed: ${String(e)}`));
    return true;
  }

  @Subscription(() => IndexProgress, {
    description: 'Progress of an index job; the last event has phase done (with result) or failed',
    resolve: (event: JobEvent): IndexProgress => {
      const progress = (event.progress ?? {}) as Partial<IngestProgress>;
      const base = { ...EMPTY_PROGRESS, ...progress, jobId: event.jobId };
      if (event.type === 'completed') return { ...base, phase: 'done', result: event.result };
      if (event.type === 'failed') return { ...base, phase: 'failed', failedReason: event.failedReason };
      return base;
    },
  })
  async indexProgress(@Args('jobId', { type: () => ID }) jobId: string, @CurrentAccess() access?: Access): Promise<AsyncIterator<JobEvent>> {
    const job = await this.queues.getJob(QueueName.INDEX, jobId);
    // Another repository's job answers exactly like a job that does not exist.
    if (!job || (access?.repositories && !maySee(access, jobRepository(job.data) ?? ''))) throw await this.events.missing(QueueName.INDEX, jobId);
    return this.withBookmarks(this.events.watch(QueueName.INDEX, jobId));
  }

  /**
   * Before a finished run is relayed, this API takes its bookmarks: whoever saw "done" here then
   * searches a graph with the run's writes applied, also when reads go to another cluster member.
   */
  private async *withBookmarks(events: AsyncGenerator<JobEvent>): AsyncGenerator<JobEvent> {
    for await (const event of events) {
      const bookmarks = (event.result as { bookmarks?: unknown } | undefined)?.bookmarks;
      if (event.type === 'completed' && Array.isArray(bookmarks)) {
        await this.neo4j.addBookmarks(bookmarks.filter((b): b is string => typeof b === 'string')).catch((e: Error) => this.logger.warn(`bookmarks of index job ${event.jobId} not taken: ${e.message}`));
      }
      yield event;
    }
  }
}
