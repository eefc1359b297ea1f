import type { FileChange, Hunk } from './git-log';

/** A scope's lines in some version of its file. */
export interface ScopeRange {
  id: string;
  start: number;
  end: number;
}

/** What one commit did to the scopes of one file. */
export interface ScopeTouch {
  id: string;
  /** Lines of the commit's hunks that fell in the scope (added + deleted). */
  lines: number;
}

/** A scope that another touched scope lies inside (a class around a changed method) is not a leaf. */
export interface AttributedChange {
  touched: ScopeTouch[];
  /** The innermost touched scopes: what co-change is counted on. */
  leaves: string[];
}

/** Does the hunk change lines of [start, end] (new-side coordinates)? */
export function hunkTouches(h: Hunk, start: number, end: number): number {
  if (h.newLen > 0) {
    const lo = Math.max(start, h.newStart);
    const hi = Math.min(end, h.newStart + h.newLen - 1);
    return hi >= lo ? hi - lo + 1 + (h.oldLen > 0 ? Math.min(h.oldLen, hi - lo + 1) : 0) : 0;
  }
  // A pure deletion between lines newStart-1 and newStart: inside the scope when both neighbours are.
  return start <= h.newStart - 1 && h.newStart <= end ? h.oldLen : 0;
}

/**
 * A line of the version after the hunks, in the version before them. Lines inside a hunk map to the
 * hunk's old lines (`side` picks the first or last); lines that were added map to the gap's edge.
 */
export function mapLineBack(hunks: Hunk[], line: number, side: 'start' | 'end'): number {
  let delta = 0;
  for (const h of hunks) {
    if (line < h.newStart) break;
    if (line >= h.newStart + h.newLen) {
      delta = h.oldStart + h.oldLen - (h.newStart + h.newLen);
      continue;
    }
    if (h.oldLen === 0) return side === 'start' ? h.oldStart : h.oldStart - 1;
    return side === 'start' ? h.oldStart : h.oldStart + h.oldLen - 1;
  }
  return line + delta;
}

/**
 * Follows the repository's scopes back through history, newest commit first, the way blame does:
 * each commit's hunks are matched against where the scopes were in that commit's result, then the
 * ranges are moved to where they were before it. A scope whose lines were all added by a commit is
 * followed no further (it did not exist before). Renames are not followed: a renamed file's history
 * starts at the rename.
 */
export class RangeTracker {
  private readonly ranges = new Map<string, ScopeRange[]>();

  constructor(scopes: Iterable<ScopeRange & { path: string }>) {
    for (const s of scopes) {
      const list = this.ranges.get(s.path) ?? [];
      list.push({ id: s.id, start: s.start, end: s.end });
      this.ranges.set(s.path, list);
    }
  }

  /** Moves ranges back through changes that are not commits (the working tree against HEAD). */
  rewind(files: FileChange[]): void {
    for (const f of files) this.apply(f);
  }

  /** The scopes one commit touched in one file; moves that file's ranges to before the commit. */
  apply(change: FileChange): AttributedChange {
    const list = this.ranges.get(change.path);
    if (!list || list.length === 0) return { touched: [], leaves: [] };
    const touched: ScopeTouch[] = [];
    const kept: ScopeRange[] = [];
    for (const r of list) {
      let lines = 0;
      for (const h of change.hunks) lines += hunkTouches(h, r.start, r.end);
      if (lines > 0) touched.push({ id: r.id, lines });
      if (change.added) continue;
      const start = mapLineBack(change.hunks, r.start, 'start');
      const end = mapLineBack(change.hunks, r.end, 'end');
      if (end >= start) kept.push({ id: r.id, start, end });
    }
    if (kept.length) this.ranges.set(change.path, kept);
    else this.ranges.delete(change.path);
    return { touched, leaves: leavesOf(touched, list) };
  }
}

function leavesOf(touched: ScopeTouch[], ranges: ScopeRange[]): string[] {
  if (touched.length <= 1) return touched.map((t) => t.id);
  const byId = new Map(ranges.map((r) => [r.id, r]));
  const rs = touched.map((t) => byId.get(t.id)!);
  return rs.filter((outer) => !rs.some((inner) => inner !== outer && inner.start >= outer.start && inner.end <= outer.end && (inner.start !== outer.start || inner.end !== outer.end))).map((r) => r.id);
}
