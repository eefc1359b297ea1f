import { gunzipSync, gzipSync } from 'node:zlib';
import type { AggregateOptions, Aggregates, ChangeStats, CoChange, CommitRecord } from './aggregate';

/** What the statistics of one file or scope are derived from (everything but the recent window). */
export interface ItemCounts {
  changeCount: number;
  lastChangedAt: number;
  lastCommit: string;
  authors: Map<string, number>;
}

/** Per-item and per-pair co-change counts over the non-mass commits, on integer ids. */
export interface RuleCounts {
  ids: Map<string, number>;
  names: string[];
  single: Map<number, number>;
  /** Symmetric: adj[a][b] === adj[b][a] === commits that changed both. */
  adj: Map<number, Map<number, number>>;
}

/**
 * The running totals a history read keeps between runs, so that an incremental read adds the new
 * commits' contributions (and subtracts pruned ones) instead of recomputing from every kept commit.
 */
export interface HistoryCounts {
  files: Map<string, ItemCounts>;
  scopes: Map<string, ItemCounts>;
  fileRules: RuleCounts;
  scopeRules: RuleCounts;
  /** False when a subtraction left a statistic that only the kept commits can tell (see apply). */
  exact: boolean;
}

export const MAIN_AUTHORS = 3;

function emptyRules(): RuleCounts {
  return { ids: new Map(), names: [], single: new Map(), adj: new Map() };
}

export function emptyCounts(): HistoryCounts {
  return { files: new Map(), scopes: new Map(), fileRules: emptyRules(), scopeRules: emptyRules(), exact: true };
}

function bump<K>(m: Map<K, number>, k: K, by: number): void {
  const v = (m.get(k) ?? 0) + by;
  if (v === 0) m.delete(k);
  else m.set(k, v);
}

/** Ties on time go to the smaller sha, so any order of the same commits gives the same answer. */
function newer(time: number, sha: string, s: ItemCounts): boolean {
  return time > s.lastChangedAt || (time === s.lastChangedAt && sha < s.lastCommit);
}

function applyItems(items: Map<string, ItemCounts>, keys: string[], c: CommitRecord, sign: 1 | -1, touched: Set<string>, counts: HistoryCounts): void {
  for (const key of keys) {
    touched.add(key);
    let s = items.get(key);
    if (sign > 0) {
      if (!s) items.set(key, (s = { changeCount: 0, lastChangedAt: c.time, lastCommit: c.sha, authors: new Map() }));
      else if (newer(c.time, c.sha, s)) {
        s.lastChangedAt = c.time;
        s.lastCommit = c.sha;
      }
      s.changeCount++;
      bump(s.authors, c.authorName, 1);
    } else if (s) {
      s.changeCount--;
      bump(s.authors, c.authorName, -1);
      if (s.changeCount <= 0) items.delete(key);
      // The last change was pruned yet older ones remain: which one is now last is not in the counts.
      else if (s.lastCommit === c.sha) counts.exact = false;
    }
  }
}

function idOf(r: RuleCounts, k: string): number {
  let i = r.ids.get(k);
  if (i === undefined) {
    r.ids.set(k, (i = r.names.length));
    r.names.push(k);
  }
  return i;
}

function applyBasket(r: RuleCounts, keys: string[], sign: 1 | -1, touched: Set<string>): void {
  const b = [...new Set(keys.map((k) => idOf(r, k)))];
  for (const i of b) {
    bump(r.single, i, sign);
    touched.add(r.names[i]);
  }
  for (let x = 0; x < b.length; x++) {
    for (let y = x + 1; y < b.length; y++) {
      bumpPair(r, b[x], b[y], sign);
      bumpPair(r, b[y], b[x], sign);
    }
  }
}

function bumpPair(r: RuleCounts, p: number, q: number, sign: 1 | -1): void {
  let m = r.adj.get(p);
  if (!m) r.adj.set(p, (m = new Map()));
  bump(m, q, sign);
  if (m.size === 0) r.adj.delete(p);
}

