import { createHash } from 'node:crypto';
import type { StoredFile } from '../graph/ingest.repository';
import { isJsFamily } from '../languages/typescript/precise/ts-oracle';
import type { ParsedFile } from '../parse/types';
import { interfaceHash } from '../resolve/interface-hash';
import type { ResolveAllReason } from './ingest.types';

/** What a run resolves references against besides the parses (stored with the repository when it finishes). */
export function resolutionKey(contextKey: string, paths: string[]): string {
  return createHash('sha256').update(contextKey).update(JSON.stringify(paths)).digest('hex');
}

/** Which files' references a run resolves, and what it records about that. */
export interface ResolutionPlan {
  /** The key this run resolves against (stored when it finishes). */
  key: string;
  /** Only these files' references, or (undefined) every file's. */
  only?: Set<string>;
  /** Why every file: set exactly when `only` is not. */
  all?: ResolveAllReason;
  /**
   * Interface hashes to record: of re-parsed files, and when every file is resolved, of every file
   * whose recorded one differs (none yet, or recorded by other code: this run's key covers the code).
   */
  interfaces: Map<string, string>;
}

/**
 * Decides whether resolving only the changed files gives the same edges as resolving all of them:
 * the last finished run resolved the same set of files with the same settings and resolver code
 * (`storedKey`), every reused file's interface was recorded, and no re-parsed file's interface
 * changed. Then every other file's resolution reads exactly what it read last time, so its edges,
 * edge hash and counts in the graph stand. Re-resolved: the re-parsed files, and reused files whose
 * edges were not fully written.
 */
export function resolutionPlan(input: {
  key: string;
  storedKey: string | null;
  parsed: ParsedFile[];
  reusedPaths: ReadonlySet<string>;
  stored: ReadonlyMap<string, StoredFile>;
  recordsAddUp: boolean;
  precise: boolean;
  /** Pyright answers Python references: it infers types from bodies too. */
  pyPrecise?: boolean;
}): ResolutionPlan {
  const { key, parsed, reusedPaths, stored } = input;
  const interfaces = new Map<string, string>();
  for (const f of parsed) if (!reusedPaths.has(f.path)) interfaces.set(f.path, interfaceHash(f));
  const all = (reason: ResolveAllReason): ResolutionPlan => {
    for (const f of parsed) {
      if (!reusedPaths.has(f.path)) continue;
      const hash = interfaceHash(f);
      if (stored.get(f.path)?.interfaceHash !== hash) interfaces.set(f.path, hash);
    }
    return { key, all: reason, interfaces };
  };
  if (input.storedKey === null) return all('no-previous-run');
  if (input.storedKey !== key) return all('context');
  if (!input.recordsAddUp) return all('records');
  const only = new Set<string>();
  for (const f of parsed) {
    const s = stored.get(f.path);
    if (reusedPaths.has(f.path)) {
      if (!s?.interfaceHash || s.unresolvedRefs === null || s.builtinRefs === null) return all('records');
      if (!s.edgeHash) only.add(f.path);
      continue;
    }
    // TypeScript's checker infers types from bodies: any TS/JS edit may change other files' edges.
    if (input.precise && isJsFamily(f)) return all('ts-checker');
    if (input.pyPrecise && f.language === 'python') return all('py-checker');
    if (!s?.interfaceHash || s.interfaceHash !== interfaces.get(f.path)) return all('interface');
    only.add(f.path);
  }
  return { key, only, interfaces };
}
