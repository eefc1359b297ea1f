import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { familyOf, languageForPath, manifestNames } from '../languages';
import type { ParsedFile, RawReference } from '../parse/types';
import { rootPackageName } from '../languages/python/modules';
import { defaultPyPhase, PyChecker, PyRunStats } from '../languages/python/py-checker';
import { checkerFile, CheckerQuery, TsChecker } from '../languages/typescript/precise/ts-checker';
import { isJsFamily } from '../languages/typescript/precise/ts-oracle';
import { fastModuleOptions, tsProjectOptions } from '../languages/typescript/precise/ts-options';
import type { PreciseRunStats } from '../languages/typescript/precise/ts-project';
import { resolveRepository } from './resolver';
import type { PreciseOutcome, ResolveOptions, ResolveResult, ResolverName } from './types';

export interface ResolveRun {
  result: ResolveResult;
  /** The TS/JS resolver setting this run used. */
  tsResolver: Exclude<ResolverName, 'scip'>;
  /** Set when the precise resolver was asked for. */
  precise?: PreciseRunStats & { passes: number };
  /** The Python resolver setting this run used (`fast` also when the checker is not installed). */
  pyResolver: Exclude<ResolverName, 'scip'>;
  /** Set when pyright was asked for: its run, and how many questions it was asked and answered. */
  pyPrecise?: PyRunStats & { asked: number; answered: number; ms: number };
  /**
   * Set when the Python questions were left to a phase of their own (`deferPython`): how many there
   * were (this run's Python answers are the fast resolver's), and every other answer, to reuse then.
   */
  pyDeferred?: { questions: number; answers: Map<string, PreciseOutcome | undefined> };
}

/** How one resolution treats the checkers' questions. */
export interface ResolvePhase {
  /** Ask pyright nothing now: count its questions (pyDeferred) and answer them fast. */
  deferPython?: boolean;
  /** Answers already known (an earlier phase's pyDeferred.answers): not asked again. */
  seed?: ReadonlyMap<string, PreciseOutcome | undefined>;
}

const PYTHON_LANGUAGES = new Set(['python']);
const isPython = (f: ParsedFile) => PYTHON_LANGUAGES.has(f.language);

/**
 * Resolves a repository's references: TypeScript's checker for TS/JS and pyright for Python when the
 * settings say `precise` (the tree-sitter resolver answers first, the checkers whatever it cannot
 * pin, and the tree-sitter resolver alone every other language), keeping each repository's compiler
 * state between runs so re-indexing stays incremental.
 *
 * The TS checker runs on a thread of its own (TsChecker), pyright in a process of its own
 * (PyChecker). The fast resolver runs on this one in passes: each pass collects the references it
 * would ask the checkers about, the checkers answer them all at once, and the next pass uses the
 * answers; a pass that asks nothing new is the result, exactly what asking one reference at a time
 * gives (answers depend only on the reference). Two passes usually do: answers about base classes
 * can lead to new questions.
 */
