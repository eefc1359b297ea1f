/** A commit as the graph keeps it (cypher/history/write-commits.cypher). */
export interface CommitRecord {
  sha: string;
  time: number;
  authorName: string;
  authorEmail: string;
  subject: string;
  files: string[];
  fileLines: number[];
  scopes: string[];
  scopeLines: number[];
  /** The innermost touched scopes (co-change is counted on them). */
  leaves: string[];
  /** More files than the mass-commit limit: a change, but no co-change evidence. */
  mass: boolean;
}

export interface ChangeStats {
  key: string;
  changeCount: number;
  lastChangedAt: number;
  lastCommit: string;
  /** Lines changed by commits in the recent window. */
  recentChurn: number;
  recentChanges: number;
  /** Up to MAIN_AUTHORS names, most commits first, as "name (n)". */
  mainAuthors: string[];
}

export interface CoChange {
  from: string;
  to: string;
  /** Commits that changed both. */
  support: number;
  /** support / commits that changed `from`: how often `to` changed when `from` did. */
  confidence: number;
}

export interface AggregateOptions {
  minSupport: number;
  /** Edges below this confidence are not kept. */
  minConfidence: number;
  /** Partners kept per node, best first (bounds the edges a hub file gets). */
  maxPartners: number;
  /** The recent window in seconds, ending at the newest commit. */
  recentSeconds: number;
}

export const DEFAULT_AGGREGATE: AggregateOptions = { minSupport: 2, minConfidence: 0.1, maxPartners: 20, recentSeconds: 90 * 24 * 3600 };

export interface Aggregates {
  files: ChangeStats[];
  scopes: ChangeStats[];
  fileCoChanges: CoChange[];
  scopeCoChanges: CoChange[];
  newest: number | null;
}

