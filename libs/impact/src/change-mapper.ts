import type { FileChange, Hunk } from '@scopegraph/history';

/** A declaration of one version of a file, as the parser gives it. */
export interface VersionScope {
  id: string;
  name: string;
  qualifiedName: string;
  kind: string;
  startLine: number;
  endLine: number;
  contentHash: string;
}

export type ChangeKind = 'added' | 'modified' | 'removed';

export interface ChangedScope {
  /** Local id (path#qualifiedName|kind): the graph's id without the repository. */
  id: string;
  name: string;
  qualifiedName: string;
  kind: string;
  path: string;
  change: ChangeKind;
  /** Lines in the new version (added, modified) or the old one (removed). */
  startLine: number;
  endLine: number;
}

function overlaps(start: number, end: number, lo: number, len: number): boolean {
  if (len === 0) return start <= lo - 1 && lo <= end;
  return start <= lo + len - 1 && lo <= end;
}

/**
 * The scopes a file's hunks change, by line ranges: a new-version scope a hunk's new lines fall in is
 * added (no scope of that id before) or modified; an old-version scope a hunk's old lines fall in is
 * removed (gone after) or modified. The file scope itself is left out.
 */
export function mapChangedScopes(path: string, hunks: Hunk[], before: VersionScope[], after: VersionScope[]): ChangedScope[] {
  const oldIds = new Map(before.map((s) => [s.id, s]));
  const newIds = new Map(after.map((s) => [s.id, s]));
  const out = new Map<string, ChangedScope>();
  const add = (s: VersionScope, change: ChangeKind) => {
    if (s.kind === 'file' || out.has(s.id)) return;
    out.set(s.id, { id: s.id, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, path, change, startLine: s.startLine, endLine: s.endLine });
  };
  for (const s of after) {
    if (hunks.some((h) => overlaps(s.startLine, s.endLine, h.newStart, h.newLen))) add(s, oldIds.has(s.id) ? 'modified' : 'added');
  }
  for (const s of before) {
    if (!hunks.some((h) => overlaps(s.startLine, s.endLine, h.oldStart, h.oldLen))) continue;
    const now = newIds.get(s.id);
    if (now) add(now, 'modified');
    else add(s, 'removed');
  }
  return [...out.values()].sort((a, b) => (a.path === b.path ? a.startLine - b.startLine : a.path < b.path ? -1 : 1));
}

/**
 * The same question answered without line ranges: which ids appeared, disappeared, or changed text.
 * Used to check the line-range mapping (bench/impact), not by the API.
 */
export function changedByContent(path: string, before: VersionScope[], after: VersionScope[]): ChangedScope[] {
  const oldIds = new Map(before.map((s) => [s.id, s]));
  const newIds = new Map(after.map((s) => [s.id, s]));
  const out: ChangedScope[] = [];
  for (const s of after) {
    if (s.kind === 'file') continue;
    const o = oldIds.get(s.id);
    if (!o) out.push({ id: s.id, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, path, change: 'added', startLine: s.startLine, endLine: s.endLine });
    else if (o.contentHash !== s.contentHash) out.push({ id: s.id, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, path, change: 'modified', startLine: s.startLine, endLine: s.endLine });
  }
  for (const s of before) if (s.kind !== 'file' && !newIds.has(s.id)) out.push({ id: s.id, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, path, change: 'removed', startLine: s.startLine, endLine: s.endLine });
  return out;
}

export type { FileChange };
