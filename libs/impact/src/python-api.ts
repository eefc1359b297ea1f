// The public API of an installable Python package: every public name of a module that users reach
// with `import pkg.mod` may be used by code outside the repository, so an unreferenced one is no
// strong dead-code candidate. Also the run-time protocols (io's file objects) and name lookups
// (registries keyed by class name) that reach methods without any edge.
import { indentOf } from './code-text';

export interface PythonApiContext {
  /** The repository has a Python package manifest (pyproject.toml, setup.py, setup.cfg, a wheel's dist-info): it is installable. */
  installable: boolean;
  /** Why the repository is clearly an application whose packages nobody imports, or null. */
  application: string | null;
  /** Folders holding an `__init__.py`. */
  packageDirs: Set<string>;
  /** Modules (paths) whose names a public module re-exports with `from m import *`. */
  starExported: Set<string>;
}

/** Vendored copies of other projects: outside code imports the originals, not these copies. */
const VENDORED = /^(_?vendor(ed)?|third_?party|thirdparty|extern(als)?|_vendored)$/i;

export function pythonApiContext(files: { path: string; text?: string }[], manifestsRead: string[]): PythonApiContext {
  const paths = files.map((f) => f.path);
  const packageDirs = new Set(paths.filter((p) => /(^|\/)__init__\.py$/.test(p)).map((p) => p.replace(/\/?__init__\.py$/, '')));
  const installable = manifestsRead.some((m) => /(^|\/)(pyproject\.toml|setup\.py|setup\.cfg|entry_points\.txt)$/.test(m));
  // A Django project is run by its manage.py, never imported by other code.
  const manage = paths.find((p) => /(^|\/)manage\.py$/.test(p));
  const application = !packageDirs.size ? 'no importable package' : manage ? `a Django project run by ${manage}` : null;
  const ctx: PythonApiContext = { installable, application, packageDirs, starExported: new Set() };
  const byModule = new Map<string, string>();
  for (const p of paths) {
    if (!p.endsWith('.py')) continue;
    const mod = moduleName(p, packageDirs);
    if (mod) byModule.set(mod, p);
  }
  // Star imports, followed from public modules (a hub like `pkg/all.py` gathering `pkg/_core.py`).
  const stars = new Map<string, string[]>();
  for (const f of files) {
    if (!f.path.endsWith('.py') || !f.text) continue;
    const mod = moduleName(f.path, packageDirs);
    if (!mod) continue;
    const targets: string[] = [];
    for (const m of f.text.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\*/gm)) {
      const target = m[1] ? resolveRelative(mod, f.path.endsWith('__init__.py'), m[1].length, m[2]) : m[2];
      const path = target ? byModule.get(target) : undefined;
      if (path) targets.push(path);
    }
    if (targets.length) stars.set(f.path, targets);
  }
  const queue = [...stars.keys()].filter((p) => publicModulePath(p, packageDirs));
  while (queue.length) {
    for (const t of stars.get(queue.pop()!) ?? []) {
      if (ctx.starExported.has(t)) continue;
      ctx.starExported.add(t);
      queue.push(t);
    }
  }
  return ctx;
}

/** `pkg.sub.mod` of a file inside a chain of package folders, or null (a script beside the packages). */
function moduleName(p: string, packageDirs: Set<string>): string | null {
  const parts = p.replace(/\.py$/, '').split('/');
  let dir = parts.slice(0, -1).join('/');
  if (!packageDirs.has(dir)) return null;
  let top = parts.length - 1;
  while (top > 0 && packageDirs.has(parts.slice(0, top).join('/'))) top--;
  dir = parts.slice(top).join('.');
  return dir.endsWith('.__init__') ? dir.slice(0, -'.__init__'.length) : dir;
}

function resolveRelative(mod: string, isInit: boolean, dots: number, rest: string): string | null {
  const base = mod.split('.');
  const keep = base.length - (isInit ? dots - 1 : dots);
  if (keep < 1) return null;
  return [...base.slice(0, keep), ...(rest ? [rest] : [])].join('.');
}

/** The folders and module of the file from its top package down carry no `_` (nor vendored copies). */
function publicModulePath(p: string, packageDirs: Set<string>): boolean {
  const mod = moduleName(p, packageDirs);
  if (!mod) return false;
  return mod.split('.').every((part) => !part.startsWith('_') && !VENDORED.test(part));
}

/**
 * Why a Python declaration is public API of an installable package (`import pkg.mod; pkg.mod.name`),
 * or null: its module sits in a package and no folder, module or enclosing class on the way is
 * underscore-private, and the repository is not clearly an application. Functions nested in
 * functions are not reachable by import.
 */
export function pythonPublicApi(
  r: { name: string; kind: string; path: string; language: string; qualifiedName?: string | null; parentKind: string | null },
  ctx: PythonApiContext,
): string | null {
  if (r.language !== 'python' || !ctx.installable || ctx.application) return null;
  if (r.parentKind === 'function' || r.parentKind === 'method') return null;
  const parts = (r.qualifiedName || r.name).split('.');
  if (parts.some((p) => p.startsWith('_') && !/^__\w+__$/.test(p))) return null;
  if (publicModulePath(r.path, ctx.packageDirs)) return 'public API of an importable package: may be used by its users';
  if (ctx.starExported.has(r.path)) return 'public API of an importable package (re-exported by a public module with `import *`): may be used by its users';
  return null;
}

/** A module for plugin authors: `plugin(s)` in its dotted name (`certbot.plugins.dns_common_lexicon`). */
const PLUGIN_MODULE = /(^|\.)\w*plugins?\w*(\.|$)/i;

