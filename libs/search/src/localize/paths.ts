/**
 * Matching the paths an issue prints (absolute paths of someone else's machine, site-packages,
 * node_modules, URLs, relative paths) to the repository's own files, by their common trailing
 * segments.
 */

/** File names too common to identify a file by their name alone. */
const GENERIC_NAMES = new Set(['__init__.py', '__main__.py', 'index.js', 'index.ts', 'index.tsx', 'index.mjs', 'main.go', 'mod.rs', 'lib.rs', 'main.rs', 'utils.py', 'util.js', 'utils.js', 'utils.ts', 'setup.py', 'conftest.py']);

export class RepoPathIndex {
  private readonly byName = new Map<string, { repoId: string; path: string; segments: string[] }[]>();

  constructor(files: readonly { repoId: string; path: string }[]) {
    for (const f of files) {
      const segments = f.path.split('/');
      const name = segments[segments.length - 1];
      const list = this.byName.get(name) ?? [];
      list.push({ ...f, segments });
      this.byName.set(name, list);
    }
  }

  /**
   * The repository file a printed path most likely is: the one sharing the most trailing segments,
   * at least two (or one, when the printed path is a bare file name that is not generic). Null when none qualifies or two files tie.
   */
  match(printed: string): { repoId: string; path: string; common: number } | null {
    const segments = printed.replace(/^\.?\//, '').split('/').filter((s) => s && s !== '.');
    if (segments.length === 0) return null;
    const candidates = this.byName.get(segments[segments.length - 1]);
    if (!candidates) return null;
    let best: { repoId: string; path: string; common: number } | null = null;
    let tie = false;
    for (const c of candidates) {
      let common = 0;
      while (common < segments.length && common < c.segments.length && segments[segments.length - 1 - common] === c.segments[c.segments.length - 1 - common]) common++;
      if (!best || common > best.common) {
        best = { repoId: c.repoId, path: c.path, common };
        tie = false;
      } else if (common === best.common) tie = true;
    }
    if (!best || tie) return null;
    const name = segments[segments.length - 1];
    // One shared segment is a coincidence (`urllib/parse.py` is not the repository's `pkg/parse.py`)
    // unless the issue printed a bare file name.
    const enough = best.common >= 2 || (segments.length === 1 && !GENERIC_NAMES.has(name));
    return enough ? best : null;
  }
}
