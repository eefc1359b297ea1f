import * as path from 'node:path';
import * as ts from 'typescript';
import type { ParsedFile, RawReference } from '../../parse/types';
import type { PreciseOracle, PreciseOutcome } from '../types';
import { isJsFamily, siteKey, TsOracle } from './ts-oracle';
import { tsProjectOptions } from './ts-options';

/** Root used for repositories indexed without a path (tests, benchmarks over in-memory files). */
const VIRTUAL_ROOT = '/repo';
/** Projects (one per repository) whose parsed files and answers stay in memory between runs. */
const MAX_PROJECTS = 2;

/** Default library files are the same for every repository: parse them once per process. */
const libFiles = new Map<string, ts.SourceFile>();

interface ProjectState {
  program: ts.Program;
  /** Parsed compiler source files by repo-relative path, with the content hash they were made from. */
  sources: Map<string, { hash: string; sf: ts.SourceFile }>;
  /** Answers per file, kept while neither the file nor anything it imports (transitively) changed. */
  answers: Map<string, Map<string, PreciseOutcome | undefined>>;
  optionsKey: string;
}

export interface PreciseRunStats {
  /** Where the compiler options came from: `tsconfig.json`, `jsconfig.json` or `inferred`. */
  options: string;
  files: number;
  /** Files whose references were (re)checked this run: changed files and their importers. */
  rechecked: number;
  /** Why the precise resolver did not run (too many files...): the fast resolver answered alone. */
  skipped?: string;
}

export interface PreciseSession {
  oracle?: PreciseOracle;
  stats: PreciseRunStats;
}

/**
 * TypeScript's program + checker over a repository's TS/JS files, served from the parsed files in
 * memory (nothing else is read but the compiler's own lib files). Between runs of the same
 * repository, unchanged files keep their compiler ASTs (TypeScript reuses them in the next program)
 * and their answers, unless a file they import, directly or not, changed: so a re-index re-checks
 * only changed files and their dependents. At most {@link MAX_PROJECTS} repositories are kept.
 */
export class TsProjects {
  private readonly projects = new Map<string, ProjectState>();

  constructor(private readonly maxFiles: number) {}

  /**
   * Which files the kept state of `key` holds parsed from given bytes (under the options in force
   * for `rootPath`): those need no text in the next run, the compiler reuses what it parsed.
   */
  keptSources(key: string, rootPath: string | undefined): (path: string, contentHash: string) => boolean {
    const state = this.projects.get(key);
    if (!state || state.optionsKey !== optionsKeyOf(rootPath, tsProjectOptions(rootPath).options)) return () => false;
    return (p, hash) => state.sources.get(p)?.hash === hash;
  }

