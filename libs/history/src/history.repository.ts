import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService } from '@scopegraph/graph';
import type { ChangeStats, CoChange, CommitRecord } from './aggregate';

const WRITE_BATCH = 2_000;
const DELETE_BATCH = 10_000;
const READ_PAGE = 2_000;
/** Characters per stored part of the packed counts (one huge string property strains a transaction). */
const COUNTS_PART = 4_000_000;

export interface HistoryState {
  head: string | null;
  status: string | null;
  commits: number;
}

export interface RepositoryHistoryRow {
  status: string | null;
  head: string | null;
  commits: number | null;
  newest: number | null;
  oldest: number | null;
  massCommits: number | null;
  readAt: string | null;
  authors: { name: string; email: string; commits: number }[];
}

export interface CommitRow {
  sha: string;
  time: number;
  authorName: string;
  authorEmail: string;
  subject: string;
  files: number;
}

export interface ChangeStatsRow extends Omit<ChangeStats, 'key'> {
  id: string;
  qualifiedName: string;
  kind: string;
  path: string;
  partners: { id: string; qualifiedName: string; path: string; support: number; confidence: number }[];
}

export interface StoredCounts {
  data: Buffer;
  fileEdges: number;
  scopeEdges: number;
  /** CO_CHANGED edges of the repository in the graph after the run that stored these counts. */
  graphEdges: number;
}

export type LevelledCoChange = CoChange & { level: 'file' | 'scope' };

/** A statistics row to set; all-null values (but id) clear an item that no kept commit changes any more. */
export type StatsRow = { id: string } & { [K in Exclude<keyof ChangeStats, 'key'>]: ChangeStats[K] | null };

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Every Neo4j read and write of history; each method runs the cypher/history file of its name. */
@Injectable()
export class HistoryRepository {
  /** Commits per read of storedCommits (a property, not a constructor argument: Nest builds this class). */
  readPage = READ_PAGE;

  constructor(private readonly neo4j: Neo4jService) {}

  async state(repoId: string): Promise<HistoryState | null> {
    const [row] = await this.neo4j.read<HistoryState>('history/history-state', { repoId });
    return row ?? null;
  }

  scopeRanges(repoId: string): Promise<{ id: string; path: string; start: number; end: number }[]> {
    return this.neo4j.read('history/scope-ranges', { repoId });
  }

  async writeCommits(repoId: string, rows: (CommitRecord & { id: string })[]): Promise<void> {
    for (const batch of chunks(rows, WRITE_BATCH)) await this.neo4j.write('history/write-commits', { repoId, rows: batch });
  }

  async storedCommits(repoId: string): Promise<CommitRecord[]> {
    const out: CommitRecord[] = [];
    for (;;) {
      const page = await this.neo4j.read<CommitRecord>('history/stored-commits', { repoId, skip: cypherInt(out.length), limit: cypherInt(this.readPage) });
      out.push(...page);
      if (page.length < this.readPage) return out;
    }
  }

  async deleteCommits(repoId: string): Promise<void> {
    await this.clearCounts(repoId);
    for (;;) {
      const [row] = await this.neo4j.write<{ deleted: number }>('history/delete-commits', { repoId, batch: cypherInt(DELETE_BATCH) });
      if (!row || row.deleted === 0) return;
    }
  }

  /** Deletes all but the newest `keep` commits; returns the deleted ones. */
  async pruneCommits(repoId: string, keep: number): Promise<CommitRecord[]> {
    const rows = await this.neo4j.write<{ row: CommitRecord }>('history/prune-commits', { repoId, keep: cypherInt(keep) });
    return rows.map((r) => r.row);
  }

  windowCommits(repoId: string, from: number): Promise<Pick<CommitRecord, 'time' | 'files' | 'fileLines' | 'scopes' | 'scopeLines'>[]> {
    return this.neo4j.read('history/window-commits', { repoId, from });
  }

  async summary(repoId: string): Promise<{ commits: number; oldest: number | null; newest: number | null; mass: number }> {
    const [row] = await this.neo4j.read<{ commits: number; oldest: number | null; newest: number | null; mass: number }>('history/history-summary', { repoId });
    return row ?? { commits: 0, oldest: null, newest: null, mass: 0 };
  }