@Injectable()
export class ReferenceResolver implements OnModuleDestroy {
  private readonly logger = new Logger(ReferenceResolver.name);
  private checker: TsChecker;
  /** The checker this resolver made (and closes); one given by useChecker belongs to the caller. */
  private own?: TsChecker;
  private py: PyChecker;
  private ownPy?: PyChecker;
  private warnedNoPyright = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.checker = this.own = new TsChecker(config.ingest.tsPreciseMaxFiles, config.ingest.parseThreads > 0);
    this.py = this.ownPy = new PyChecker({
      maxFiles: config.ingest.pyPreciseMaxFiles,
      maxHeapMb: config.ingest.pyPreciseMaxHeapMb,
      tyMaxRssMb: config.ingest.pyTyMaxRssMb,
      environment: config.ingest.pyEnv,
      checker: config.ingest.pyChecker,
      tyBinary: config.ingest.pyTyPath,
      requestTimeoutMs: config.ingest.pyPreciseTimeoutMs,
      startTimeoutMs: config.ingest.pyPreciseStartTimeoutMs,
      maxProcesses: config.ingest.pyPreciseMaxProcesses,
      idleMs: config.ingest.pyPreciseIdleMs,
    });
  }

  /** Uses another checker (shared by several resolvers; a test's compiled thread entry). */
  async useChecker(checker: TsChecker): Promise<void> {
    await this.own?.close();
    this.own = undefined;
    this.checker = checker;
  }

  /** Uses another Python checker (shared by several resolvers; a test's missing installation). */
  async usePyChecker(checker: PyChecker): Promise<void> {
    await this.ownPy?.close();
    this.ownPy = undefined;
    this.py = checker;
  }

  /** Whether the checker runs on its own thread. */
  get checkerThreaded(): boolean {
    return this.checker.threaded;
  }

  /** Lets the checkers build a repository's program from disk while its files are being parsed. */
  prepare(repoId: string, rootPath: string, paths: string[]): void {
    if (this.config.ingest.tsResolver === 'precise') this.checker.prepare(repoId, rootPath, paths);
    this.preparePython(repoId, rootPath, paths);
  }

  /**
   * Pyright alone (a Python file changed, no TS/JS one). Not pyright when its questions wait for a
   * phase of their own: its start-up and stubs would compete with the parse for the CPU. ty is
   * started either way: its start-up and stubs cost ~0.1 s of CPU, which a small repository otherwise
   * waits for after its graph is written.
   */
  preparePython(repoId: string, rootPath: string, paths: string[]): void {
    if (this.config.ingest.pyResolver === 'precise' && (!this.defersPython || this.py.checker === 'ty')) this.py.prepare(repoId, rootPath, paths.filter((p) => languageForPath(p) === 'python'));
  }

  /**
   * What a repository's resolution depends on besides its parsed files: the resolver settings, the
   * compiler options and module roots from its tsconfig/jsconfig (or inferred ones), and the
   * resolver's own code (a new build resolves every file once).
   */
  contextKey(rootPath: string, paths: readonly string[] = []): string {
    const { options } = tsProjectOptions(rootPath);
    return createHash('sha256')
      // The Python checker that answers is part of it: edges stored from pyright are not ty's, so a
      // switch of checker (or its default) re-resolves every file rather than mixing the two.
      .update(JSON.stringify([this.config.ingest.tsResolver, this.pyResolverInEffect(), this.pyResolverInEffect() === 'precise' ? this.py.checker : null, options, fastModuleOptions(rootPath, options), readManifests(rootPath, paths), rootPackageName(rootPath, paths) ?? null]))
      .update(resolverCodeHash())
      .digest('hex');
  }

  /** The Python checker's phase: INGEST_PY_PRECISE_PHASE, else the default of the checker that answers. */
  get pyPhase(): 'deferred' | 'inline' {
    return this.config.ingest.pyPrecisePhase ?? defaultPyPhase(this.py.checker);
  }

  /** The deferred phase with a Python checker in effect: index runs ask it after the graph is written. */
  get defersPython(): boolean {
    return this.pyPhase === 'deferred' && this.pyResolverInEffect() === 'precise';
  }

  /** `only`: resolve just these files' references (see ResolveOptions.only). */
  async resolve(
    repoId: string,
    rootPath: string,
    files: ParsedFile[],
    only?: ReadonlySet<string>,
    /** `scip`: an imported SCIP index's answers; `collectOutcomes` (benchmarks): per-reference outcomes; `spilled`: the references, when not on `files`. */
    extra: Pick<ResolveOptions, 'collectOutcomes' | 'scip' | 'spilled'> = {},
    phase: ResolvePhase = {},
  ): Promise<ResolveRun> {
    const paths = files.map((f) => f.path);
    const rootPackage = rootPackageName(rootPath, paths);
    const modules = {
      ...fastModuleOptions(rootPath, tsProjectOptions(rootPath).options),
      manifests: readManifests(rootPath, paths),
      ...(rootPackage ? { pythonRootPackage: rootPackage } : {}),
      ...(only ? { only } : {}),
      ...extra,
    };
    const ts = this.config.ingest.tsResolver === 'precise';
    const pyFiles = files.filter(isPython);
    const pyResolver = this.pyResolverInEffect();
    // Asked for but not installed: the checker's run says why it was skipped, in every index result.
    const pyWanted = this.config.ingest.pyResolver === 'precise' && pyFiles.length > 0;
    // Pyright will not answer (not installed, or over INGEST_PY_PRECISE_MAX_FILES): no question is
    // collected for it (at a million scopes they held ~1 GiB and cost a second resolution pass); its
    // open() says why, in the run's result.
    const pySkipped = pyWanted && !this.pyPreciseForCount(pyFiles.length) ? await this.py.open(repoId, rootPath, pyFiles) : undefined;
    if (pySkipped?.skipped) this.warnPy(repoId, pySkipped.skipped);
    const py = pyWanted && !pySkipped;
    const defer = py && phase.deferPython === true;
    const tsResolver: Exclude<ResolverName, 'scip'> = ts ? 'precise' : 'fast';
    const skippedStats = pySkipped ? { ...pySkipped, asked: 0, answered: 0, ms: 0 } : undefined;
    if (!ts && !py) return { result: resolveRepository(files, modules), tsResolver, pyResolver: pySkipped ? 'fast' : pyResolver, ...(skippedStats ? { pyPrecise: skippedStats } : {}) };
    const preciseFamilies = new Set<string>([...(ts ? ['js'] : []), ...(py ? ['py'] : [])]);
    const open = () => {
      const opening = this.checker.open(repoId, rootPath, files.filter(isJsFamily).map(checkerFile));
      opening.catch(() => undefined);
      return opening;
    };
    const openPy = () => this.py.open(repoId, rootPath, pyFiles);
    // Resolving only some files, the checkers are opened only if asked something (answers depend on
    // the reference and the program alone, so when it is opened makes no difference to them).
    // A later phase (seeded) asks the TS checker only what the first did not: it is opened if asked.
    let opened = ts && !only && !phase.seed ? open() : undefined;
    let openedPy = py && !defer && !only ? openPy() : undefined;
    let pyStats: ResolveRun['pyPrecise'] = skippedStats;
    let stats: PreciseRunStats | undefined;
    const answers = new Map<string, PreciseOutcome | undefined>(phase.seed ?? []);
    const deferred = new Set<string>();
    for (let passes = 1; ; passes++) {
      const asked = new Map<string, CheckerQuery>();
      const oracle = {
        resolve(ref: RawReference, file: ParsedFile): PreciseOutcome | undefined {
          const key = queryKey(file.path, ref);
          if (answers.has(key)) return answers.get(key);
          asked.set(key, { path: file.path, ref });
          return undefined;
        },
      };
      // The first pass runs while the checkers build their programs.
      const result = resolveRepository(files, { ...modules, precise: oracle, preciseFamilies });
      const done = (): ResolveRun => ({
        result,
        tsResolver,
        ...(stats ? { precise: { ...stats, passes } } : {}),
        pyResolver: pyStats && !pyStats.skipped ? 'precise' : 'fast',
        ...(pyStats ? { pyPrecise: pyStats } : {}),
        ...(defer ? { pyDeferred: { questions: deferred.size, answers: new Map([...answers].filter(([k]) => !deferred.has(k))) } } : {}),
      });
      if (asked.size === 0) {
        if (opened) stats = await opened;
        return done();
      }
      const jsAsked: [string, CheckerQuery][] = [];
      const pyAsked: [string, CheckerQuery][] = [];
      for (const entry of asked) (familyOf(languageForPath(entry[1].path) ?? 'sql') === 'py' ? pyAsked : jsAsked).push(entry);
      if (defer) {
        // No answer now (the fast resolver's stands), and not asked again this run.
        for (const [key] of pyAsked) {
          deferred.add(key);
          answers.set(key, undefined);
        }
        pyAsked.length = 0;
      }
      const jsAnswers = (async () => {
        if (!jsAsked.length) return [];
        stats = await (opened ??= open());
        if (passes === 1 && stats.skipped) this.logger.warn(`${repoId}: precise TS resolver skipped (${stats.skipped}); fast resolver only`);
        return stats.skipped ? [] : this.checker.answer(repoId, jsAsked.map(([, q]) => q));
      })();
      const pyAnswers = (async () => {
        if (!pyAsked.length) return [];
        const t = performance.now();
        const run = await (openedPy ??= openPy());
        pyStats ??= { ...run, asked: 0, answered: 0, ms: 0 };
        if (run.skipped) {
          if (passes === 1) this.warnPy(repoId, run.skipped);
          return [];
        }
        const out = await this.py.answer(repoId, pyAsked.map(([, q]) => q));
        const failed = this.py.failure(repoId);
        if (failed) {
          pyStats.failed = failed;
          // ty stopped at its memory cap: the run fell back to the fast resolver, said where the checker's choice is.
          const capped = this.py.memoryCapped(repoId);
          if (capped) pyStats.fallback = `${capped}: the fast resolver answers the rest`;
          this.logger.warn(`${repoId}: ${this.py.checker} given up (${failed}); the fast resolver answers the rest of this run`);
        }
        pyStats.asked += out.length;
        pyStats.answered += out.filter((o) => o !== undefined).length;
        pyStats.ms += Math.round(performance.now() - t);
        pyStats.peakMb = this.py.peakMb(repoId) ?? pyStats.peakMb;
        pyStats.cpuMs = this.py.cpuMs(repoId) ?? pyStats.cpuMs;
        return out;
      })();
      const [a, b] = await Promise.all([jsAnswers, pyAnswers]);
      // No answer (a skipped checker included) is an answer too: it is not asked again.
      jsAsked.forEach(([key], i) => answers.set(key, a[i]));
      pyAsked.forEach(([key], i) => answers.set(key, b[i]));
    }
  }

  /** The Python resolver in effect: `precise` needs pyright installed (else fast, with a warning). */
  /**
   * Whether pyright answers this repository's Python references: in effect, and the repository within
   * INGEST_PY_PRECISE_MAX_FILES (over it the fast resolver's edges stand, so an edit need not
   * re-resolve every file as a checker inferring types from bodies would).
   */
  pyPreciseFor(files: readonly ParsedFile[]): boolean {
    return this.pyPreciseForCount(files.filter(isPython).length);
  }

  private pyPreciseForCount(pythonFiles: number): boolean {
    return this.pyResolverInEffect() === 'precise' && pythonFiles <= this.py.maxFiles;
  }

  pyResolverInEffect(): Exclude<ResolverName, 'scip'> {
    if (this.config.ingest.pyResolver !== 'precise') return 'fast';
    if (this.py.available) return 'precise';
    this.warnPy('', 'pyright is not installed (npm install pyright)');
    return 'fast';
  }

  private warnPy(repoId: string, why: string): void {
    if (why.includes('not installed')) {
      if (this.warnedNoPyright) return;
      this.warnedNoPyright = true;
      this.logger.warn(`INGEST_PY_RESOLVER=precise but ${why}: Python references are resolved fast only`);
      return;
    }
    this.logger.warn(`${repoId}: precise Python resolver skipped (${why}); fast resolver only`);
  }

  forget(repoId: string): void {
    this.checker.forget(repoId);
    this.py.forget(repoId);
  }

  async onModuleDestroy(): Promise<void> {
    await this.own?.close();
    await this.ownPy?.close();
  }
}

