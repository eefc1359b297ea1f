import * as path from 'node:path';
import type { ParsedScope, RawReference } from '../../parse/types';
import type { PreciseOutcome } from '../../resolve/types';

/** A zero-based LSP position (character in UTF-16 code units, as JavaScript strings count). */
export interface LspPosition {
  line: number;
  character: number;
}

/** A definition location as the language server reports it, converted to a file path. */
export interface DefinitionSite {
  file: string;
  line: number;
  character: number;
}

/** A file's text with the offset of each line start. */
export class SourceLines {
  readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  line(n: number): string {
    const end = n + 1 < this.starts.length ? this.starts[n + 1] - 1 : this.text.length;
    return this.text.slice(this.starts[n] ?? this.text.length, end);
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the checker should look for a reference the tree-sitter extractor recorded as a dotted name
 * on a line: the last name of the chain (`m` of `self.x.m(...)`), found again in the text from that
 * line on (a chain may continue on the next lines inside brackets). `super.m` is written
 * `super().m` or `super(Cls, self).m`. Undefined when the text does not hold the chain there.
 */
export function sitePosition(src: SourceLines, ref: RawReference): LspPosition | undefined {
  const lineIdx = ref.line - 1;
  if (lineIdx < 0 || lineIdx >= src.starts.length) return undefined;
  const parts = ref.targetName.split('.');
  const pieces = parts.map((p, i) => (i === 0 && p === 'super' && parts.length > 1 ? 'super\\s*\\([^()]*\\)' : escape(p)));
  pieces[pieces.length - 1] = `(${pieces[pieces.length - 1]})`;
  const re = new RegExp(`(?<![\\p{L}\\p{N}_.])${pieces.join('\\s*\\.\\s*')}(?![\\p{L}\\p{N}_])`, 'dgu');
  re.lastIndex = src.starts[lineIdx];
  const m = re.exec(src.text);
  const nextLine = src.starts[lineIdx + 1] ?? Number.MAX_SAFE_INTEGER;
  if (!m || m.index >= nextLine || !m.indices?.[1]) return undefined;
  const at = m.indices[1][0];
  const line = src.lineOf(at);
  return { line, character: at - src.starts[line] };
}

const IMPORT_LINE = /^\s*(from\s+\S+\s+)?import\b/;
const FUNCTION_KINDS = new Set(['function', 'method', 'constructor']);

/**
 * A checker's bundled standard library stubs: pyright's `typeshed-fallback/stdlib/`, ty's copy it
 * unpacks to `<cache>/ty/vendored/typeshed/<commit>/stdlib/`.
 */
const STDLIB_STUBS = /[\\/]typeshed(?:-fallback|[\\/][0-9a-f]{7,})[\\/]stdlib[\\/]/;

/**
 * What the checker's definitions of one reference denote, as scopes of the repository:
 * - a declaration in a repository file: the innermost scope of that name spanning its line;
 * - a declaration there without a scope of its own: a parameter or local inside a function
 *   (`local`), an import of something the checker could not follow (`external`), or an attribute
 *   or module variable holding a value (`dynamic`: what runs is decided at run time);
 * - the checker's bundled standard library stubs (STDLIB_STUBS): `builtin`; anywhere else (site-packages): `external`.
 * Only calls get `local` / `dynamic`: a type annotation naming a module variable (a type alias, a
 * TypeVar) has no scope to point at, and is not a value whose run-time content decides anything.
 * Undefined when there are no definitions.
 */
export function outcomeOfDefinitions(
  kind: RawReference['kind'],
  defs: DefinitionSite[],
  root: string,
  scopesOf: (rel: string) => ParsedScope[] | undefined,
  linesOf: (rel: string) => SourceLines | undefined,
): PreciseOutcome | undefined {
  const ids = new Set<string>();
  const reasons = new Set<'external' | 'builtin' | 'local' | 'dynamic'>();
  for (const d of defs) {
    const rel = path.relative(root, d.file).split(path.sep).join('/');
    const scopes = rel.startsWith('..') || path.isAbsolute(rel) ? undefined : scopesOf(rel);
    if (!scopes) {
      reasons.add(STDLIB_STUBS.test(d.file) ? 'builtin' : 'external');
      continue;
    }
    const src = linesOf(rel);
    const text = src?.line(d.line) ?? '';
    const name = /^[\p{L}\p{N}_]+/u.exec(text.slice(d.character))?.[0];
    const line1 = d.line + 1;
    let best: ParsedScope | undefined;
    let inFunction = false;
    for (const s of scopes) {
      if (s.kind === 'file' || s.startLine > line1 || s.endLine < line1) continue;
      if (FUNCTION_KINDS.has(s.kind)) inFunction = true;
      if (s.name !== name) continue;
      if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
    }
    if (best) ids.add(best.id);
    else if (IMPORT_LINE.test(text)) reasons.add('external');
    else if (kind !== 'CALLS') continue;
    else if (inFunction && !/^\s*(self|cls)\s*\./.test(text)) reasons.add('local');
    else if (name) reasons.add('dynamic');
  }
  if (ids.size) return { targetIds: [...ids] };
  for (const r of ['external', 'builtin', 'local', 'dynamic'] as const) if (reasons.has(r)) return { reason: r };
  return undefined;
}
