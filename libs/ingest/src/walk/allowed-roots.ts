import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export class PathNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathNotAllowedError';
  }
}

/**
 * Resolves a user-given repository path to its real location and checks it lies under one of the
 * allowed roots. Real paths on both sides, so neither `..` nor a symlink can step outside.
 */
export async function resolveAllowedPath(input: string, allowedRoots: string[]): Promise<string> {
  if (!path.isAbsolute(input)) throw new PathNotAllowedError(`path must be absolute: "${input}"`);
  let real: string;
  try {
    real = await fs.realpath(input);
  } catch {
    throw new PathNotAllowedError(`path does not exist: "${input}"`);
  }
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) throw new PathNotAllowedError(`path is not a directory: "${input}"`);
  for (const root of allowedRoots) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (!realRoot) continue;
    const rel = path.relative(realRoot, real);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return real;
  }
  throw new PathNotAllowedError(`path "${input}" is outside the allowed roots (INGEST_ALLOWED_ROOTS)`);
}

/**
 * A user-given file (a SCIP index to import) resolved to its real location, checked to be a regular
 * file under one of the allowed roots, like repository paths.
 */
export async function resolveAllowedFile(input: string, allowedRoots: string[]): Promise<string> {
  if (!path.isAbsolute(input)) throw new PathNotAllowedError(`path must be absolute: "${input}"`);
  let real: string;
  try {
    real = await fs.realpath(input);
  } catch {
    throw new PathNotAllowedError(`file does not exist: "${input}"`);
  }
  if (!(await fs.stat(real)).isFile()) throw new PathNotAllowedError(`not a file: "${input}"`);
  for (const root of allowedRoots) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (!realRoot) continue;
    const rel = path.relative(realRoot, real);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return real;
  }
  throw new PathNotAllowedError(`file "${input}" is outside the allowed roots (INGEST_ALLOWED_ROOTS)`);
}
