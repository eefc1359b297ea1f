import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Runs the SCIP indexers that npm ships (devDependencies @sourcegraph/scip-typescript and
 * @sourcegraph/scip-python) on a copy of a folder, for tests and benchmarks. A copy: scip-typescript's
 * --infer-tsconfig writes a tsconfig.json into the folder it indexes.
 */
export function copyToTemp(dir: string): string {
  const tmp = mkdtempSync(join(tmpdir(), 'scopegraph-scip-'));
  cpSync(dir, tmp, { recursive: true });
  return tmp;
}

function bin(pkg: string, entry: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), entry);
}

/** scip-typescript on `cwd` (a tsconfig is inferred when there is none); returns the index file. */
export function runScipTypescript(cwd: string, out = join(cwd, 'index.scip')): string {
  execFileSync(process.execPath, [bin('@sourcegraph/scip-typescript', 'dist/src/main.js'), 'index', '--infer-tsconfig', '--output', out], { cwd, stdio: 'pipe', timeout: 120_000 });
  return out;
}

/** scip-python (pyright) on `cwd`; returns the index file. */
export function runScipPython(cwd: string, out = join(cwd, 'index.scip')): string {
  // scip-python needs a project version: without one it fails on its first file.
  execFileSync(process.execPath, [bin('@sourcegraph/scip-python', 'index.js'), 'index', '--project-name', 'fixture', '--project-version', '0', '--output', out], { cwd, stdio: 'pipe', timeout: 180_000 });
  return out;
}
