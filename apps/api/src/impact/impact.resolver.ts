import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { HistoryRepository } from '@scopegraph/history';
import { DeadCodeService, ImpactService, ReviewService } from '@scopegraph/impact';
import { WrittenReviewService } from '@scopegraph/pipeline';
import { ChangeReview, DeadCodeInput, DeadCodeResult, ImpactInput, ImpactResult, RepositoryHistory, ReviewChangeInput } from './impact.model';

const HISTORY_MAX = 200;
const iso = (seconds: number | null | undefined) => (seconds == null ? null : new Date(seconds * 1000).toISOString());

/** Impact, change review, history and dead code: each a call on libs/impact or libs/history. */
@Resolver()
export class ImpactResolver {
  constructor(
    private readonly impacts: ImpactService,
    private readonly reviews: ReviewService,
    private readonly deadCodes: DeadCodeService,
    private readonly histories: HistoryRepository,
    private readonly writer: WrittenReviewService,
  ) {}

  @Query(() => ImpactResult, {
    description: 'What depends on the given scopes (callers, overriders, implementers, importers, tests) by depth, with paths, coverage and co-changed scopes',
    complexity: ({ args }) => 10 + Math.ceil(((args.input as ImpactInput)?.maxNodes ?? 500) / 10),
  })
  impact(@Args('input') input: ImpactInput): Promise<ImpactResult> {
    return this.impacts.impact(input);
  }

  @Query(() => ChangeReview, { description: 'A unified diff, or two git refs, mapped onto changed scopes, with their impact, untouched co-change partners and covering tests', complexity: 100 })
  async reviewChange(@Args('input') input: ReviewChangeInput): Promise<ChangeReview> {
    const { writtenReview, ...request } = input;
    const review = await this.reviews.review(request);
    return { ...review, writtenReview: writtenReview ? await this.writer.write(review) : null };
  }

  @Query(() => DeadCodeResult, { description: 'Declarations nothing references, entry points excluded, each with a confidence and the reasons it could still be live', complexity: 50 })
  async deadCode(@Args('input') input: DeadCodeInput): Promise<DeadCodeResult> {
    const r = await this.deadCodes.deadCode(input);
    return {
      ...r,
      candidates: r.candidates.map((c) => ({ scope: c.scope, language: c.scope.language, confidence: c.confidence, reasons: c.reasons })),
      excluded: Object.entries(r.excluded).map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    };
  }

  @Query(() => RepositoryHistory, { description: "A repository's git history: summary, authors, the most changed files and scopes with their co-change partners, recent commits. Emails only with includeEmails" })
  async history(
    @Args('repository') repository: string,
    @Args('path', { type: () => String, nullable: true, description: 'Only files and scopes under this path prefix; recent commits touching this exact file' }) path?: string,
    @Args('scopeId', { type: () => String, nullable: true, description: 'Only this scope (and recent commits that changed it)' }) scopeId?: string,
    @Args('limit', { type: () => Int, nullable: true, description: `Entries per list, 1-${HISTORY_MAX} (default 20)` }) limit = 20,
    @Args('includeEmails', { type: () => Boolean, nullable: true, description: 'Add author emails (left out by default)' }) includeEmails = false,
  ): Promise<RepositoryHistory> {
    if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_MAX) throw new DomainError(DomainErrorCode.InvalidInput, `limit must be an integer from 1 to ${HISTORY_MAX}`, 'limit');
    const summary = await this.histories.repositoryHistory(repository, limit);
    if (!summary) throw new DomainError(DomainErrorCode.UnknownRepository, `no repository named "${repository}"`, 'repository');
    const q = { ids: scopeId ? [scopeId] : null, pathPrefix: path ?? null, limit, partners: 5 };
    const [files, scopes, commits] = await Promise.all([
      scopeId ? Promise.resolve([]) : this.histories.changeStats(repository, { ...q, files: true }),
      this.histories.changeStats(repository, { ...q, files: false }),
      this.histories.recentCommits(repository, { path: path ? `${repository}:${path}#${path}|file` : null, scopeId: scopeId ?? null }, limit),
    ]);
    const entry = (s: (typeof files)[number]) => ({ ...s, lastChangedAt: iso(s.lastChangedAt)!, coChanged: s.partners });
    return {
      repository,
      status: summary.status ?? 'not-read',
      head: summary.head,
      commits: summary.commits ?? 0,
      newest: iso(summary.newest),
      oldest: iso(summary.oldest),
      massCommits: summary.massCommits ?? 0,
      authors: summary.authors.map((a) => ({ name: a.name, email: includeEmails ? a.email : null, commits: a.commits })),
      files: files.map(entry),
      scopes: scopes.map(entry),
      recentCommits: commits.map((c) => ({ sha: c.sha, time: iso(c.time)!, author: c.authorName, email: includeEmails ? c.authorEmail : null, subject: c.subject, files: c.files })),
    };
  }
}
