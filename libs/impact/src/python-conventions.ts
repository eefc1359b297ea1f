// Python conventions that make an unreferenced declaration live without any code of the repository
// naming it: frameworks that find functions and methods by a name pattern, zope.interface
// implementers, classes that inherit an outside class through classes of the repository, and
// programs whose users write Python configuration against the package's own API.

import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** Modules a Python file imports (`import a.b`, `from a.b import c`, also inside try/if blocks). */
export function pythonImports(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))/gm)) {
    if (m[1]) out.add(m[1]);
    else for (const part of m[2].split(',')) out.add(part.trim());
  }
  return out;
}

/** Whether `imports` holds `module` or one of its submodules. */
function importsModule(imports: Iterable<string>, module: string): boolean {
  for (const i of imports) if (i === module || i.startsWith(`${module}.`)) return true;
  return false;
}

interface Convention {
  framework: string;
  kind: 'function' | 'method';
  name: RegExp;
  /** The module whose import (by the same file, or by any file of the repository) shows the framework is in use; none: only `file`, `marker` or `anywhere` apply. */
  module?: string;
  scope: 'file' | 'repository';
  /** A file name the framework loads by itself (doit's dodo.py), with no import needed. */
  file?: RegExp;
  /** Code in the file that hands its objects to the framework (`sys.meta_path.append(self)`), instead of an import. */
  marker?: RegExp | ((text: string) => boolean);
  /** The name alone says it: a tool calls it on whatever module it is pointed at, with no import. */
  anywhere?: boolean;
}

/** Module-level `revision = ...` and `down_revision = ...` (annotated or not): the shape of an Alembic revision file. */
export function isAlembicRevision(text: string): boolean {
  return /^revision\b[ \t]*(?::[^=\n]*)?=/m.test(text) && /^down_revision\b[ \t]*(?::[^=\n]*)?=/m.test(text);
}

/**
 * Registration and discovery by name: the framework reads the module or instance and calls every
 * function or method whose name fits. Each applies only where the framework is imported, so a
 * `task_` function of a package that does not use doit is still judged on its uses.
 */
