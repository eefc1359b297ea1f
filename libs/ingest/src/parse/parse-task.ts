import { readRepositoryFileSync, SkipReason, WalkFilters, WalkLimits } from '../walk/file-walker';
import type { ParserService } from './parser.service';
import type { ParsedFile } from './types';

/** One file to read and, unless its bytes are those already indexed, parse. Plain data: it crosses threads. */
export interface ParseTask {
  root: string;
  path: string;
  limits: WalkLimits;
  filters: WalkFilters;
  /** The content hash the graph holds for this file: equal bytes are not parsed. */
  knownHash: string | null;
  /** Fingerprints of files changed at or after this time (epoch ms) are not trusted later. */
  settledBefore?: number;
}

/**
 * `fingerprint`: the file's fingerprint when it can be trusted next time (see readRepositoryFileSync).
 * `read: false` marks a file found unchanged by its fingerprint alone (the caller checks that).
 */
export type ParseOutcome =
  | { path: string; skip: SkipReason; error?: string }
  | { path: string; contentHash: string; nonUtf8: boolean; unchanged: true; fingerprint: string | null; read: boolean }
  | { path: string; contentHash: string; nonUtf8: boolean; unchanged: false; fingerprint: string | null; parsed: ParsedFile };

/** Reads, classifies and parses one file: the same work on a worker thread or in-process. */
export function runParseTask(parser: ParserService, task: ParseTask): ParseOutcome {
  const read = readRepositoryFileSync(task.root, task.path, task.limits, task.filters, task.settledBefore);
  if (!('file' in read)) return { path: task.path, skip: read.skip, ...(read.error ? { error: read.error } : {}) };
  const { contentHash, nonUtf8, content } = read.file;
  const fingerprint = read.fingerprint;
  if (task.knownHash === contentHash) {
    return { path: task.path, contentHash, nonUtf8, unchanged: true, fingerprint, read: true };
  }
  return { path: task.path, contentHash, nonUtf8, unchanged: false, fingerprint, parsed: parser.parseFile(task.path, content) };
}