  /** The packed running counts, when they were counted up to `head` (else null: recount). */
  async readCounts(repoId: string, head: string): Promise<StoredCounts | null> {
    const rows = await this.neo4j.read<{ head: string; part: number; data: string; fileEdges: number; scopeEdges: number; graphEdges: number }>('history/read-counts', { repoId });
    if (rows.length === 0 || rows.some((r) => r.head !== head)) return null;
    return { data: Buffer.from(rows.map((r) => r.data).join(''), 'base64'), fileEdges: rows[0].fileEdges, scopeEdges: rows[0].scopeEdges, graphEdges: rows[0].graphEdges };
  }

  async writeCounts(repoId: string, head: string, c: StoredCounts): Promise<void> {
    await this.clearCounts(repoId);
    const text = c.data.toString('base64');
    for (let part = 0, at = 0; at < text.length || part === 0; part++, at += COUNTS_PART) {
      await this.neo4j.write('history/write-counts', { repoId, head, part: cypherInt(part), data: text.slice(at, at + COUNTS_PART), fileEdges: cypherInt(c.fileEdges), scopeEdges: cypherInt(c.scopeEdges), graphEdges: cypherInt(c.graphEdges) });
    }
  }

  async clearCounts(repoId: string): Promise<void> {
    await this.neo4j.write('history/clear-counts', { repoId });
  }

  async countCoChanged(repoId: string): Promise<number> {
    const [row] = await this.neo4j.read<{ edges: number }>('history/count-co-changed', { repoId });
    return row?.edges ?? 0;
  }

  async recentStats(repoId: string): Promise<Map<string, { changes: number; churn: number }>> {
    const rows = await this.neo4j.read<{ id: string; changes: number; churn: number }>('history/recent-stats', { repoId });
    return new Map(rows.map((r) => [r.id, { changes: r.changes, churn: r.churn }]));
  }

  async missingStats(repoId: string): Promise<string[]> {
    const rows = await this.neo4j.read<{ id: string }>('history/missing-stats', { repoId });
    return rows.map((r) => r.id);
  }

  /** Writes only what changed: removed or changed rules go, new or changed ones come; stats rows set (null clears). */
  async updateAggregates(stats: StatsRow[], removed: LevelledCoChange[], added: LevelledCoChange[]): Promise<void> {
    for (const batch of chunks(stats, WRITE_BATCH)) await this.neo4j.write('history/set-change-stats', { rows: batch });
    for (const batch of chunks(removed, WRITE_BATCH)) await this.neo4j.write('history/delete-co-changed', { rows: batch });
    for (const batch of chunks(added, WRITE_BATCH)) await this.neo4j.write('history/write-co-changed', { rows: batch });
  }

  /** Replaces the statistics and co-change edges of a repository with recomputed ones. */
  async replaceAggregates(repoId: string, stats: (ChangeStats & { id: string })[], coChanges: (CoChange & { level: 'file' | 'scope' })[]): Promise<void> {
    for (;;) {
      const [row] = await this.neo4j.write<{ deleted: number }>('history/clear-co-changed', { repoId, batch: cypherInt(DELETE_BATCH) });
      if (!row || row.deleted === 0) break;
    }
    await this.neo4j.write('history/clear-change-stats', { repoId });
    for (const batch of chunks(stats, WRITE_BATCH)) await this.neo4j.write('history/set-change-stats', { rows: batch });
    for (const batch of chunks(coChanges, WRITE_BATCH)) await this.neo4j.write('history/write-co-changed', { rows: batch });
  }

  async setRepositoryHistory(repoId: string, h: { status: 'git' | 'none'; head: string | null; commits: number; newest: number | null; oldest: number | null; mass: number }): Promise<void> {
    await this.neo4j.write('history/set-repository-history', { repoId, ...h });
  }

  async repositoryHistory(repoId: string, authors: number): Promise<RepositoryHistoryRow | null> {
    const [row] = await this.neo4j.read<RepositoryHistoryRow>('history/repository-history', { repoId, authors: cypherInt(authors) });
    return row ?? null;
  }

  recentCommits(repoId: string, filter: { path: string | null; scopeId: string | null }, limit: number): Promise<CommitRow[]> {
    return this.neo4j.read<CommitRow>('history/recent-commits', { repoId, ...filter, limit: cypherInt(limit) });
  }

  changeStats(repoId: string, q: { ids: string[] | null; files: boolean; pathPrefix: string | null; limit: number; partners: number }): Promise<ChangeStatsRow[]> {
    return this.neo4j.read<ChangeStatsRow>('history/change-stats', { repoId, ...q, limit: cypherInt(q.limit), partners: cypherInt(q.partners) });
  }
}
