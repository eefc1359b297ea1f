import type { ParsedScope, RawReference } from '../parse/types';
import { familyOf } from '../languages';
import type { FileEnv } from './resolver-context';
import { FUNCTION_LIKE } from './resolver-context';
import type { SymbolTable } from './symbol-table';
import type { UnresolvedReason } from './types';

const CALLABLE_MEMBER = new Set(['method', 'function', 'constructor', 'property']);
const MODIFIERS = /^(?:public|private|protected|readonly|override|declare|const|var|let|mut|ref|out|in|params|final|this)\s+/;

/**
 * Second thoughts on the name-based resolver's misses, by rules that hold in any language:
 * - a call of a parameter (`cb()`, `onError()` destructured from the parameters), or of a member no
 *   scope of the repository declares on a parameter whose declared type the resolver could not follow
 *   (`opts.onError()` with `opts: { onError?: (e) => void }` or a generic options type), goes through a
 *   function value the caller passed: `dynamic`, not a miss. An untyped parameter's member stays
 *   `unknown-receiver` (its type is unknown, not its target dynamic);
 * - an `external` name says where it comes from (the package its import names).
 * Misses of the compiler or a SCIP index are theirs and are left alone.
 */
export class UnresolvedReasons {
  private memberNames?: Set<string>;
  private readonly params = new Map<string, Map<string, boolean>>();

  constructor(private readonly t: SymbolTable, private readonly envs: ReadonlyMap<string, FileEnv>) {}

  refine(r: RawReference, reason: UnresolvedReason): { reason: UnresolvedReason; origin?: string } {
    const from = this.t.scopes.get(r.fromId);
    if (!from) return { reason };
    const parts = r.targetName.split(/\.|::|->/);
    const head = parts[0];
    if (reason === 'external') {
      const imp = this.envs.get(from.path)?.imported.get(head);
      return imp && imp.target.kind === 'external' ? { reason, origin: imp.target.name } : { reason };
    }
    if (r.kind !== 'CALLS' || (reason !== 'not-found' && reason !== 'unknown-receiver')) return { reason };
    const param = this.parameter(head, from);
    if (param === undefined) return { reason };
    if (parts.length === 1) return { reason: 'dynamic' };
    return !param.typed || this.declaredAsMember(parts[parts.length - 1]) ? { reason } : { reason: 'dynamic' };
  }

  /** `name` as a parameter of `from` or of a function scope enclosing it (read from their signatures). */
  private parameter(name: string, from: ParsedScope): { typed: boolean } | undefined {
    if (name === 'self' || name === 'this' || name === 'cls') return undefined;
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.t.parent(s)) {
      if (FUNCTION_LIKE.has(s.kind) || s.kind === 'variable') {
        let names = this.params.get(s.id);
        if (!names) this.params.set(s.id, (names = parameterNames(s.signature ?? '')));
        const typed = names.get(name);
        if (typed !== undefined) return { typed };
      }
    }
    return undefined;
  }

  private declaredAsMember(name: string): boolean {
    if (!this.memberNames) {
      this.memberNames = new Set();
      for (const s of this.t.scopes.values()) if (CALLABLE_MEMBER.has(s.kind) && familyOf(s.language)) this.memberNames.add(s.name);
    }
    return this.memberNames.has(name);
  }
}

/**
 * The names a declaration header binds as parameters, each with whether a type is written for it:
 * `f(a: A, { onError, retry }: Opts, ...rest)`, `def f(self, opts, *args, **kw)`, `go(Logger $log, $any)`,
 * `func (s *S) F(ctx context.Context, cb func())`. The first parenthesised list after the name (Go
 * receivers included, harmlessly); every identifier before a default value counts (a written type's
 * names too, harmlessly).
 */
export function parameterNames(signature: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const open = signature.indexOf('(');
  if (open < 0) return out;
  let depth = 0;
  let part = '';
  const parts: string[] = [];
  for (let i = open + 1; i < signature.length; i++) {
    const c = signature[i];
    if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c) && !(c === '>' && signature[i - 1] === '=')) {
      if (depth === 0 && c === ')') break;
      depth--;
    } else if (c === ',' && depth === 0) {
      parts.push(part);
      part = '';
      continue;
    }
    part += c;
  }
  parts.push(part);
  for (let p of parts) {
    p = p.trim().replace(/^@\w+(\([^)]*\))?\s*/, '');
    while (MODIFIERS.test(p)) p = p.replace(MODIFIERS, '');
    p = p.replace(/^(\.\.\.|\*\*|\*|&)/, '');
    if (p.startsWith('{') || p.startsWith('[')) {
      // Destructured: every name bound inside the pattern (`{ a: alias }` binds alias; `a` harmlessly too).
      const close = p.indexOf(p[0] === '{' ? '}' : ']');
      for (const m of p.slice(1, close < 0 ? undefined : close).matchAll(/[A-Za-z_$][\w$]*/g)) out.set(m[0], true);
      continue;
    }
    const head = p.split('=')[0];
    const colon = head.indexOf(':');
    const names = [...(colon < 0 ? head : head.slice(0, colon)).matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]);
    const typed = colon >= 0 || names.length > 1;
    for (const n of names) out.set(n, typed);
  }
  return out;
}
