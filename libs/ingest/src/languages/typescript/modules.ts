import { dirname, joinPath, ModuleTarget, packageName } from '../../resolve/module-resolver';
import type { ResolveOptions } from '../../resolve/types';

const TS_EXTS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

/**
 * TS/JS module resolution over the set of parsed paths: relative and rooted specifiers (`./x` ->
 * x.ts/x.tsx/x.js/x/index.ts..., `.js` specifiers mapped to `.ts`), then tsconfig `paths` and `baseUrl`s
 * (ResolveOptions.tsPaths / tsBaseUrls); anything else is the package it names.
 */
export class TsModuleResolver {
  constructor(private readonly paths: ReadonlySet<string>, private readonly opts: ResolveOptions = {}) {}

  resolve(fromPath: string, spec: string): ModuleTarget {
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const base = spec.startsWith('/') ? joinPath(spec) : joinPath(dirname(fromPath), spec);
      const hit = this.tryTsFile(base);
      return hit ? { kind: 'file', path: hit } : { kind: 'missing' };
    }
    for (const [pattern, targets] of Object.entries(this.opts.tsPaths ?? {})) {
      const star = pattern.indexOf('*');
      let rest: string | null = null;
      if (star === -1) rest = spec === pattern ? '' : null;
      else {
        const pre = pattern.slice(0, star);
        const post = pattern.slice(star + 1);
        if (spec.startsWith(pre) && spec.endsWith(post) && spec.length >= pre.length + post.length) {
          rest = spec.slice(pre.length, spec.length - post.length);
        }
      }
      if (rest === null) continue;
      for (const t of targets) {
        const hit = this.tryTsFile(joinPath(t.replace('*', rest)));
        if (hit) return { kind: 'file', path: hit };
      }
    }
    for (const root of this.opts.tsBaseUrls ?? []) {
      const hit = this.tryTsFile(joinPath(root, spec));
      if (hit) return { kind: 'file', path: hit };
    }
    return { kind: 'external', name: packageName(spec) };
  }

  private tryTsFile(base: string): string | null {
    if (this.paths.has(base) && /\.(?:[cm]?[jt]sx?)$/.test(base)) return base;
    const m = /\.(?:jsx?|mjs|cjs)$/.exec(base);
    if (m) {
      const stem = base.slice(0, -m[0].length);
      for (const e of JS_TO_TS[m[0]] ?? []) if (this.paths.has(stem + e)) return stem + e;
    }
    for (const e of TS_EXTS) if (this.paths.has(base + e)) return base + e;
    for (const e of TS_EXTS) if (this.paths.has(`${base}/index${e}`)) return `${base}/index${e}`;
    return null;
  }
}
