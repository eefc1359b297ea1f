import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The Python environment the checker reads a repository's dependencies from: site-packages folders,
 * given to it as search paths. Nothing in it is ever run: a repository can ship a hostile
 * `.venv/bin/python`, and asking an interpreter for its paths would run it. `from` says where the
 * folders came from, for the run's stats.
 */
export interface PyEnvironment {
  sitePackages: string[];
  from: string;
}

/** Virtual environments looked for at a repository's root, in this order. */
const REPO_VENVS = ['.venv', 'venv'];

/**
 * `configured` (INGEST_PY_ENV: a site-packages folder, or a virtual environment's folder) when set;
 * else a virtual environment at the repository's root (`.venv`, then `venv`) whose real path stays
 * inside the repository; else none. A configured folder that does not exist is said, not ignored.
 */
export function pythonEnvironment(root: string, configured?: string): PyEnvironment | undefined {
  if (configured) {
    const dir = path.resolve(configured);
    if (!isDirectory(dir)) return { sitePackages: [], from: `INGEST_PY_ENV ${dir} is not a folder: no environment` };
    const inVenv = venvSitePackages(dir);
    return { sitePackages: inVenv.length ? inVenv : [dir], from: `INGEST_PY_ENV ${dir}` };
  }
  const realRoot = realpath(root);
  for (const name of REPO_VENVS) {
    const dir = path.join(root, name);
    if (!isDirectory(dir) || !fs.existsSync(path.join(dir, 'pyvenv.cfg'))) continue;
    // A link out of the repository (to another project's or the host's environment) is not the repository's.
    const inside = venvSitePackages(dir).filter((p) => realRoot !== undefined && isWithin(realRoot, realpath(p)));
    if (inside.length) return { sitePackages: inside, from: `${name} (${inside.map((p) => path.relative(root, p)).join(', ')})` };
  }
  return undefined;
}

/** A virtual environment's site-packages: lib/python3.X/site-packages (POSIX) or Lib/site-packages (Windows). */
function venvSitePackages(dir: string): string[] {
  const found: string[] = [];
  // lib64 is often a link to lib: one folder reached twice is one search path.
  const seen = new Set<string>();
  for (const lib of ['lib', 'lib64']) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(path.join(dir, lib));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const sp = path.join(dir, lib, name, 'site-packages');
      if (!/^python3(\.\d+)?t?$/.test(name) || !isDirectory(sp)) continue;
      const real = realpath(sp) ?? sp;
      if (seen.has(real)) continue;
      seen.add(real);
      found.push(sp);
    }
  }
  const windows = path.join(dir, 'Lib', 'site-packages');
  if (isDirectory(windows)) found.push(windows);
  return found;
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function isWithin(root: string, p: string | undefined): boolean {
  if (p === undefined) return false;
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