const CONVENTIONS: Convention[] = [
  { framework: 'doit collects task_* functions of dodo.py', kind: 'function', name: /^task_\w/, module: 'doit', scope: 'file', file: /(^|\/)dodo\.py$/ },
  { framework: 'Twisted Perspective Broker calls remote_/perspective_/view_ methods by the remote name', kind: 'method', name: /^(remote|perspective|view)_\w/, module: 'twisted.spread', scope: 'repository' },
  { framework: 'twisted.web calls render_<HTTP method>', kind: 'method', name: /^render_[A-Z]+$/, module: 'twisted.web', scope: 'repository' },
  { framework: 'Python-Markdown loads an extension module by name and calls its makeExtension', kind: 'function', name: /^makeExtension$/, module: 'markdown', scope: 'file' },
  { framework: 'Pelican loads a plugin module and calls its register()', kind: 'function', name: /^register$/, module: 'pelican', scope: 'file' },
  { framework: 'Textual dispatches action_/on_/watch_/compute_/validate_ methods by name', kind: 'method', name: /^(action|on|watch|compute|validate)_\w/, module: 'textual', scope: 'file' },
  {
    framework: 'importlib calls the finder/loader protocol of objects put on sys.meta_path or sys.path_hooks',
    kind: 'method',
    name: /^(find_spec|find_module|create_module|exec_module|load_module|module_repr|get_code|get_source|get_data|get_filename|is_package|get_resource_reader|path_stats|set_data|source_to_code|invalidate_caches|find_distributions)$/,
    module: 'importlib.abc',
    scope: 'file',
    marker: /\bsys\.(meta_path|path_hooks)\b|\bimportlib\.(machinery|abc)\b|\bspec_from_loader\(/,
  },
  // `alembic upgrade/downgrade` imports each revision module of script_location and calls these by name.
  { framework: 'Alembic calls upgrade()/downgrade() of each revision module (module-level revision and down_revision)', kind: 'function', name: /^(upgrade|downgrade)$/, scope: 'file', marker: isAlembicRevision },
  // pytest-perf collects any .py file whose text names pytest_perf and runs its functions whose names
  // match its own pattern, `(\b|_)(import_time|perf)(\b|_)` (conventionally in exercises.py).
  { framework: 'pytest-perf runs the *_perf and import_time functions of a file that names pytest_perf', kind: 'function', name: /(?:\b|_)(?:import_time|perf)(?:\b|_)/, scope: 'file', marker: /\bpytest_perf\b/ },
  // `jupyter nbextension/labextension/server` look these up on the package they are given.
  { framework: 'Jupyter calls an extension package\'s _jupyter_* hooks by name', kind: 'function', name: /^(_jupyter_\w+|_?load_jupyter_server_extension)$/, scope: 'file', anywhere: true },
];

export interface PythonContext {
  /** Imports per Python file. */
  fileImports: Map<string, Set<string>>;
  /** Files whose code carries a convention's marker, by convention. */
  marked?: Map<Convention, Set<string>>;
  /** Every module imported by some file of the repository. */
  repoImports: Set<string>;
  /** Python files that an mkdocs.yml lists under `hooks:`: mkdocs calls their on_* event functions. */
  mkdocsHooks?: Set<string>;
}

export function pythonContext(files: { path: string; text: string }[], mkdocsHooks: Set<string> = new Set()): PythonContext {
  const fileImports = new Map<string, Set<string>>();
  const repoImports = new Set<string>();
  const marked = new Map<Convention, Set<string>>();
  for (const f of files) {
    if (!/\.pyi?$/.test(f.path)) continue;
    for (const c of CONVENTIONS) {
      if (!(typeof c.marker === 'function' ? c.marker(f.text) : c.marker?.test(f.text))) continue;
      if (!marked.has(c)) marked.set(c, new Set());
      marked.get(c)!.add(f.path);
    }
    const imports = pythonImports(f.text);
    fileImports.set(f.path, imports);
    for (const i of imports) repoImports.add(i);
  }
  return { fileImports, repoImports, marked, mkdocsHooks };
}

/** The Python files an mkdocs config lists under `hooks:`, relative to the repository (paths in it are relative to the config). */
export function mkdocsHookFiles(configPath: string, text: string): string[] {
  let config: unknown;
  try {
    // logLevel silent: mkdocs configs carry `!!python/name:` tags, which only mkdocs resolves.
    config = parseYaml(text, { logLevel: 'silent' });
  } catch {
    return [];
  }
  const hooks = config && typeof config === 'object' ? (config as { hooks?: unknown }).hooks : null;
  if (!Array.isArray(hooks)) return [];
  const dir = path.posix.dirname(configPath);
  return hooks.filter((h): h is string => typeof h === 'string' && h.endsWith('.py')).map((h) => path.posix.normalize(path.posix.join(dir, h)));
}

/** The framework convention that calls this declaration by its name, or null. */
export function frameworkConvention(r: { name: string; kind: string; path: string; language: string }, ctx: PythonContext): string | null {
  if (r.language !== 'python') return null;
  for (const c of CONVENTIONS) {
    if (c.kind !== r.kind || !c.name.test(r.name)) continue;
    if (c.file?.test(r.path) || c.anywhere) return c.framework;
    if (ctx.marked?.get(c)?.has(r.path)) return c.framework;
    const imports = c.scope === 'file' ? ctx.fileImports.get(r.path) ?? new Set<string>() : ctx.repoImports;
    if (c.module && importsModule(imports, c.module)) return c.framework;
  }
  if (r.kind === 'function' && /^on_\w+$/.test(r.name) && ctx.mkdocsHooks?.has(r.path)) return 'mkdocs calls the on_* event functions of the hook modules its mkdocs.yml lists';
  return null;
}

/**
 * A public method of a class declared to implement an interface (zope.interface's `@implementer(I)`,
 * `implements(I)` in the class body): callers hold the interface, so no edge leads to the method.
 */
export function implementsInterface(r: { name: string; kind: string; language: string }, parentHead: string | null): boolean {
  if (r.language !== 'python' || r.kind !== 'method' || r.name.startsWith('_') || !parentHead) return false;
  return /^[ \t]*@(?:[\w.]+\.)?implementer(?:_only)?\(/m.test(headerOf(parentHead)) || /^[ \t]+(?:[\w.]+\.)?implements\(/m.test(parentHead);
}

/** The decorators and `class` line of a class's source (its body's own decorators are not the class's). */
function headerOf(source: string): string {
  const lines = source.split('\n');
  const at = lines.findIndex((l) => /^\s*class\s/.test(l));
  return lines.slice(0, at < 0 ? 3 : at + 1).join('\n');
}

/**
 * Outside classes that carry no hooks for subclasses to fill: inheriting them through the repository's
 * own classes says nothing about a method being called from outside.
 */
const HOOKLESS_BASES = /^(?:typing\.|abc\.|enum\.|builtins\.)?(object|Generic|Protocol|ABC|ABCMeta|NamedTuple|TypedDict|Enum|IntEnum|StrEnum|Flag|IntFlag|str|int|float|bytes|dict|list|tuple|set|frozenset|Exception|BaseException|Warning|\w+Error|\w+Exception|\w+Warning)(\[.*)?$/;

/** The first outside class, reached through the repository's own classes, that may hold hooks; or null. */
export function inheritedOutsideBase(r: { kind: string; language: string }, outsideAncestors: string[] | null | undefined): string | null {
  if (r.language !== 'python' || r.kind !== 'method' || !outsideAncestors) return null;
  return outsideAncestors.find((b) => !HOOKLESS_BASES.test(b)) ?? null;
}

/**
 * Top-level Python packages of a repository: folders with an `__init__.py` whose parent has none
 * (or under `src/`).
 */
export function topLevelPackages(paths: string[]): Set<string> {
  const inits = new Set(paths.filter((p) => /(^|\/)__init__\.py$/.test(p)).map((p) => p.replace(/\/?__init__\.py$/, '')));
  const out = new Set<string>();
  for (const dir of inits) {
    if (!dir) continue;
    const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
    if (!inits.has(parent) || parent === '') out.add(dir.slice(dir.lastIndexOf('/') + 1));
  }
  // Test folders are packages too, but nobody configures a program by importing its tests.
  for (const t of [...out]) if (/^tests?$/.test(t)) out.delete(t);
  return out;
}

/**
 * A file that is not a Python module but is Python importing the package (buildbot's master.cfg
 * sample, a `*.tmpl` or `*.cfg` that users copy): the program is configured by code written against
 * its API, so its public classes and methods serve code outside the repository as a library's do.
 */
export function importsOwnPackage(text: string, packages: Set<string>): string | null {
  if (!packages.size) return null;
  for (const m of text.matchAll(/^[ \t]*(?:from|import)[ \t]+([A-Za-z_]\w*)/gm)) if (packages.has(m[1])) return m[1];
  return null;
}

/** Whether a file lies inside the named top-level package (`pkg/...`, `src/pkg/...`). */
export function inPackage(path: string, pkg: string): boolean {
  return path.startsWith(`${pkg}/`) || path.startsWith(`src/${pkg}/`);
}

/**
 * Methods the standard library calls by name on subclasses of its classes (socketserver handlers,
 * logging handlers, threads, unittest, importlib finders and loaders, HTMLParser, ast visitors, asyncio
 * protocols, JSON encoders, formatters), by the base's last name. Used where the class reaches the
 * base through the repository's own classes, so no edge leads from the base to the method.
 */
const STDLIB_PROTOCOLS: { base: RegExp; method: RegExp }[] = [
  { base: /RequestHandler$/, method: /^(setup|handle|finish|log_message|log_request|log_error|send_head|version_string|handle_one_request)$/ },
  { base: /^(?:logging\.)?\w*Handler$/, method: /^(emit|flush|close|handleError|format|shouldRollover|doRollover)$/ },
  { base: /^(?:threading\.)?(Thread|Timer)$/, method: /^run$/ },
  { base: /TestCase$/, method: /^(setUp|tearDown|setUpClass|tearDownClass|asyncSetUp|asyncTearDown|runTest|shortDescription)$/ },
  { base: /(Finder|Loader)$/, method: /^(find_spec|find_module|create_module|exec_module|load_module|get_code|get_source|get_data|get_filename|is_package|path_stats|set_data|source_to_code|invalidate_caches|get_resource_reader)$/ },
  { base: /HTMLParser$/, method: /^(handle_\w+|unknown_decl)$/ },
  { base: /^(?:ast\.)?Node(Visitor|Transformer)$/, method: /^(visit_\w+|generic_visit)$/ },
  { base: /^asyncio\.(\w*Protocol)$|^(SubprocessProtocol|DatagramProtocol|BufferedProtocol)$/, method: /^(connection_made|connection_lost|data_received|eof_received|datagram_received|error_received|pause_writing|resume_writing|get_buffer|buffer_updated|pipe_data_received|pipe_connection_lost|process_exited)$/ },
  { base: /JSONEncoder$/, method: /^(default|encode|iterencode)$/ },
  { base: /Formatter$/, method: /^(format|formatTime|formatException|formatStack|get_value|get_field|format_field|convert_field|parse|check_unused_args)$/ },
];

/** The standard-library base, reached through the repository's classes, whose protocol calls this method by name; or null. */
export function stdlibProtocol(r: { name: string; kind: string; language: string }, outsideAncestors: string[] | null | undefined): string | null {
  if (r.language !== 'python' || r.kind !== 'method' || !outsideAncestors) return null;
  for (const b of outsideAncestors) for (const p of STDLIB_PROTOCOLS) if (p.base.test(b) && p.method.test(r.name)) return b;
  return null;
}

/** The bases written in a class's `class X(A, b.C, metaclass=M):` line, keywords left out. */
export function classBases(classSource: string): string[] {
  const m = classSource.match(/^[ \t]*class[ \t]+\w+[ \t]*\(([^)]*)\)/m);
  if (!m) return [];
  return m[1]
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b && !b.includes('='))
    .map((b) => b.replace(/\[.*$/, ''));
}

/**
 * A dotted base (`class X(json.JSONEncoder)`, `class Y(SCons.cpp.PreProcessor)`): the graph records
 * no edge for it. `outside` when its first name is a module the file imports from outside the
 * repository (the method may override one of its hooks), `repository` when it is one of the
 * repository's own packages, with the base's class name.
 */
export function dottedBases(classSource: string, fileImports: Set<string>, packages: Set<string>): { base: string; where: 'outside' | 'repository'; className: string }[] {
  const out: { base: string; where: 'outside' | 'repository'; className: string }[] = [];
  for (const b of classBases(classSource)) {
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(b)) continue;
    const root = b.slice(0, b.indexOf('.'));
    const className = b.slice(b.lastIndexOf('.') + 1);
    if (packages.has(root)) out.push({ base: b, where: 'repository', className });
    else if ([...fileImports].some((i) => i === root || i.startsWith(`${root}.`)) && !HOOKLESS_BASES.test(b)) out.push({ base: b, where: 'outside', className });
  }
  return out;
}

/**
 * A name the file imports from outside the repository: `from peewee import Model` or `import peewee`
 * for `peewee.Model`; relative imports and the repository's own packages are not outside.
 */
export function importedFromOutside(name: string, fileText: string, packages: Set<string>): boolean {
  const root = name.split('.')[0];
  // A base written as an expression (`with_metaclass(Meta, Base)`) names no import; its text would also
  // be read as a regular expression below.
  if (!/^[A-Za-z_]\w*$/.test(root)) return false;
  const word = new RegExp(`(^|[\\s,(])${root}(\\s+as\\s+\\w+)?\\s*($|[,)#])`, 'm');
  for (const m of fileText.matchAll(/^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)/gm)) {
    if (m[1].startsWith('.') || packages.has(m[1].split('.')[0])) continue;
    if (word.test(m[2].replace(/\\\n/g, ' '))) return true;
  }
  for (const m of fileText.matchAll(/^[ \t]*import[ \t]+([^\n]*)/gm)) {
    for (const part of m[1].split(',')) {
      const [mod, alias] = part.trim().split(/\s+as\s+/);
      if ((alias ?? mod.split('.')[0]) === root && !packages.has(mod.split('.')[0])) return true;
    }
  }
  return false;
}

/**
 * Why a class nested in another class is read by a framework, or null: the enclosing class has a base
 * from outside (directly or through the repository's classes) or an outside metaclass, and such
 * frameworks read inner classes by their place in the body (Django/peewee/marshmallow/DRF `Meta`,
 * pydantic `Config`), which no edge records. Hook-less bases (object, Exception, Enum) do not count.
 */
export function frameworkInnerClass(
  r: { kind: string; language: string; parentKind: string | null },
  parentHead: string | null | undefined,
  outsideAncestors: string[] | null | undefined,
  fileText: string,
  packages: Set<string>,
): string | null {
  if (r.language !== 'python' || r.kind !== 'class' || r.parentKind !== 'class' || !parentHead) return null;
  const header = headerOf(parentHead);
  for (const b of classBases(header)) if (!HOOKLESS_BASES.test(b) && importedFromOutside(b, fileText, packages)) return b;
  const meta = header.match(/\bmetaclass[ \t]*=[ \t]*([A-Za-z_][\w.]*)/);
  if (meta && meta[1] !== 'ABCMeta' && !meta[1].endsWith('.ABCMeta') && importedFromOutside(meta[1], fileText, packages)) return `metaclass ${meta[1]}`;
  return outsideAncestors?.find((b) => !HOOKLESS_BASES.test(b)) ?? null;
}
