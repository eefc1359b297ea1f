// Folders a Python package hands out as a path rather than importing: stub folders given to an
// analyser (`os.path.join(os.path.dirname(__file__), "api_stubs")` returned to jedi), folders put on
// sys.path, resource folders reached through importlib.resources or pkg_resources. Their Python
// files are read by a tool (or imported by whoever receives the path), not called by the package, so
// an unreferenced name in them is no strong dead-code candidate. Read by the shape of the code that
// builds the path, never by a package's or folder's name.

import { isTestSuitePath } from './dead-code-signs';

/** `os.path.dirname(os.path.abspath(__file__))`: the file's own folder, or one above per extra dirname. */
const DIRNAME_ANCHOR = /((?:(?:os\.)?(?:path\.)?dirname\(\s*)+)((?:(?:os\.)?(?:path\.)?(?:abspath|realpath|normpath)\(\s*)?)__file__((?:\s*\))+)/g;
/** `Path(__file__).resolve().parent.parent`, `pathlib.Path(__file__).parents[1]`. */
const PATHLIB_ANCHOR = /(?:pathlib\.)?Path\(\s*__file__\s*\)(?:\.(?:resolve|absolute)\(\s*\))*((?:\.parent\b)+|\.parents\[(\d)\])/g;
/** Resource APIs anchored at the module's own package: `files(__package__)`, `resource_filename(__name__, "x")`. */
const RESOURCE_ANCHOR = /\b(?:resources\.)?files\(\s*(?:__package__|__name__)\s*\)/g;
const RESOURCE_CALL = /\b(?:pkg_resources\.)?resource_(?:filename|listdir|isdir)\(\s*(?:__name__|__package__)\s*,\s*(['"])([^'"]+)\1/g;
/** Calls that run the folder's files as code (plugin loaders): a path given to them is code, not data. */
const EXECUTES = /\b(iter_modules|import_module|load_source|spec_from_file_location|run_path|exec|__import__|walk_packages|load_module)\b/;
const SEGMENTS = /^\s*(?:,\s*(['"])([^'"]+)\1\s*)+/;

export interface HandedFolder {
  /** The folder, relative to the repository. */
  folder: string;
  /** Where its path is built: `path:line`. */
  where: string;
  /** How it leaves the package: put on sys.path, or a folder of Python files that is no package. */
  how: 'sys.path' | 'no __init__.py';
}

/**
 * Folders holding Python files whose path the repository's own code builds from `__file__` (or a
 * resource API) and hands out: put on sys.path, or given away as a folder that is no package (no
 * `__init__.py` of its own, so nothing imports it as a subpackage). A folder that holds the file
 * building the path, one reached with `..`, a file path, and a path passed to a loader that imports
 * it (iter_modules, import_module, spec_from_file_location) do not count. Only the package's own
 * modules hand a folder out: setup.py, conftest.py, docs' conf.py and tests put source folders on
 * sys.path to build, document or test the code itself.
 */
export function pathHandedFolders(files: { path: string; text: string }[], allPaths: string[]): HandedFolder[] {
  const pyFiles = allPaths.filter((p) => /\.pyi?$/.test(p));
  const out = new Map<string, HandedFolder>();
  const packageDirs = new Set(allPaths.filter((p) => /(^|\/)__init__\.py$/.test(p)).map((p) => p.replace(/\/?__init__\.py$/, '')));
  for (const f of files) {
    if (!f.path.endsWith('.py') || (!f.text.includes('__file__') && !/resource_|files\(/.test(f.text))) continue;
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    if (!packageDirs.has(dir) || isTestSuitePath(f.path)) continue;
    const lines = f.text.split('\n');
    // Names bound to an anchor (`HERE = os.path.dirname(__file__)`), with how many folders up they point.
    const anchors = new Map<string, number>();
    for (const l of lines) {
      const m = /^\s*([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(l);
      if (!m) continue;
      const up = anchorLevel(m[2].trim());
      if (up !== null) anchors.set(m[1], up);
    }
    lines.forEach((line, i) => {
      if (EXECUTES.test(line)) return;
      for (const { up, segments } of builtPaths(line, anchors)) {
        const folder = resolveFolder(dir, up, segments);
        if (!folder || f.path.startsWith(folder + '/')) continue;
        if (!pyFiles.some((p) => p.startsWith(folder + '/'))) continue;
        const onSysPath = /\bsys\.path\b/.test(line);
        if (!onSysPath && allPaths.includes(`${folder}/__init__.py`)) continue;
        if (!out.has(folder)) out.set(folder, { folder, where: `${f.path}:${i + 1}`, how: onSysPath ? 'sys.path' : 'no __init__.py' });
      }
    });
  }
  return [...out.values()];
}

/**
 * The handed-out folder a public declaration lies in, or null. A tool reading the folder (completion
 * from stubs, imports from the path) reaches its public names; a private helper nothing in the
 * folder calls is dead there as anywhere.
 */
export function handedFolderOf(scope: { path: string; name: string; qualifiedName?: string | null }, folders: HandedFolder[]): HandedFolder | null {
  const parts = (scope.qualifiedName ?? scope.name).split('.');
  if (scope.name.startsWith('_') || parts.slice(-2).some((p) => p.startsWith('_') && !/^__\w+__$/.test(p))) return null;
  return folders.find((h) => scope.path.startsWith(h.folder + '/')) ?? null;
}

/** `dirname` once is the file's own folder (0), each more is one folder up. */
function dirnameLevel(m: RegExpMatchArray): number {
  return (m[1].match(/dirname/g) ?? []).length - 1;
}

/** The length of `text` up to and including its `n`-th closing parenthesis. */
function closingAt(text: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < text.length; i++) if (text[i] === ')' && ++seen === n) return i + 1;
  return text.length;
}

/** Folders up from the file's own folder that an expression names (`dirname(__file__)` is 0), or null. */
function anchorLevel(expr: string): number | null {
  DIRNAME_ANCHOR.lastIndex = 0;
  const d = DIRNAME_ANCHOR.exec(expr);
  if (d && d.index === 0 && d[0].length === expr.length) return dirnameLevel(d);
  PATHLIB_ANCHOR.lastIndex = 0;
  const p = PATHLIB_ANCHOR.exec(expr);
  if (p && p.index === 0 && p[0].length === expr.length) return p[2] !== undefined ? Number(p[2]) : (p[1].match(/parent/g) ?? []).length - 1;
  RESOURCE_ANCHOR.lastIndex = 0;
  const r = RESOURCE_ANCHOR.exec(expr);
  if (r && r.index === 0 && r[0].length === expr.length) return 0;
  return null;
}

/** Paths a line builds from an anchor: `join(anchor, "a", "b")`, `anchor / "a"`, `anchor.joinpath("a")`, `resource_filename(__name__, "a")`. */
function builtPaths(line: string, anchors: Map<string, number>): { up: number; segments: string[] }[] {
  const out: { up: number; segments: string[] }[] = [];
  const starts: { up: number; end: number; join: boolean }[] = [];
  const joinBefore = (at: number) => /\bjoin\(\s*$/.test(line.slice(0, at));
  for (const m of line.matchAll(DIRNAME_ANCHOR)) {
    // Only the parentheses the anchor opened close it; the rest belong to the call around it.
    const closers = (m[1].match(/\(/g) ?? []).length + (m[2] ? 1 : 0);
    if ((m[3].match(/\)/g) ?? []).length >= closers) starts.push({ up: dirnameLevel(m), end: m.index! + m[0].length - m[3].length + closingAt(m[3], closers), join: joinBefore(m.index!) });
  }
  for (const re of [PATHLIB_ANCHOR, RESOURCE_ANCHOR]) {
    re.lastIndex = 0;
    for (const m of line.matchAll(re)) {
      const up = anchorLevel(m[0]);
      if (up !== null) starts.push({ up, end: m.index! + m[0].length, join: joinBefore(m.index!) });
    }
  }
  for (const [name, up] of anchors) {
    for (const m of line.matchAll(new RegExp(`\\b${name}\\b(?!\\s*=[^=])`, 'g'))) starts.push({ up, end: m.index! + m[0].length, join: joinBefore(m.index!) });
  }
  for (const s of starts) {
    const rest = line.slice(s.end);
    let segments: string[] = [];
    if (s.join) {
      const m = SEGMENTS.exec(rest);
      if (m) segments = [...m[0].matchAll(/(['"])([^'"]+)\1/g)].map((x) => x[2]);
    } else {
      const slash = /^(?:\s*\/\s*(['"])[^'"]+\1)+/.exec(rest);
      const joinpath = /^\s*\.joinpath\(\s*((?:(['"])[^'"]+\2\s*,?\s*)+)\)/.exec(rest);
      if (slash) segments = [...slash[0].matchAll(/(['"])([^'"]+)\1/g)].map((x) => x[2]);
      else if (joinpath) segments = [...joinpath[1].matchAll(/(['"])([^'"]+)\1/g)].map((x) => x[2]);
    }
    if (segments.length) out.push({ up: s.up, segments });
  }
  for (const m of line.matchAll(RESOURCE_CALL)) out.push({ up: 0, segments: [m[2]] });
  return out;
}

/** The repository-relative folder, or null for `..`, absolute parts, a file (a name with an extension) or the file's own folder. */
function resolveFolder(dir: string, up: number, segments: string[]): string | null {
  const parts = segments.flatMap((s) => s.split('/')).filter((s) => s && s !== '.');
  if (!parts.length || parts.some((p) => p === '..' || p.includes('\\')) || segments[0].startsWith('/')) return null;
  if (/\.\w+$/.test(parts[parts.length - 1])) return null;
  const base = dir ? dir.split('/') : [];
  if (up > base.length) return null;
  return [...base.slice(0, base.length - up), ...parts].join('/');
}
