import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/** Where the compiler options came from: the repository's own config file, or inferred. */
export interface TsProjectOptions {
  options: ts.CompilerOptions;
  source: string;
}

/**
 * Options used when a repository has no tsconfig/jsconfig at its root: permissive module resolution
 * (`./x.js` finds x.ts, extensionless imports work) and JavaScript checked like TypeScript.
 */
const INFERRED: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  allowJs: true,
  checkJs: false,
  experimentalDecorators: true,
  lib: ['lib.es2022.d.ts'],
};

/** Forced on every program: nothing is emitted, and only the repository's files are read. */
const FORCED: ts.CompilerOptions = {
  noEmit: true,
  allowJs: true,
  skipLibCheck: true,
  types: [],
  // The host serves only parsed files: a project reference or composite build would point elsewhere.
  composite: false,
  incremental: false,
};

/**
 * Compiler options for a repository: its root tsconfig.json / jsconfig.json when present (extends
 * followed, paths and baseUrl kept), otherwise inferred ones.
 */
export function tsProjectOptions(rootPath: string | undefined): TsProjectOptions {
  if (rootPath) {
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const file = path.join(rootPath, name);
      if (!fs.existsSync(file)) continue;
      const read = ts.readConfigFile(file, ts.sys.readFile);
      if (read.error) continue;
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, rootPath, undefined, file);
      return { options: { ...parsed.options, ...FORCED }, source: name };
    }
  }
  return { options: { ...INFERRED, ...FORCED }, source: 'inferred' };
}

/**
 * The config's `paths` and `baseUrl` as repo-relative module roots for the fast resolver, so
 * `@app/x`-style imports resolve in both resolvers (not only in the compiler).
 */
export function fastModuleOptions(rootPath: string, options: ts.CompilerOptions): { tsPaths?: Record<string, string[]>; tsBaseUrls?: string[] } {
  const rel = (abs: string) => path.relative(rootPath, abs).split(path.sep).join('/');
  const out: { tsPaths?: Record<string, string[]>; tsBaseUrls?: string[] } = {};
  // `pathsBasePath` is set by the config parser when `paths` is given without `baseUrl`.
  const base = options.baseUrl ?? (options as { pathsBasePath?: string }).pathsBasePath ?? rootPath;
  if (options.paths) {
    out.tsPaths = Object.fromEntries(Object.entries(options.paths).map(([k, targets]) => [k, targets.map((t) => rel(path.resolve(base, t)))]));
  }
  if (options.baseUrl && !rel(options.baseUrl).startsWith('..')) out.tsBaseUrls = [rel(options.baseUrl)];
  return out;
}
