import { readRepositoryFile, SkipReason, WalkFilters, WalkLimits } from '../walk/file-walker';
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
  /** Return an unchanged file's text all the same (TypeScript's checker reads TS/JS files whole). */
  wantText?: boolean;
}

export type ParseOutcome =
  | { path: string; skip: SkipReason; error?: string }
  | { path: string; contentHash: string; nonUtf8: boolean; unchanged: true; text?: string }
  | { path: string; contentHash: string; nonUtf8: boolean; unchanged: false; parsed: ParsedFile };

/** Reads, classifies and parses one file: the same work on a worker thread or in-process. */
export async function runParseTask(parser: ParserService, task: ParseTask): Promise<ParseOutcome> {
  const read = await readRepositoryFile(task.root, task.path, task.limits, task.filters);
  if (!('file' in read)) return { path: task.path, ...read };
  const { contentHash, nonUtf8, content } = read.file;
  if (task.knownHash === contentHash) return { path: task.path, contentHash, nonUtf8, unchanged: true, ...(task.wantText ? { text: content } : {}) };
  return { path: task.path, contentHash, nonUtf8, unchanged: false, parsed: parser.parseFile(task.path, content) };
}