/**
 * Why a protected method (`_x`, not name-mangled `__x`) is API, or null: its class is a public plugin
 * base of an importable package (public class of a plugin module that declares @abstractmethod members),
 * whose subclasses in other distributions override or call it. Plugins themselves, which also live
 * in plugin folders, declare no abstract members and stay candidates.
 */
export function pluginBaseMember(
  r: { name: string; kind: string; path: string; language: string; qualifiedName?: string | null; parentKind: string | null },
  ctx: PythonApiContext,
  abstractClass: boolean,
): string | null {
  if (r.language !== 'python' || r.kind !== 'method' || r.parentKind !== 'class' || !/^_[^_]/.test(r.name) || !abstractClass) return null;
  if (!ctx.installable || ctx.application || !publicModulePath(r.path, ctx.packageDirs)) return null;
  const classes = (r.qualifiedName || r.name).split('.').slice(0, -1);
  if (!classes.length || classes.some((c) => c.startsWith('_'))) return null;
  const cls = classes[classes.length - 1];
  if (!PLUGIN_MODULE.test(moduleName(r.path, ctx.packageDirs) ?? '')) return null;
  return `protected method of the public plugin base class ${cls}: plugins in other distributions subclass it and call or override it`;
}

/** Methods io and every consumer of file objects call by name (io wrappers, shutil, tarfile, csv). */
const IO_METHODS = /^(read|read1|readinto|readinto1|readline|readlines|readall|write|writelines|seek|tell|truncate|flush|close|closed|fileno|isatty|seekable|readable|writable|detach|peek)$/;
const IO_BASE = /^(?:io\.|_io\.)?(IOBase|RawIOBase|BufferedIOBase|TextIOBase|TextIOWrapper|BufferedReader|BufferedWriter|BufferedRandom|BufferedRWPair|BytesIO|StringIO|FileIO)$/;

/**
 * Why a method is part of the file-object protocol, or null: its class inherits an io base (directly
 * or through the repository's classes), or is file-like itself (it defines `read`, `readinto` or
 * `write` beside the method), so io wrappers (`io.TextIOWrapper(obj)`, `io.BufferedReader(obj)`) and
 * other consumers of file objects call it by name.
 */
export function ioProtocolMethod(
  r: { name: string; kind: string; language: string },
  classBases: string[],
  outsideAncestors: string[] | null | undefined,
  siblingMethods: Set<string>,
): string | null {
  if (r.language !== 'python' || r.kind !== 'method' || !IO_METHODS.test(r.name)) return null;
  const base = [...classBases, ...(outsideAncestors ?? [])].find((b) => IO_BASE.test(b));
  if (base) return `an io protocol method of a subclass of ${base}: io calls it by name`;
  const own = ['read', 'readinto', 'write'].find((m) => m !== r.name && siblingMethods.has(m));
  if (own) return `an io protocol method of a file-like class (it defines ${own}()): io wrappers and file consumers call it by name`;
  return null;
}

/** Names of the methods declared directly in the class that encloses line `startLine` (1-based) of a Python file. */
export function siblingMethods(lines: string[], startLine: number): Set<string> {
  const out = new Set<string>();
  const own = lines[startLine - 1] ?? '';
  const indent = indentOf(own);
  for (const l of enclosingClassBody(lines, startLine) ?? []) {
    const m = l.match(/^(\s*)(?:async\s+)?def\s+(\w+)/);
    if (m && m[1].length === indent) out.add(m[2]);
  }
  return out;
}

/** The body lines of the class a method (starting at `startLine`, 1-based) is declared in, or null when it is not directly in one. */
function enclosingClassBody(lines: string[], startLine: number): string[] | null {
  const own = lines[startLine - 1] ?? '';
  const indent = indentOf(own);
  let at = startLine - 2;
  for (; at >= 0; at--) {
    const l = lines[at];
    if (!l.trim() || l.trimStart().startsWith('#')) continue;
    const ind = indentOf(l);
    if (ind < indent && /^\s*class\s/.test(l)) break;
    if (ind < indent && !/^\s*@/.test(l) && !/^\s*[)\]]/.test(l) && /^\s*(def|async\s+def|class)\s/.test(l)) return null;
  }
  if (at < 0) return null;
  const body: string[] = [];
  const classIndent = indentOf(lines[at]);
  for (let i = at + 1; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim() || l.trimStart().startsWith('#')) continue;
    const ind = indentOf(l);
    if (ind <= classIndent && !/^\s*[)\]]/.test(l)) break;
    body.push(l);
  }
  return body;
}

/** Whether the class around a method declares abstract members (`@abstractmethod`): an ABC written to be subclassed. `raise NotImplementedError` does not count: thonny's own plugin classes use it for their internal bases, which sample I found dead. */
export function inAbstractClass(lines: string[], startLine: number): boolean {
  return (enclosingClassBody(lines, startLine) ?? []).some((l) => /^\s*@(abc\.)?abstract(method|property)\b/.test(l));
}

/**
 * Class names looked up by a string (`component.get("Core")`, `registry["Core"]`, `getattr(mod, "Core")`):
 * a registry hands the instance to callers that the graph cannot follow, so the class's public methods
 * are called through it. Collected as the exact strings written in call arguments or subscripts.
 */
export function lookedUpNames(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/[\w\])]\s*[([]\s*(['"])([A-Z][A-Za-z0-9_]*)\1\s*[)\],]/g)) into.add(m[2]);
}
