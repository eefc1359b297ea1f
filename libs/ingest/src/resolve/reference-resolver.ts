import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { familyOf, languageForPath, manifestNames } from '../languages';
import type { ParsedFile, RawReference } from '../parse/types';
import { checkerFile, CheckerQuery, TsChecker } from '../languages/typescript/precise/ts-checker';
import { isJsFamily } from '../languages/typescript/precise/ts-oracle';
import { fastModuleOptions, tsProjectOptions } from '../languages/typescript/precise/ts-options';
import type { PreciseRunStats } from '../languages/typescript/precise/ts-project';
import { resolveRepository } from './resolver';
import type { PreciseOutcome, ResolveResult, ResolverName, ScipOracle } from './types';

export interface ResolveRun {
  result: ResolveResult;
  /** The TS/JS resolver setting this run used. */
  tsResolver: Exclude<ResolverName, 'scip'>;
  /** Set when the precise resolver was asked for. */
  precise?: PreciseRunStats & { passes: number };
}

/**
 * Resolves a repository's references: TypeScript's checker for TS/JS when the setting says
 * `precise` (the tree-sitter resolver answers whatever the checker cannot, and every other
 * language), keeping each repository's compiler state between runs so re-indexing stays incremental.
 *
 * The checker runs on a thread of its own (TsChecker). The fast resolver runs on this one in
 * passes: each pass collects the references it would ask the checker about, the checker answers
 * them all at once, and the next pass uses the answers; a pass that asks nothing new is the result,
 * exactly what asking the checker one reference at a time gives (answers depend only on the
 * reference). Two passes usually do: answers about base classes can lead to new questions.
 */
@Injectable()
export class ReferenceResolver implements OnModuleDestroy {
  private readonly logger = new Logger(ReferenceResolver.name);
  private checker: TsChecker;
  /** The checker this resolver made (and closes); one given by useChecker belongs to the caller. */
  private own?: TsChecker;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.checker = this.own = new TsChecker(config.ingest.tsPreciseMaxFiles, config.ingest.parseThreads > 0);
  }

  /** Uses another checker (shared by several resolvers; a test's compiled thread entry). */
  async useChecker(checker: TsChecker): Promise<void> {
    await this.own?.close();
    this.own = undefined;
    this.checker = checker;
  }

  /** Whether the checker runs on its own thread. */
  get checkerThreaded(): boolean {
    return this.checker.threaded;
  }

  /** Lets the checker build a repository's program from disk while its files are being parsed. */
  prepare(repoId: string, rootPath: string, paths: string[]): void {
    if (this.config.ingest.tsResolver === 'precise') this.checker.prepare(repoId, rootPath, paths);
  }

  /**
   * What a repository's resolution depends on besides its parsed files: the resolver setting, the
   * compiler options and module roots from its tsconfig/jsconfig (or inferred ones), and the
   * resolver's own code (a new build resolves every file once).
   */
  contextKey(rootPath: string, paths: readonly string[] = []): string {
    const { options } = tsProjectOptions(rootPath);
    return createHash('sha256')
      .update(JSON.stringify([this.config.ingest.tsResolver, options, fastModuleOptions(rootPath, options), readManifests(rootPath, paths)]))
      .update(resolverCodeHash())
      .digest('hex');
  }

  /** `only`: resolve just these files' references (see ResolveOptions.only). */
  async resolve(repoId: string, rootPath: string, files: ParsedFile[], only?: ReadonlySet<string>, scip?: ScipOracle): Promise<ResolveRun> {
    const modules = {
      ...fastModuleOptions(rootPath, tsProjectOptions(rootPath).options),
      manifests: readManifests(rootPath, files.map((f) => f.path)),
      ...(only ? { only } : {}),
      ...(scip ? { scip } : {}),
    };
    if (this.config.ingest.tsResolver === 'fast') return { result: resolveRepository(files, modules), tsResolver: 'fast' };
    const open = () => {
      const opening = this.checker.open(repoId, rootPath, files.filter(isJsFamily).map(checkerFile));
      opening.catch(() => undefined);
      return opening;
    };
    // Resolving only some files, the checker is opened only if asked something (answers depend on
    // the reference and the program alone, so when it is opened makes no difference to them).
    let opened = only ? undefined : open();
    const answers = new Map<string, PreciseOutcome | undefined>();
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
      // The first pass runs while the checker builds its program.
      const result = resolveRepository(files, { ...modules, precise: oracle });
      if (!opened && asked.size === 0) return { result, tsResolver: 'precise' };
      const stats = await (opened ??= open());
      if (passes === 1 && stats.skipped) this.logger.warn(`${repoId}: precise TS resolver skipped (${stats.skipped}); fast resolver only`);
      if (asked.size === 0 || stats.skipped) return { result, tsResolver: 'precise', precise: { ...stats, passes } };
      const queries = [...asked.values()];
      const outcomes = await this.checker.answer(repoId, queries);
      [...asked.keys()].forEach((key, i) => answers.set(key, outcomes[i]));
    }
  }

  forget(repoId: string): void {
    this.checker.forget(repoId);
  }

  async onModuleDestroy(): Promise<void> {
    await this.own?.close();
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
