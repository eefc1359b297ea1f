/**
 * Path helpers every language's module resolution shares (repo-relative, `/`-separated paths). Each
 * language's own module rules live in its plugin folder (languages/<lang>/).
 */

/** Result of resolving an import specifier. */
export type ModuleTarget =
  | { kind: 'file'; path: string }
  | { kind: 'external'; name: string }
  | { kind: 'missing' }
  /** Python package directory without `__init__.py` (namespace package). */
  | { kind: 'dir'; path: string };

export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i === -1 ? '' : p.slice(0, i);
}

/** Join and normalise `.`/`..` segments; never escapes above the repo root. */
export function joinPath(...parts: string[]): string {
  const out: string[] = [];
  for (const part of parts) {
    for (const seg of part.split('/')) {
      if (!seg || seg === '.') continue;
      if (seg === '..') out.pop();
      else out.push(seg);
    }
  }
  return out.join('/');
}

/** `@scope/pkg/sub` -> `@scope/pkg`, `lodash/fp` -> `lodash`, `node:fs/promises` -> `node:fs`. */
export function packageName(spec: string): string {
  const parts = spec.split('/');
  if (spec.startsWith('@') && parts.length >= 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}
