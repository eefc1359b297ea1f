import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * What a repository's package manifests say is reached from outside: the files a package exposes
 * (package.json `main`/`module`/`types`/`exports`/`bin`) and the functions its entry points name
 * (console_scripts and other entry_points in pyproject.toml, setup.cfg, setup.py). A package that
 * declares it is an application (package.json `private`, or no library entry) exposes no API.
 */
export interface Manifests {
  /** Indexed files a manifest names as a package entry (its public API, or a program's start). */
  entryFiles: Set<string>;
  /** `module:function` targets of Python entry points, as `path/of/module.py` → names. */
  entryFunctions: Map<string, Set<string>>;
  /** Some manifest declares a library surface (package.json main/exports, or a Python package without scripts). */
  library: boolean;
  /** A package.json that is not private names a library entry (main/module/types/exports). */
  jsLibrary?: boolean;
  /** Such a package has no `exports` map, so outside code can require any of its files by path. */
  jsDeepImports?: boolean;
  /** Some manifest declares a program (bin, scripts, console_scripts, `__main__.py`). */
  application: boolean;
  /** Manifests read, relative to the root (for the answer's reasons). */
  read: string[];
  /**
   * Languages other than JS/TS and Python whose build manifest declares a library, each with the
   * manifest that says so (go.mod without a root `package main`, Cargo.toml with a lib target, a
   * pom.xml or Gradle build naming no main class, composer.json not of type project, a gemspec, a
   * .csproj that builds no executable): their exported names are API that code outside may use.
   */
  libraries?: Map<string, string>;
}

const JS_FIELDS = ['main', 'module', 'types', 'typings', 'browser'];

