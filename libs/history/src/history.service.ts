import { Inject, Injectable, Logger } from '@nestjs/common';
import { phaseTimer } from '@scopegraph/observability';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { graphId } from '@scopegraph/code-model';
import { AggregateOptions, CommitRecord, DEFAULT_AGGREGATE } from './aggregate';
import { aggregateCounts, applyCommits, edgesFrom, emptyCounts, HistoryCounts, packCounts, recentOf, statsOf, unpackCounts } from './counts';
import { RangeTracker } from './attribution';
import { diffWorkingTree, gitHead, gitTopLevel, isAncestor, readGitLog } from './git-log';
import { HistoryRepository, LevelledCoChange, StatsRow, StoredCounts } from './history.repository';

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
  /** Statistics and rules were recounted from all kept commits (not updated from running counts). */
  recounted?: boolean;
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
    if (records.length === 0 && pruned.length === 0 && !rewritten && state?.status === 'git' && state.head === head) {
      // Nothing new: the statistics and rules in the graph are those of the same commits.
      return { status: 'git', head, read: 0, kept: state.commits, incremental: true, massCommits: 0, fileCoChanges: 0, scopeCoChanges: 0, unchanged: true, timingsMs: timings };
    }
    const stored = !fresh && state?.head ? await time('readCounts', () => this.repo.readCounts(repoId, state.head!)) : null;
    const inc = stored ? await time('update', () => this.update(repoId, stored, records, pruned, opts)) : null;
    let edges: { fileEdges: number; scopeEdges: number };
    let counts: HistoryCounts;
    if (inc) ({ counts, ...edges } = inc);
    else {
      // No usable running counts: count from the kept commits and rewrite everything once.
      const kept = fresh && after === null ? records.slice(0, opts.maxCommits) : await time('readCommits', () => this.repo.storedCommits(repoId));
      counts = emptyCounts();
      applyCommits(counts, kept, 1);
      const agg = await time('aggregate', async () => aggregateCounts(counts, kept, opts.aggregate));
      await time('writeAggregates', () =>
        this.repo.replaceAggregates(
          repoId,
          [...agg.files, ...agg.scopes].map((s) => ({ ...s, id: s.key })),
          [...agg.fileCoChanges.map((c) => ({ ...c, level: 'file' as const })), ...agg.scopeCoChanges.map((c) => ({ ...c, level: 'scope' as const }))],
        ),
      );
      edges = { fileEdges: agg.fileCoChanges.length, scopeEdges: agg.scopeCoChanges.length };
    }
    const graphEdges = await time('countEdges', () => this.repo.countCoChanged(repoId));
    await time('writeCounts', () => this.repo.writeCounts(repoId, head, { data: packCounts(counts), ...edges, graphEdges }));
    const summary = await this.repo.summary(repoId);
    const kept = { length: summary.commits };
    const mass = summary.mass;
    const oldest = summary.oldest;
    const agg = { newest: summary.newest, fileCoChanges: { length: edges.fileEdges }, scopeCoChanges: { length: edges.scopeEdges } };
    await this.repo.setRepositoryHistory(repoId, { status: 'git', head, commits: kept.length, newest: agg.newest, oldest, mass });
    this.logger.log(`history of ${repoId}: ${records.length} commits read${after ? ' (incremental)' : ''}, ${kept.length} kept`);
    return {
      status: 'git',
      head,
      read: records.length,
      kept: kept.length,
      incremental: after !== null,
      ...(rewritten ? { rewritten } : {}),
      ...(inc ? {} : { recounted: true }),
      massCommits: mass,
      fileCoChanges: agg.fileCoChanges.length,
      scopeCoChanges: agg.scopeCoChanges.length,
      timingsMs: timings,
    };
  }

  /**
   * Adds the new commits' contributions to the running counts (and subtracts the pruned ones'), then
   * writes only the statistics and co-change edges whose values changed. Null when only a full
   * recount can tell (a pruned commit was some item's last change, or edges vanished from the graph).
   */
  private async update(
    repoId: string,
    stored: StoredCounts,
    records: CommitRecord[],
    pruned: CommitRecord[],
    opts: HistoryOptions,
  ): Promise<{ counts: HistoryCounts; fileEdges: number; scopeEdges: number } | null> {
    if ((await this.repo.countCoChanged(repoId)) !== stored.graphEdges) return null;
    const counts = unpackCounts(stored.data);
    const nodes = (commits: CommitRecord[], pick: (c: CommitRecord) => string[]) => new Set(commits.filter((c) => !c.mass).flatMap(pick));
    const fileNodes = nodes([...records, ...pruned], (c) => c.files);
    const scopeNodes = nodes([...records, ...pruned], (c) => c.leaves);
    const edgesOf = () => [
      ...[...fileNodes].flatMap((n) => edgesFrom(counts.fileRules, n, opts.aggregate).map((e) => ({ ...e, level: 'file' as const }))),
      ...[...scopeNodes].flatMap((n) => edgesFrom(counts.scopeRules, n, opts.aggregate).map((e) => ({ ...e, level: 'scope' as const }))),
    ];
    const before = edgesOf();
    const touched = applyCommits(counts, pruned, -1);
    applyCommits(counts, records, 1, touched);
    if (!counts.exact) return null;
    const after = edgesOf();
    const keyOf = (e: LevelledCoChange) => `${e.level}\u0000${e.from}\u0000${e.to}`;
    const same = (a: LevelledCoChange, b: LevelledCoChange | undefined) => !!b && a.support === b.support && a.confidence === b.confidence;
    const beforeByKey = new Map(before.map((e) => [keyOf(e), e]));
    const afterByKey = new Map(after.map((e) => [keyOf(e), e]));
    const removed = before.filter((e) => !same(e, afterByKey.get(keyOf(e))));
    const added = after.filter((e) => !same(e, beforeByKey.get(keyOf(e))));
    const count = (level: 'file' | 'scope', es: LevelledCoChange[]) => es.filter((e) => e.level === level).length;

    const summary = await this.repo.summary(repoId);
    const recentFrom = summary.newest === null ? 0 : summary.newest - opts.aggregate.recentSeconds;
    const recent = recentOf(await this.repo.windowCommits(repoId, recentFrom), recentFrom);
    const graphRecent = await this.repo.recentStats(repoId);
    const ids = new Set([...touched.files, ...touched.scopes, ...(await this.repo.missingStats(repoId))]);
    for (const [id, r] of [...recent.files, ...recent.scopes, ...graphRecent]) {
      const g = graphRecent.get(id);
      const now = recent.files.get(id) ?? recent.scopes.get(id);
      if (g?.changes !== now?.changes || g?.churn !== now?.churn) ids.add(id);
      void r;
    }
    const rows: StatsRow[] = [];
    for (const id of ids) {
      const file = counts.files.get(id);
      const scope = counts.scopes.get(id);
      if (file || scope) {
        const { key, ...s } = file ? statsOf(id, file, recent.files) : statsOf(id, scope!, recent.scopes);
        rows.push({ id: key, ...s });
      } else if (touched.files.has(id) || touched.scopes.has(id) || graphRecent.has(id)) {
        rows.push({ id, changeCount: null, lastChangedAt: null, lastCommit: null, recentChurn: null, recentChanges: null, mainAuthors: null });
      }
    }
    await this.repo.updateAggregates(rows, removed, added);
    return { counts, fileEdges: stored.fileEdges - count('file', removed) + count('file', added), scopeEdges: stored.scopeEdges - count('scope', removed) + count('scope', added) };
  }
}