/** Manifests larger than this are not project descriptions (go.mod, composer.json...): skipped. */
const MAX_MANIFEST_BYTES = 1 << 20;

/**
 * The language plugins' manifest files (LanguagePlugin.manifests) that govern these paths: each such
 * name in the directory of a file of the plugin's family or in any ancestor up to the root, by
 * repo-relative path.
 */
export function readManifests(rootPath: string, paths: readonly string[]): Record<string, string> {
  const names = manifestNames();
  const out: Record<string, string> = {};
  if (!names.size) return out;
  const seen = new Set<string>();
  for (const p of paths) {
    const lang = languageForPath(p);
    const wanted = lang ? names.get(familyOf(lang)) : undefined;
    if (!wanted) continue;
    for (let dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : ''; ; dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '') {
      for (const name of wanted) {
        const rel = dir ? `${dir}/${name}` : name;
        if (seen.has(rel)) continue;
        seen.add(rel);
        try {
          const abs = path.join(rootPath, rel);
          const st = fs.statSync(abs);
          if (st.isFile() && st.size <= MAX_MANIFEST_BYTES) out[rel] = fs.readFileSync(abs, 'utf8');
        } catch {
          // absent: nothing to read
        }
      }
      if (!dir) break;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

let codeHash: string | undefined;

/** A hash of the resolution code and the language plugins' (compiled or TypeScript sources, whichever runs), computed once. */
function resolverCodeHash(): string {
  if (codeHash) return codeHash;
  const h = createHash('sha256');
  const add = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) add(file);
      else if (/\.[jt]s$/.test(e.name) && !/\.spec\.[jt]s$/.test(e.name)) h.update(e.name).update(fs.readFileSync(file));
    }
  };
  add(__dirname);
  add(path.join(__dirname, '../languages'));
  return (codeHash = h.digest('hex'));
}

/** What the checker's answer about a reference depends on (see TsOracle.resolve). */
function queryKey(path: string, ref: RawReference): string {
  return `${path}\u0000${ref.kind}\u0000${ref.line}\u0000${ref.targetName}\u0000${ref.targetLanguage ?? ''}`;
}
