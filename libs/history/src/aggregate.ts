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
const MAIN_AUTHORS = 3;

export interface Aggregates {
  files: ChangeStats[];
  scopes: ChangeStats[];
  fileCoChanges: CoChange[];
  scopeCoChanges: CoChange[];
  newest: number | null;
}

/** Change statistics and association rules (A changed → B changed) over the kept commits. */
export function aggregate(commits: CommitRecord[], opts: AggregateOptions): Aggregates {
  const newest = commits.reduce<number | null>((m, c) => (m === null || c.time > m ? c.time : m), null);
  const recentFrom = newest === null ? 0 : newest - opts.recentSeconds;
  return {
    files: stats(commits, (c) => zip(c.files, c.fileLines), recentFrom),
    scopes: stats(commits, (c) => zip(c.scopes, c.scopeLines), recentFrom),
    fileCoChanges: rules(commits.filter((c) => !c.mass).map((c) => c.files), opts),
    scopeCoChanges: rules(commits.filter((c) => !c.mass).map((c) => c.leaves), opts),
    newest,
  };
}

function zip(keys: string[], lines: number[]): [string, number][] {
  return keys.map((k, i) => [k, lines[i] ?? 0]);
}

function stats(commits: CommitRecord[], touched: (c: CommitRecord) => [string, number][], recentFrom: number): ChangeStats[] {
  const out = new Map<string, ChangeStats & { authors: Map<string, number> }>();
  for (const c of commits) {
    for (const [key, lines] of touched(c)) {
      let s = out.get(key);
      if (!s) out.set(key, (s = { key, changeCount: 0, lastChangedAt: c.time, lastCommit: c.sha, recentChurn: 0, recentChanges: 0, mainAuthors: [], authors: new Map() }));
      s.changeCount++;
      if (c.time > s.lastChangedAt) {
        s.lastChangedAt = c.time;
        s.lastCommit = c.sha;
      }
      if (c.time >= recentFrom) {
        s.recentChanges++;
        s.recentChurn += lines;
      }
      s.authors.set(c.authorName, (s.authors.get(c.authorName) ?? 0) + 1);
    }
  }
  return [...out.values()].map(({ authors, ...s }) => ({
    ...s,
    mainAuthors: [...authors.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAIN_AUTHORS)
      .map(([name, n]) => `${name} (${n})`),
  }));
}

/** Pairs counted on integer ids: a 10k-commit history makes millions of pair increments. */
function rules(baskets: string[][], opts: AggregateOptions): CoChange[] {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const idOf = (k: string) => {
    let i = ids.get(k);
    if (i === undefined) {
      ids.set(k, (i = names.length));
      names.push(k);
    }
    return i;
  };
  const single = new Map<number, number>();
  const pairs = new Map<number, number>();
  const encoded = baskets.map((b) => [...new Set(b.map(idOf))].sort((a, b2) => a - b2));
  const n = names.length;
  for (const b of encoded) {
    for (const i of b) single.set(i, (single.get(i) ?? 0) + 1);
    for (let x = 0; x < b.length; x++) for (let y = x + 1; y < b.length; y++) {
      const key = b[x] * n + b[y];
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }
  const byFrom = new Map<number, CoChange[]>();
  const push = (from: number, to: number, support: number) => {
    const confidence = support / single.get(from)!;
    if (confidence < opts.minConfidence) return;
    const list = byFrom.get(from) ?? [];
    list.push({ from: names[from], to: names[to], support, confidence });
    byFrom.set(from, list);
  };
  for (const [key, support] of pairs) {
    if (support < opts.minSupport) continue;
    const a = Math.floor(key / n);
    const b = key % n;
    push(a, b, support);
    push(b, a, support);
  }
  const out: CoChange[] = [];
  for (const list of byFrom.values()) {
    list.sort((p, q) => q.confidence - p.confidence || q.support - p.support || (p.to < q.to ? -1 : 1));
    out.push(...list.slice(0, opts.maxPartners));
  }
  return out;
}
