import { Inject, Injectable, Logger } from '@nestjs/common';
import { phaseTimer } from '@scopegraph/observability';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { graphId } from '@scopegraph/code-model';
import { aggregate, AggregateOptions, CommitRecord, DEFAULT_AGGREGATE } from './aggregate';
import { RangeTracker } from './attribution';
import { diffWorkingTree, gitHead, gitTopLevel, isAncestor, readGitLog } from './git-log';
import { HistoryRepository } from './history.repository';

/** What one history read did; `status: none` for a folder that is not a git checkout. */
export interface HistoryResult {
  status: 'git' | 'none';
  head: string | null;
  /** Commits read from git this run (only the new ones when the last head is still in history). */
  read: number;
  kept: number;
  incremental: boolean;
  /** Why every commit was read again, when one was kept before. */
  rewritten?: boolean;
  massCommits: number;
  fileCoChanges: number;
  scopeCoChanges: number;
  /** No new commit: statistics and rules were left as they were (counts above are then 0). */
  unchanged?: boolean;
  timingsMs: Record<string, number>;
}

export interface HistoryOptions {
  maxCommits: number;
  since?: string;
  massCommitFiles: number;
  aggregate: AggregateOptions;
}

export function fileNodeId(repoId: string, path: string): string {
  return graphId(repoId, `${path}#${path}|file`);
}

/**
 * Reads a repository's git history into the graph after an index run: commits (bounded), what each
 * changed down to scopes, per file and scope change statistics, and co-change rules. Incremental: only
 * commits after the last one read are read from git; statistics are recomputed from the kept commits.
 */
@Injectable()
export class HistoryService {
  private readonly logger = new Logger(HistoryService.name);

  constructor(
    private readonly repo: HistoryRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  options(overrides: Partial<HistoryOptions> = {}): HistoryOptions {
    const h = this.config.history;
    return {
      maxCommits: h.maxCommits,
      since: h.since,
      massCommitFiles: h.massCommitFiles,
      aggregate: { ...DEFAULT_AGGREGATE, minSupport: h.minSupport },
      ...overrides,
    };
  }

  async index(repoId: string, rootPath: string, overrides: Partial<HistoryOptions> = {}): Promise<HistoryResult> {
    const opts = this.options(overrides);
    const { timings, time } = phaseTimer();
    const head = (await gitTopLevel(rootPath)) ? await gitHead(rootPath) : null;
    if (!head) {
      await this.repo.deleteCommits(repoId);
      await this.repo.replaceAggregates(repoId, [], []);
      await this.repo.setRepositoryHistory(repoId, { status: 'none', head: null, commits: 0, newest: null, oldest: null, mass: 0 });
      return { status: 'none', head: null, read: 0, kept: 0, incremental: false, massCommits: 0, fileCoChanges: 0, scopeCoChanges: 0, timingsMs: timings };
    }
    const state = await this.repo.state(repoId);
    let after: string | null = null;
    let rewritten = false;
    if (state?.head && state.commits > 0) {
      if (state.head !== head && !(await isAncestor(rootPath, state.head, head))) rewritten = true;
      else after = state.head;
    }
    const deleted = rewritten || (state?.status === 'git' && !state.head);
    if (deleted) await time('deleteCommits', () => this.repo.deleteCommits(repoId));
    // Nothing was kept before this run: the commits just read are all there is (no read back).
    const fresh = deleted || !(state && state.commits > 0);

    const records: (CommitRecord & { id: string })[] = [];
    if (after !== head) {
      const ranges = await time('readScopes', () => this.repo.scopeRanges(repoId));
      await time('gitLog', async () => {
        const tracker = new RangeTracker(ranges);
        // The graph holds the working tree; commits are matched against HEAD's lines.
        tracker.rewind(await diffWorkingTree(rootPath));
        for await (const c of readGitLog(rootPath, { maxCommits: opts.maxCommits, since: opts.since, after })) {
          const scopes = new Map<string, number>();
          const leaves = new Set<string>();
          for (const f of c.files) {
            const change = tracker.apply(f);
            for (const t of change.touched) scopes.set(t.id, (scopes.get(t.id) ?? 0) + t.lines);
            for (const l of change.leaves) leaves.add(l);
          }
          records.push({
            id: `${repoId}:${c.sha}`,
            sha: c.sha,
            time: c.time,
            authorName: c.authorName,
            authorEmail: c.authorEmail,
            subject: c.subject.slice(0, 500),
            files: c.files.map((f) => fileNodeId(repoId, f.path)),
            fileLines: c.files.map((f) => f.linesAdded + f.linesDeleted),
            scopes: [...scopes.keys()],
            scopeLines: [...scopes.values()],
            leaves: [...leaves],
            mass: c.files.length > opts.massCommitFiles,
          });
        }
      });
      await time('writeCommits', () => this.repo.writeCommits(repoId, records));
    }
    const pruned = await time('prune', () => this.repo.pruneCommits(repoId, opts.maxCommits));
    if (records.length === 0 && pruned === 0 && !rewritten && state?.status === 'git' && state.head === head) {
      // Nothing new: the statistics and rules in the graph are those of the same commits.
      return { status: 'git', head, read: 0, kept: state.commits, incremental: true, massCommits: 0, fileCoChanges: 0, scopeCoChanges: 0, unchanged: true, timingsMs: timings };
    }
    const kept = fresh && after === null ? records.slice(0, opts.maxCommits) : await time('readCommits', () => this.repo.storedCommits(repoId));
    const agg = await time('aggregate', async () => aggregate(kept, opts.aggregate));
    const mass = kept.filter((c) => c.mass).length;
    await time('writeAggregates', () =>
      this.repo.replaceAggregates(
        repoId,
        [...agg.files, ...agg.scopes].map((s) => ({ ...s, id: s.key })),
        [...agg.fileCoChanges.map((c) => ({ ...c, level: 'file' as const })), ...agg.scopeCoChanges.map((c) => ({ ...c, level: 'scope' as const }))],
      ),
    );
    const oldest = kept.reduce<number | null>((m, c) => (m === null || c.time < m ? c.time : m), null);
    await this.repo.setRepositoryHistory(repoId, { status: 'git', head, commits: kept.length, newest: agg.newest, oldest, mass });
    this.logger.log(`history of ${repoId}: ${records.length} commits read${after ? ' (incremental)' : ''}, ${kept.length} kept`);
    return {
      status: 'git',
      head,
      read: records.length,
      kept: kept.length,
      incremental: after !== null,
      ...(rewritten ? { rewritten } : {}),
      massCommits: mass,
      fileCoChanges: agg.fileCoChanges.length,
      scopeCoChanges: agg.scopeCoChanges.length,
      timingsMs: timings,
    };
  }
}