/** What one apply changed: items whose statistics and nodes whose co-change edges may differ. */
export interface Touched {
  files: Set<string>;
  scopes: Set<string>;
  fileNodes: Set<string>;
  scopeNodes: Set<string>;
}

export function emptyTouched(): Touched {
  return { files: new Set(), scopes: new Set(), fileNodes: new Set(), scopeNodes: new Set() };
}

/** Adds (sign 1) or removes (sign -1) commits' contributions. */
export function applyCommits(counts: HistoryCounts, commits: CommitRecord[], sign: 1 | -1, touched: Touched = emptyTouched()): Touched {
  for (const c of commits) {
    applyItems(counts.files, c.files, c, sign, touched.files, counts);
    applyItems(counts.scopes, c.scopes, c, sign, touched.scopes, counts);
    if (c.mass) continue;
    applyBasket(counts.fileRules, c.files, sign, touched.fileNodes);
    applyBasket(counts.scopeRules, c.leaves, sign, touched.scopeNodes);
  }
  return touched;
}

/** The association rules from one node: what aggregate's rules keep for it, best first. */
export function edgesFrom(r: RuleCounts, from: string, opts: AggregateOptions): CoChange[] {
  const a = r.ids.get(from);
  if (a === undefined) return [];
  const n = r.single.get(a);
  const partners = r.adj.get(a);
  if (!n || !partners) return [];
  const list: CoChange[] = [];
  for (const [b, support] of partners) {
    if (support < opts.minSupport) continue;
    const confidence = support / n;
    if (confidence < opts.minConfidence) continue;
    list.push({ from, to: r.names[b], support, confidence });
  }
  list.sort((p, q) => q.confidence - p.confidence || q.support - p.support || (p.to < q.to ? -1 : 1));
  return list.slice(0, opts.maxPartners);
}

export function allEdges(r: RuleCounts, opts: AggregateOptions): CoChange[] {
  const out: CoChange[] = [];
  for (const a of r.adj.keys()) out.push(...edgesFrom(r, r.names[a], opts));
  return out;
}

/** Lines and commits per item within the recent window (from commits at or after `recentFrom`). */
export type Recent = Map<string, { changes: number; churn: number }>;

export function recentOf(commits: Pick<CommitRecord, 'time' | 'files' | 'fileLines' | 'scopes' | 'scopeLines'>[], recentFrom: number): { files: Recent; scopes: Recent } {
  const files: Recent = new Map();
  const scopes: Recent = new Map();
  const add = (m: Recent, keys: string[], lines: number[]) =>
    keys.forEach((k, i) => {
      const r = m.get(k) ?? { changes: 0, churn: 0 };
      r.changes++;
      r.churn += lines[i] ?? 0;
      m.set(k, r);
    });
  for (const c of commits) {
    if (c.time < recentFrom) continue;
    add(files, c.files, c.fileLines);
    add(scopes, c.scopes, c.scopeLines);
  }
  return { files, scopes };
}

export function statsOf(key: string, s: ItemCounts, recent: Recent): ChangeStats {
  const r = recent.get(key);
  return {
    key,
    changeCount: s.changeCount,
    lastChangedAt: s.lastChangedAt,
    lastCommit: s.lastCommit,
    recentChurn: r?.churn ?? 0,
    recentChanges: r?.changes ?? 0,
    mainAuthors: [...s.authors.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAIN_AUTHORS)
      .map(([name, n]) => `${name} (${n})`),
  };
}

// Serialised compactly (interned strings, flat number arrays, gzip): eslint's 10k commits make
// millions of pairs, far too many to keep as graph edges that every run would have to rewrite.
interface Packed {
  strings: string[];
  items: [number[], number[]];
  rules: [{ names: number[]; single: number[]; pairs: number[] }, { names: number[]; single: number[]; pairs: number[] }];
}

