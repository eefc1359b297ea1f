import * as path from 'node:path';
import * as ts from 'typescript';
import type { ParsedFile, RawReference } from '../../../parse/types';
import type { PreciseOracle, PreciseOutcome } from '../../../resolve/types';
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
  /** Built ahead of a first run from the files on disk ({@link TsProjects.prepare}): no answers yet. */
  prepared?: boolean;
}

/**
 * Reads a repository file's text and the hash of its bytes (the parser's content hash) when a
 * parsed file comes without its text; undefined when it cannot be read.
 */
export type SourceReader = (relPath: string) => { text: string; contentHash: string } | undefined;

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
   * Builds the program of a repository that has no compiler state yet from its files on disk, and
   * binds it, ahead of the run's resolution (while the files are still being parsed): the run then
   * reuses every compiler AST whose bytes the parse saw too. Does nothing when state is kept.
   */
  prepare(key: string, rootPath: string | undefined, paths: string[], read: SourceReader): void {
    const { options } = tsProjectOptions(rootPath);
    const optionsKey = optionsKeyOf(rootPath, options);
    if (this.projects.get(key)?.optionsKey === optionsKey) return;
    const js = paths.filter(isJsPath);
    if (js.length > this.maxFiles) return;
    const root = rootOf(rootPath);
    const texts = new Map<string, { rel: string; text: string; hash: string }>();
    for (const rel of js) {
      const r = read(rel);
      if (r) texts.set(path.posix.join(root, rel), { rel, text: r.text, hash: r.contentHash });
    }
    const sources = new Map<string, { hash: string; sf: ts.SourceFile }>();
    const host = compilerHost(root, options, new Set(texts.keys()), (fileName, languageVersion) => {
      const t = texts.get(fileName)!;
      const sf = ts.createSourceFile(fileName, t.text, languageVersion, false, scriptKind(fileName));
      sources.set(t.rel, { hash: t.hash, sf });
      return sf;
    }, (fileName) => texts.get(fileName)?.text);
    const program = ts.createProgram([...texts.keys()], options, host);
    // Binding is kept on the source files: the run's program, reusing them, does not bind again.
    program.getTypeChecker();
    this.projects.set(key, { program, sources, answers: new Map(), optionsKey, prepared: true });
    this.evict();
  }

  /**
   * The run's program over `files` (parsed files; one without text is read with `read`, unless
   * the kept state holds it parsed from the same bytes) and an oracle answering from it.
   */
  open(key: string, rootPath: string | undefined, files: ParsedFile[], read?: SourceReader): PreciseSession {
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
    const prevSources = state?.sources ?? new Map<string, { hash: string; sf: ts.SourceFile }>();
    const sources = new Map<string, { hash: string; sf: ts.SourceFile }>();
    const changed = new Set<string>();
    for (const f of js) {
      const prev = prevSources.get(f.path);
      if (!prev || prev.hash !== f.contentHash) changed.add(f.path);
    }
    const present = new Set(js.map((f) => f.path));
    for (const p of prevSources.keys()) if (!present.has(p)) changed.add(p);

    /** The file's text: from its parse, or read again (it must still hold the bytes that were parsed). */
    const textOf = (f: ParsedFile): string => {
      const text = fileText(f);
      if (text || !read) return text;
      const r = read(f.path);
      return r && r.contentHash === f.contentHash ? r.text : '';
    };
    const host = compilerHost(root, options, new Set(contents.keys()), (fileName, languageVersion) => {
      const f = contents.get(fileName)!;
      const prev = prevSources.get(f.path);
      const sf = prev && prev.hash === f.contentHash ? prev.sf : ts.createSourceFile(fileName, textOf(f), languageVersion, false, scriptKind(fileName));
      sources.set(f.path, { hash: f.contentHash, sf });
      return sf;
    }, (fileName) => {
      const f = contents.get(fileName);
      return f ? textOf(f) : undefined;
    });
    // The same files with the same bytes (a re-index with no TS/JS change, or the program prepared
    // from disk): the program, and its checker with what it has worked out, serve again as they are.
    const program = state && changed.size === 0 ? state.program : ts.createProgram([...contents.keys()], options, host, state?.program);
    for (const f of js) {
      const sf = program.getSourceFile(path.posix.join(root, f.path));
      if (sf) sources.set(f.path, { hash: f.contentHash, sf });
    }
    // Files with no answers kept: all of them on a first run, else the changed ones and their importers.
    const first = !state || state.prepared;

    // Dirty = changed files and everything that imports them, transitively (on a first run nothing
    // is kept that could be dirty).
    const importers = new Map<string, Set<string>>();
    const cache = ts.createModuleResolutionCache(root, (f) => f, options);
    for (const f of first || changed.size === 0 ? [] : js) {
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
    this.evict();

    const checker = new TsOracle(program, root, js);
    const rechecked = first ? js.length : js.filter((f) => !answers.has(f.path) && dirty.has(f.path)).length;
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

  private evict(): void {
    while (this.projects.size > MAX_PROJECTS) this.projects.delete(this.projects.keys().next().value!);
  }
}

/**
 * A compiler host serving the repository's files (`files`: absolute posix names) through
 * `sourceFile` and `text`, and the compiler's own lib files from disk (parsed once per process).
 */
function compilerHost(
  root: string,
  options: ts.CompilerOptions,
  files: Set<string>,
  sourceFile: (fileName: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions) => ts.SourceFile,
  text: (fileName: string) => string | undefined,
): ts.CompilerHost {
  const dirs = new Set<string>();
  for (const name of files) for (let d = path.posix.dirname(name); d !== '/' && !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
  const libDir = toPosix(path.dirname(ts.getDefaultLibFilePath(options)));
  return {
    getSourceFile: (fileName, languageVersion) => {
      if (files.has(fileName)) return sourceFile(fileName, languageVersion);
      if (!fileName.startsWith(libDir)) return undefined;
      const k = `${fileName}\u0000${JSON.stringify(languageVersion)}`;
      let lib = libFiles.get(k);
      if (!lib) {
        const libText = ts.sys.readFile(fileName);
        if (libText === undefined) return undefined;
        libFiles.set(k, (lib = ts.createSourceFile(fileName, libText, languageVersion)));
      }
      return lib;
    },
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    writeFile: () => undefined,
    getCurrentDirectory: () => root,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => files.has(f) || (f.startsWith(libDir) && ts.sys.fileExists(f)),
    readFile: (f) => (files.has(f) ? text(f) : f.startsWith(libDir) ? ts.sys.readFile(f) : undefined),
    directoryExists: (d) => dirs.has(d) || d === root || d.startsWith(libDir),
    getDirectories: () => [],
    // JSDoc in TS files carries no types: only JS files' JSDoc is parsed (less to parse).
    jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeInfo,
  };
}

function isJsPath(p: string): boolean {
  return /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(p) && !/\.d\.[mc]?ts$/.test(p);
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
