import { WriteRole } from '../auth/api-key.guard';
import type { Access } from '../auth/access';
import { CurrentAccess } from '../auth/scope';
import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { RERANK_LIMITS, RerankProgressEvent, RerankRepository, RerankService } from '@scopegraph/rerank';
import { RerankJob, RerankProgress, RerankResult, RerankStats, StartRerankInput } from './rerank.model';

const MAX_ID_LENGTH = 2_000;
const MAX_LISTED_MISSING = 5;

@Resolver()
export class RerankResolver {
  constructor(
    private readonly rerank: RerankService,
    private readonly repo: RerankRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @WriteRole()
  @Mutation(() => RerankJob, {
    description: 'Reranks scopes (by id, in retrieval order) for a question; returns a job id at once. Watch it with rerankProgress, read it with rerankResult.',
  })
  async startRerank(@Args('input') input: StartRerankInput, @CurrentAccess() access?: Access): Promise<RerankJob> {
    const ids = input.scopeIds ?? [];
    if (ids.length > RERANK_LIMITS.candidates.max) throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `scopeIds may hold at most ${RERANK_LIMITS.candidates.max} ids`, 'scopeIds');
    const seen = new Set<string>();
    for (const id of ids) {
      if (id.length === 0 || id.length > MAX_ID_LENGTH) throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `scopeIds must be non-empty ids of at most ${MAX_ID_LENGTH} characters`, 'scopeIds');
      if (seen.has(id)) throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `scopeIds holds ${JSON.stringify(id)} twice`, 'scopeIds');
      seen.add(id);
    }
    const scores = input.retrievalScores ?? null;
    if (scores && (scores.length !== ids.length || scores.some((s) => !Number.isFinite(s)))) {
      throw new DomainError(DomainErrorCode.RerankInvalidCandidates, 'retrievalScores must hold one finite number per scope id', 'retrievalScores');
    }
    // Options first: a bad option fails before Neo4j is asked anything.
    this.rerank.options(input.options);
    const { candidates, missing } = await this.repo.candidatesById(ids, this.config.rerank.sourceChars + 1, scores);
    if (missing.length > 0) {
      const listed = missing.slice(0, MAX_LISTED_MISSING).map((m) => JSON.stringify(m)).join(', ');
      throw new DomainError(DomainErrorCode.RerankInvalidCandidates, `unknown scope ids: ${listed}${missing.length > MAX_LISTED_MISSING ? ` and ${missing.length - MAX_LISTED_MISSING} more` : ''}`, 'scopeIds');
    }
    const started = await this.rerank.start({ question: input.question, queryDescription: input.queryDescription ?? null, candidates, options: input.options, owner: access?.keyId ?? null });
    return { jobId: started.jobId, status: started.status, skipped: started.skipped === true, total: started.total, result: started.result ?? null };
  }

  @Query(() => RerankResult, { description: 'The final result of a rerank, or the ranking so far while it runs' })
  async rerankResult(@Args('jobId', { type: () => ID }) jobId: string, @CurrentAccess() access?: Access): Promise<RerankResult> {
    await this.ownedBy(jobId, access);
    return this.rerank.result(jobId);
  }

  @Query(() => RerankStats, { description: 'The configured reranker and the rerank cache counters' })
  async rerankStats(): Promise<RerankStats> {
    const stats = await this.rerank.cacheStats();
    const r = this.rerank.reranker;
    return { reranker: r.name, model: r.model, kind: r.kind, cacheHits: stats.hits, cacheMisses: stats.misses, cacheFullHits: stats.fullHits, cacheTtlSeconds: stats.ttlSeconds };
  }

  @Subscription(() => RerankProgress, {
    description: 'A PROGRESS event after every batch (the merged ranking so far), then one COMPLETED event with the result. Served by any API replica.',
    resolve: (event: RerankProgressEvent): RerankProgressEvent => event,
  })
  async rerankProgress(@Args('jobId', { type: () => ID }) jobId: string, @CurrentAccess() access?: Access): Promise<AsyncIterator<RerankProgressEvent>> {
    await this.ownedBy(jobId, access);
    // Checked here, not inside the stream, so the client gets a coded error instead of a broken stream.
    if (!(await this.rerank.exists(jobId))) throw await this.rerank.missing(jobId);
    return this.rerank.watch(jobId);
  }

  /**
   * A rerank is its starter's (its question and candidates are theirs): another key gets the answer
   * of an unknown id, so nobody learns which ids exist. Admins and callers without access (keyless) see all.
   */
  private async ownedBy(jobId: string, access: Access | undefined): Promise<void> {
    if (!access || access.role === 'admin') return;
    if ((await this.rerank.owner(jobId)) !== access.keyId) throw await this.rerank.missing(jobId);
  }
}