export function packCounts(c: HistoryCounts): Buffer {
  const strings: string[] = [];
  const sid = new Map<string, number>();
  const s = (x: string) => {
    let i = sid.get(x);
    if (i === undefined) {
      sid.set(x, (i = strings.length));
      strings.push(x);
    }
    return i;
  };
  const items = (m: Map<string, ItemCounts>) => {
    const out: number[] = [];
    for (const [k, v] of m) {
      out.push(s(k), v.changeCount, v.lastChangedAt, s(v.lastCommit), v.authors.size);
      for (const [a, n] of v.authors) out.push(s(a), n);
    }
    return out;
  };
  const rules = (r: RuleCounts) => {
    const single: number[] = [];
    for (const [i, n] of r.single) single.push(i, n);
    const pairs: number[] = [];
    for (const [a, m] of r.adj) for (const [b, n] of m) if (a < b) pairs.push(a, b, n);
    return { names: r.names.map(s), single, pairs };
  };
  const packed: Packed = { strings: [], items: [items(c.files), items(c.scopes)], rules: [rules(c.fileRules), rules(c.scopeRules)] };
  packed.strings = strings;
  return gzipSync(JSON.stringify(packed), { level: 1 });
}

export function unpackCounts(buf: Buffer): HistoryCounts {
  const p = JSON.parse(gunzipSync(buf).toString('utf8')) as Packed;
  const str = p.strings;
  const items = (a: number[]) => {
    const m = new Map<string, ItemCounts>();
    for (let i = 0; i < a.length; ) {
      const key = str[a[i]];
      const v: ItemCounts = { changeCount: a[i + 1], lastChangedAt: a[i + 2], lastCommit: str[a[i + 3]], authors: new Map() };
      const n = a[i + 4];
      i += 5;
      for (let j = 0; j < n; j++, i += 2) v.authors.set(str[a[i]], a[i + 1]);
      m.set(key, v);
    }
    return m;
  };
  const rules = (x: Packed['rules'][0]): RuleCounts => {
    const r = emptyRules();
    x.names.forEach((si, i) => {
      r.names.push(str[si]);
      r.ids.set(str[si], i);
    });
    for (let i = 0; i < x.single.length; i += 2) r.single.set(x.single[i], x.single[i + 1]);
    const put = (a: number, b: number, n: number) => {
      let m = r.adj.get(a);
      if (!m) r.adj.set(a, (m = new Map()));
      m.set(b, n);
    };
    for (let i = 0; i < x.pairs.length; i += 3) {
      put(x.pairs[i], x.pairs[i + 1], x.pairs[i + 2]);
      put(x.pairs[i + 1], x.pairs[i], x.pairs[i + 2]);
    }
    return r;
  };
  return { files: items(p.items[0]), scopes: items(p.items[1]), fileRules: rules(p.rules[0]), scopeRules: rules(p.rules[1]), exact: true };
}

/** Change statistics and association rules (A changed → B changed) over the kept commits. */
export function aggregate(commits: CommitRecord[], opts: AggregateOptions): Aggregates {
  const counts = emptyCounts();
  applyCommits(counts, commits, 1);
  return aggregateCounts(counts, commits, opts);
}

/** The same, from running totals plus the commits of the recent window (any superset of them). */
export function aggregateCounts(counts: HistoryCounts, recentCommits: CommitRecord[], opts: AggregateOptions, newest = newestOf(recentCommits)): Aggregates {
  const recent = recentOf(recentCommits, newest === null ? 0 : newest - opts.recentSeconds);
  return {
    files: [...counts.files].map(([k, s]) => statsOf(k, s, recent.files)),
    scopes: [...counts.scopes].map(([k, s]) => statsOf(k, s, recent.scopes)),
    fileCoChanges: allEdges(counts.fileRules, opts),
    scopeCoChanges: allEdges(counts.scopeRules, opts),
    newest,
  };
}

export function newestOf(commits: { time: number }[]): number | null {
  return commits.reduce<number | null>((m, c) => (m === null || c.time > m ? c.time : m), null);
}