export async function readManifests(root: string, files: string[]): Promise<Manifests> {
  const result: Manifests = { entryFiles: new Set(), entryFunctions: new Map(), library: false, application: false, read: [], libraries: new Map() };
  const dirs = new Set<string>(['']);
  for (const f of files) {
    // Every folder up from each file: a manifest may sit at any level (workspaces, src layouts).
    let d = path.posix.dirname(f);
    while (d !== '.' && d !== '' && !dirs.has(d)) {
      dirs.add(d);
      d = path.posix.dirname(d);
    }
  }
  // An unpacked wheel keeps its entry points in *.dist-info/entry_points.txt beside the packages.
  // Gem and .NET project files have the package's name: found by listing the folders.
  const named: { dir: string; name: string }[] = [];
  for (const d of [...dirs]) {
    try {
      for (const e of await fs.readdir(path.join(root, d), { withFileTypes: true })) {
        if (e.isDirectory() && e.name.endsWith('.dist-info')) dirs.add(path.posix.join(d, e.name));
        else if (e.isFile() && /\.(gemspec|csproj)$/.test(e.name)) named.push({ dir: d, name: e.name });
      }
    } catch {
      // A folder that cannot be listed holds no manifest we can read.
    }
  }
  const byStem = new Map<string, string[]>();
  for (const f of files) {
    const stem = f.replace(/\.[^./]+$/, '');
    byStem.set(stem, [...(byStem.get(stem) ?? []), f]);
  }
  const fileSet = new Set(files);
  const resolveJs = (dir: string, target: string) => {
    if (target.includes('*')) return exportPattern(dir, target, files);
    const rel = path.posix.normalize(path.posix.join(dir, target.replace(/^\.\//, '')));
    const found = new Set<string>();
    if (fileSet.has(rel)) found.add(rel);
    const stem = rel.replace(/\.(d\.ts|[cm]?[jt]sx?)$/, '');
    // Built output names its source: dist/x.js, lib/x.d.ts and build/x.js come from src/x.ts.
    const stems = [stem, stem.replace(/(^|\/)(dist|lib|build|out|esm|cjs)\//, '$1src/'), stem.replace(/(^|\/)(dist|lib|build|out|esm|cjs)\//, '$1')];
    for (const s of stems) for (const cand of [s, `${s}/index`]) for (const f of byStem.get(cand) ?? []) found.add(f);
    return found;
  };
  for (const dir of dirs) {
    const abs = path.join(root, dir);
    const pkg = await readJson(path.join(abs, 'package.json'));
    if (pkg) {
      result.read.push(path.posix.join(dir, 'package.json'));
      const targets: string[] = [];
      for (const k of JS_FIELDS) if (typeof pkg[k] === 'string') targets.push(pkg[k] as string);
      collectStrings(pkg.exports, targets);
      const bins: string[] = [];
      if (typeof pkg.bin === 'string') bins.push(pkg.bin);
      else collectStrings(pkg.bin, bins);
      if (bins.length) result.application = true;
      if (!pkg.private && (targets.length || pkg.exports)) result.library = result.jsLibrary = true;
      if (!pkg.private && targets.length && pkg.exports === undefined) result.jsDeepImports = true;
      if (!pkg.private && !targets.length && !bins.length) targets.push('index.js');
      for (const t of [...targets, ...bins]) for (const f of resolveJs(dir, t)) result.entryFiles.add(f);
    }
    for (const name of ['pyproject.toml', 'setup.cfg', 'setup.py', 'entry_points.txt']) {
      const text = await readText(path.join(abs, name));
      if (text === null) continue;
      result.read.push(path.posix.join(dir, name));
      // `name = package.module:function` (console_scripts, gui_scripts, plugin entry points, [project.scripts]).
      for (const m of text.matchAll(/[\w.-]+\s*=\s*["']?([A-Za-z_][\w.]*):([A-Za-z_][\w.]*)/g)) {
        const modulePath = m[1].replace(/\./g, '/');
        const fn = m[2].split('.')[0];
        const base = dir.endsWith('.dist-info') ? path.posix.dirname(dir) : dir;
        for (const cand of [`${modulePath}.py`, `${modulePath}/__init__.py`, `src/${modulePath}.py`, `src/${modulePath}/__init__.py`]) {
          const rel = path.posix.join(base === '.' ? '' : base, cand);
          if (!fileSet.has(rel)) continue;
          result.entryFunctions.set(rel, new Set([...(result.entryFunctions.get(rel) ?? []), fn]));
          result.entryFiles.add(rel);
        }
      }
      // A program's commands (plugin entry points alone make a library with hooks, not a program).
      if (/console_scripts|gui_scripts|\[project\.(scripts|gui-scripts)\]|\[tool\.poetry\.scripts\]|\bscripts\s*=/.test(text)) result.application = true;
    }
  }
  await otherLibraries(root, dirs, named, files, result);
  for (const f of files) if (/(^|\/)__main__\.py$/.test(f)) {
    result.application = true;
    result.entryFiles.add(f);
  }
  // Python modules are importable whatever else the package is: a program's too.
  if (files.some((f) => f.endsWith('.py'))) result.library = true;
  return result;
}

/** Build files that name a program's entry (a main class, Gradle's application plugin) or a web archive. */
const JVM_PROGRAM = /<mainClass>|Main-Class|\bmainClass\b|id\s*\(?\s*['"]application['"]|apply\s+plugin:\s*['"]application['"]|<packaging>\s*(war|ear)\s*<\/packaging>/;

/** A Go file's package name: the first `package` clause outside comments (doc comments show `package main` examples). */
export function goPackageClause(text: string): string | null {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  return /^\s*package\s+(\w+)/m.exec(code)?.[1] ?? null;
}

/** The languages (beyond JS/TS and Python) whose build manifests declare a library: see `Manifests.libraries`. */
async function otherLibraries(root: string, dirs: Set<string>, named: { dir: string; name: string }[], files: string[], result: Manifests): Promise<void> {
  const libraries = result.libraries!;
  const add = (language: string, manifest: string) => {
    result.read.push(manifest);
    if (!libraries.has(language)) libraries.set(language, manifest);
  };
  const inDir = (dir: string, rel: string) => (dir ? `${dir}/${rel}` : rel);
  for (const dir of dirs) {
    const abs = path.join(root, dir);
    if ((await readText(path.join(abs, 'go.mod'))) !== null) {
      // A module whose root package is `main` is a program; any other module's exported names are importable.
      const rootGo = files.filter((f) => path.posix.dirname(f) === (dir || '.') && f.endsWith('.go') && !f.endsWith('_test.go'));
      let program = false;
      for (const f of rootGo) if (goPackageClause((await readText(path.join(root, f))) ?? '') === 'main') program = true;
      if (program) result.read.push(inDir(dir, 'go.mod'));
      else add('go', inDir(dir, 'go.mod'));
    }
    const cargo = await readText(path.join(abs, 'Cargo.toml'));
    if (cargo !== null) {
      if (/^\s*\[lib\]/m.test(cargo) || files.includes(inDir(dir, 'src/lib.rs'))) add('rust', inDir(dir, 'Cargo.toml'));
      else result.read.push(inDir(dir, 'Cargo.toml'));
    }
    for (const name of ['pom.xml', 'build.gradle', 'build.gradle.kts']) {
      const text = await readText(path.join(abs, name));
      if (text === null) continue;
      if (JVM_PROGRAM.test(text) || /<packaging>\s*pom\s*<\/packaging>/.test(text)) result.read.push(inDir(dir, name));
      else add('java', inDir(dir, name));
    }
    const composer = await readJson(path.join(abs, 'composer.json'));
    // Composer's default package type is `library`; an application says `project`.
    if (composer) {
      if (composer.type === 'project') result.read.push(inDir(dir, 'composer.json'));
      else add('php', inDir(dir, 'composer.json'));
    }
  }
  for (const { dir, name } of named) {
    if (name.endsWith('.gemspec')) add('ruby', inDir(dir, name));
    else {
      const text = (await readText(path.join(root, dir, name))) ?? '';
      if (/<OutputType>\s*(Exe|WinExe)\s*<\/OutputType>|Sdk="Microsoft\.NET\.Sdk\.Web"/i.test(text)) result.read.push(inDir(dir, name));
      else add('csharp', inDir(dir, name));
    }
  }
}

/**
 * Files a subpath pattern of `exports` opens to outside code (`"./lib/*": "./lib/*.js"`, `"./*": "./*"`):
 * every file the `*` can stand for, its sources included (a built `dist/x.js` names `src/x.ts`).
 */
export function exportPattern(dir: string, target: string, files: string[]): Set<string> {
  const rel = path.posix.normalize(path.posix.join(dir, target.replace(/^\.\//, '')));
  const [head, tail] = rel.split('*', 2);
  const ext = /\.(d\.ts|[cm]?[jt]sx?)$/;
  const heads = [head, head.replace(/(^|\/)(dist|lib|build|out|esm|cjs)\//, '$1src/')];
  const tailStem = tail.replace(ext, '');
  const found = new Set<string>();
  for (const f of files) {
    if (!heads.some((h) => f.startsWith(h))) continue;
    // `*.js` in the pattern stands for the built file; its source has another extension.
    if (f.endsWith(tail) || (tailStem !== tail && f.replace(ext, '').endsWith(tailStem))) found.add(f);
  }
  return found;
}

function collectStrings(v: unknown, into: string[]): void {
  if (typeof v === 'string') into.push(v);
  else if (Array.isArray(v)) for (const x of v) collectStrings(x, into);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) collectStrings(x, into);
}

async function readJson(p: string): Promise<Record<string, unknown> | null> {
  const text = await readText(p);
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

async function readText(p: string): Promise<string | null> {
  try {
    return await fs.readFile(p, 'utf8');
  } catch {
    return null;
  }
}
