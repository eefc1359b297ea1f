import type { ParsedScope } from '../../parse/types';
import type { SymbolTable } from '../../resolve/symbol-table';
import { OVERLOAD_ARGS, OVERLOAD_PARAMS } from './extractor';

const PRIMITIVES = new Set(['byte', 'short', 'char', 'int', 'long', 'float', 'double', 'boolean']);
const BOXES: Record<string, string> = {
  byte: 'Byte', short: 'Short', char: 'Character', int: 'Integer', long: 'Long', float: 'Float', double: 'Double', boolean: 'Boolean',
};
/** JLS 5.1.2 widening primitive conversions. */
const WIDER: Record<string, readonly string[]> = {
  byte: ['short', 'int', 'long', 'float', 'double'],
  short: ['int', 'long', 'float', 'double'],
  char: ['int', 'long', 'float', 'double'],
  int: ['long', 'float', 'double'],
  long: ['float', 'double'],
  float: ['double'],
};
/** What a boxed primitive or a String may also be passed as. */
const BOXED_SUPERS = new Set(['Object', 'Number', 'Comparable', 'Serializable', 'Constable']);
const STRING_SUPERS = new Set(['Object', 'CharSequence', 'Comparable', 'Serializable', 'Constable']);
const ARRAY_SUPERS = new Set(['Object', 'Cloneable', 'Serializable']);

/**
 * How a repository type named as an argument relates to one named as a parameter of `callee`:
 * 2 the same type, 1 a subtype, 0 unrelated, undefined when either is not the repository's.
 */
export type Relate = (arg: string, param: string, callee: ParsedScope) => number | undefined;

/** 0: cannot be passed; 1: can (conversion or unknown); 2: same type. */
function compat(arg: string, param: string, relate?: (arg: string, param: string) => number | undefined): number {
  if (arg === '?' || param === '?') return 1;
  if (arg === param || simpleNames(arg) === simpleNames(param)) return 2;
  const related = relate?.(arg, param);
  if (related !== undefined) return related;
  if (/^[A-Z][A-Z0-9]?$/.test(param)) return 1; // most likely a type parameter of the callee's class
  if (arg === 'null') return PRIMITIVES.has(param) ? 0 : 1;
  const argPrim = PRIMITIVES.has(arg);
  const paramPrim = PRIMITIVES.has(param);
  if (argPrim && paramPrim) return WIDER[arg]?.includes(param) ? 1 : 0;
  if (paramPrim) return BOXES[param] === arg || Object.entries(BOXES).some(([p, b]) => b === arg && WIDER[p]?.includes(param)) ? 1 : 0;
  if (argPrim) return BOXES[arg] === param || BOXED_SUPERS.has(param) ? 1 : 0;
  if (param.endsWith('[]')) {
    if (!arg.endsWith('[]')) return 0;
    const a = arg.slice(0, -2);
    const p = param.slice(0, -2);
    return PRIMITIVES.has(a) || PRIMITIVES.has(p) ? (a === p ? 2 : 0) : compat(a, p, relate) ? 1 : 0;
  }
  if (arg.endsWith('[]')) return ARRAY_SUPERS.has(param) ? 1 : 0;
  if (arg === 'String') return STRING_SUPERS.has(param) ? 1 : 0;
  if (param === 'String') return 0; // String is final: only a String is one
  if (Object.values(BOXES).includes(arg)) return BOXED_SUPERS.has(param) ? 1 : 0;
  return 1;
}

/** `Connection.KeyVal` and `KeyVal` as written in two files: the same name for comparisons. */
export function simpleNames(types: string): string {
  return types.replace(/[\w$]+\./g, '');
}

function parseList(text: string): string[] {
  const inner = text.replace(/^\(/, '').replace(/\)$/, '');
  return inner ? inner.split(',') : [];
}

/**
 * How well one call's argument types fit a parameter list: 0 when they cannot, else the sum of the
 * arguments' fits plus one (same type counts more than a conversion or an unknown), less half for a
 * varargs expansion: Java's "most specific" choice needs the type hierarchy, this approximates it.
 */
function fit(params: string[], args: string[], relate?: (arg: string, param: string) => number | undefined): number {
  const varargs = params.length > 0 && params[params.length - 1].endsWith('...');
  const n = params.length;
  if (!varargs && args.length !== n) return 0;
  if (varargs && args.length < n - 1) return 0;
  let score = 1;
  let expanded = false;
  for (let i = 0; i < args.length; i++) {
    let p = params[Math.min(i, n - 1)];
    if (varargs && i >= n - 1) {
      const el = p.slice(0, -3);
      // the last argument may be the array itself
      const whole = args.length === n && args[i].endsWith('[]');
      p = whole ? `${el}[]` : el;
      expanded ||= !whole;
    }
    const c = compat(args[i], p, relate);
    if (!c) return 0;
    score += c;
  }
  return varargs && (expanded || args.length < n) ? score - 0.5 : score;
}

/** More overloads than this left by a call's arguments: the call is ambiguous, not a call to each. */
export const MAX_OVERLOAD_FANOUT = 3;

/**
 * Of the methods or constructors a call may name, the ones its argument types fit best (per call
 * site of that target in the calling scope; the union over them). Candidates with no parameter list
 * (a class without constructors) always stay; when nothing fits, all stay. A call site whose
 * arguments leave more than {@link MAX_OVERLOAD_FANOUT} overloads adds none; null when no site
 * decided (the reference is `ambiguous`).
 */
export function pickOverloads(
  t: SymbolTable, targets: ParsedScope[], from: ParsedScope, targetName: string, relate?: Relate,
): ParsedScope[] | null {
  if (targets.length < 2) return targets;
  const calls = t.localBindings.get(from.id)?.get(`${OVERLOAD_ARGS}${targetName}`);
  if (!calls) return targets.length > MAX_OVERLOAD_FANOUT ? null : targets;
  const params = targets.map((x) => {
    const p = t.localBindings.get(x.id)?.get(OVERLOAD_PARAMS);
    return p === undefined ? null : parseList(p);
  });
  const keep = new Set<number>();
  let undecided = false;
  for (const call of calls.split(';')) {
    const args = parseList(call);
    const scores = params.map((p, i) => (p ? fit(p, args, relate && ((a, q) => relate(a, q, targets[i]))) : 1));
    const best = Math.max(...scores);
    const picked = best === 0 ? targets.map((_, i) => i) : scores.flatMap((s, i) => (s === best ? [i] : []));
    if (picked.length > MAX_OVERLOAD_FANOUT) undecided = true;
    else for (const i of picked) keep.add(i);
  }
  if (!keep.size) return undecided ? null : targets;
  return targets.filter((_, i) => keep.has(i));
}

/**
 * Whether two parameter lists as written (`(String,int[],T...)`, a type parameter written `?`) are
 * the same signature for overriding (JLS 8.4.2, approximated): as many parameters, each the same type
 * by simple name, or a type parameter on either side; `X...` is `X[]`.
 */
export function sameParameters(a: string, b: string): boolean {
  const pa = parseList(a).map((p) => simpleNames(p.replace(/\.\.\.$/, '[]')));
  const pb = parseList(b).map((p) => simpleNames(p.replace(/\.\.\.$/, '[]')));
  return pa.length === pb.length && pa.every((p, i) => p === pb[i] || p.startsWith('?') || pb[i].startsWith('?'));
}