  open(key: string, rootPath: string | undefined, files: ParsedFile[]): PreciseSession {
    const js = files.filter(isJsFamily);
    const { options, source } = tsProjectOptions(rootPath);
    if (js.length > this.maxFiles) {
      this.projects.delete(key);
      return { stats: { options: source, files: js.length, rechecked: 0, skipped: `${js.length} TS/JS files > limit ${this.maxFiles}` } };
    }
    const root = rootOf(rootPath);
    const optionsKey = optionsKeyOf(rootPath, options);
    let state = this.projects.get(key);
    if (state && state.optionsKey !== optionsKey) state = undefined;
    this.projects.delete(key);

    const contents = new Map(js.map((f) => [path.posix.join(root, f.path), f]));
    const dirs = new Set<string>();
    for (const name of contents.keys()) for (let d = path.posix.dirname(name); d !== '/' && !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
    const prevSources = state?.sources ?? new Map<string, { hash: string; sf: ts.SourceFile }>();
    const sources = new Map<string, { hash: string; sf: ts.SourceFile }>();
    const changed = new Set<string>();
    for (const f of js) {
      const prev = prevSources.get(f.path);
      if (!prev || prev.hash !== f.contentHash) changed.add(f.path);
    }
    for (const p of prevSources.keys()) if (!js.some((f) => f.path === p)) changed.add(p);

    const libDir = toPosix(path.dirname(ts.getDefaultLibFilePath(options)));
    const host: ts.CompilerHost = {
      getSourceFile: (fileName, languageVersion) => {
        const f = contents.get(fileName);
        if (f) {
          const rel = f.path;
          const prev = prevSources.get(rel);
          const sf = prev && prev.hash === f.contentHash
            ? prev.sf
            : ts.createSourceFile(fileName, fileText(f), languageVersion, false, scriptKind(fileName));
          sources.set(rel, { hash: f.contentHash, sf });
          return sf;
        }
        if (!fileName.startsWith(libDir)) return undefined;
        const k = `${fileName}\u0000${JSON.stringify(languageVersion)}`;
        let lib = libFiles.get(k);
        if (!lib) {
          const text = ts.sys.readFile(fileName);
          if (text === undefined) return undefined;
          libFiles.set(k, (lib = ts.createSourceFile(fileName, text, languageVersion)));
        }
        return lib;
      },
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      writeFile: () => undefined,
      getCurrentDirectory: () => root,
      getCanonicalFileName: (f) => f,
      useCaseSensitiveFileNames: () => true,
      getNewLine: () => '\n',
      fileExists: (f) => contents.has(f) || (f.startsWith(libDir) && ts.sys.fileExists(f)),
      readFile: (f) => {
        const file = contents.get(f);
        if (file) return fileText(file);
        return f.startsWith(libDir) ? ts.sys.readFile(f) : undefined;
      },
      directoryExists: (d) => dirs.has(d) || d === root || d.startsWith(libDir),
      getDirectories: () => [],
    };
    const program = ts.createProgram([...contents.keys()], options, host, state?.program);
    for (const f of js) {
      const sf = program.getSourceFile(path.posix.join(root, f.path));
      if (sf) sources.set(f.path, { hash: f.contentHash, sf });
    }

    // Dirty = changed files and everything that imports them, transitively.
    const importers = new Map<string, Set<string>>();
    const cache = ts.createModuleResolutionCache(root, (f) => f, options);
    for (const f of js) {
      for (const imp of f.imports) {
        const r = ts.resolveModuleName(imp.specifier, path.posix.join(root, f.path), options, host, cache).resolvedModule;
        const target = r && contents.get(r.resolvedFileName)?.path;
        if (!target) continue;
        let set = importers.get(target);
        if (!set) importers.set(target, (set = new Set()));
        set.add(f.path);
      }
    }
    const dirty = new Set<string>();
    const stack = [...changed];
    while (stack.length) {
      const p = stack.pop()!;
      if (dirty.has(p)) continue;
      dirty.add(p);
      for (const i of importers.get(p) ?? []) stack.push(i);
    }
    const answers = new Map<string, Map<string, PreciseOutcome | undefined>>();
    for (const [p, a] of state?.answers ?? []) if (!dirty.has(p) && contents.has(path.posix.join(root, p))) answers.set(p, a);

    const next: ProjectState = { program, sources, answers, optionsKey };
    this.projects.set(key, next);
    while (this.projects.size > MAX_PROJECTS) this.projects.delete(this.projects.keys().next().value!);

    const checker = new TsOracle(program, root, js);
    const rechecked = js.filter((f) => !answers.has(f.path) && (dirty.has(f.path) || !state)).length;
    const oracle: PreciseOracle = {
      resolve(ref: RawReference, file: ParsedFile): PreciseOutcome | undefined {
        let perFile = answers.get(file.path);
        if (!perFile) answers.set(file.path, (perFile = new Map()));
        const k = siteKey(ref.kind, ref.line, ref.targetName);
        if (perFile.has(k)) return perFile.get(k);
        const out = checker.resolve(ref, file);
        perFile.set(k, out);
        return out;
      },
    };
    return { oracle, stats: { options: source, files: js.length, rechecked } };
  }

  forget(key: string): void {
    this.projects.delete(key);
  }
}

function rootOf(rootPath: string | undefined): string {
  return rootPath ? toPosix(path.resolve(rootPath)) : VIRTUAL_ROOT;
}

function optionsKeyOf(rootPath: string | undefined, options: ts.CompilerOptions): string {
  return `${rootOf(rootPath)}\u0000${JSON.stringify(options)}`;
}

/** The file scope holds the whole text of the file. */
function fileText(f: ParsedFile): string {
  return (f.scopes.find((s) => s.kind === 'file') ?? f.scopes[0])?.source ?? '';
}

function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (fileName.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
