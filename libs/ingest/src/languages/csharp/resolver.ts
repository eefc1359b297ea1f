import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { FamilyResolver, FileEnv, FUNCTION_LIKE, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { CLASS_LIKE, SymbolTable, TYPE_LIKE } from '../../resolve/symbol-table';
import { isCSharpBuiltin } from './builtins';
import { CS_EXTENDS, CS_NEW, CS_RESULT, CS_STATIC } from './extractor';

/** What a receiver expression's type is: in-repo types, a type from outside (named), or unknown. */
type CsType = { types: ParsedScope[] } | { ext: string } | null;
const MAX_TYPE_DEPTH = 8;
/**
 * Instance methods of System.String and System.Object: C# takes an instance method over an extension
 * of the same name, so an in-repo `StartsWith(this string s, char c)` is never what
 * `name.StartsWith("x", StringComparison.Ordinal)` calls (the call's arguments are not kept to tell).
 */
const STRING_OBJECT_METHODS = new Set([
  'Equals', 'GetHashCode', 'GetType', 'ToString', 'MemberwiseClone', 'CompareTo', 'Contains', 'EndsWith', 'StartsWith',
  'IndexOf', 'IndexOfAny', 'LastIndexOf', 'LastIndexOfAny', 'Insert', 'Remove', 'Replace', 'Split', 'Substring', 'ToLower',
  'ToLowerInvariant', 'ToUpper', 'ToUpperInvariant', 'Trim', 'TrimEnd', 'TrimStart', 'PadLeft', 'PadRight', 'Normalize',
  'ToCharArray', 'CopyTo', 'Clone', 'GetEnumerator', 'IsNormalized', 'GetTypeCode',
]);

/** What a C# file brings into scope. */
export interface CsUsings {
  usings: string[];
  aliases: Map<string, string>;
}

/**
 * C# type name lookup: nested types of the enclosing types, enclosing namespaces (innermost first),
 * fully qualified names, `using` namespaces (and static classes), then `using X = A.B.C;` aliases.
 * `findMember` follows a class's members and bases (resolved by the caller).
 */
export function csTypeLookup(
  t: SymbolTable, parts: string[], from: ParsedScope, env: CsUsings, findMember: (owners: ParsedScope[], name: string) => ParsedScope[],
): ParsedScope[] {
  const q = parts.join('.');
  // enclosing types (nested types, also inherited ones)
  for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = t.parent(s)) {
    if (CLASS_LIKE.has(s.kind)) {
      const hit = t.csTypes.get(`${s.qualifiedName}.${q}`);
      if (hit?.length) return hit;
    }
  }
  // enclosing namespaces, innermost first
  const ns = enclosingNamespace(t, from);
  if (ns) {
    const segs = ns.split('.');
    for (let i = segs.length; i >= 1; i--) {
      const hit = t.csTypes.get(`${segs.slice(0, i).join('.')}.${q}`);
      if (hit?.length) return hit;
    }
  }
  const global = t.csTypes.get(q);
  if (global?.length) return global;
  // using directives
  const found: ParsedScope[] = [];
  const names = new Set<string>();
  for (const u of env.usings) {
    const hit = t.csTypes.get(`${u}.${q}`) ?? (t.csTypes.has(u) ? findMember(t.csTypes.get(u)!, parts[0]).filter((m) => TYPE_LIKE.has(m.kind)) : undefined);
    if (hit?.length) {
      for (const h of hit) {
        found.push(h);
        names.add(h.qualifiedName);
      }
    }
  }
  if (found.length && names.size === 1) return found;
  // aliases: using X = A.B.C;
  const alias = env.aliases.get(parts[0]);
  if (alias) {
    const hit = t.csTypes.get([alias, ...parts.slice(1)].join('.'));
    if (hit?.length) return hit;
  }
  return [];
}

function enclosingNamespace(t: SymbolTable, s: ParsedScope): string | null {
  for (let p: ParsedScope | undefined = s; p; p = t.parent(p)) if (p.kind === 'namespace') return p.qualifiedName;
  return null;
}

/**
 * C#: `using` namespaces link a file to every file declaring them; names resolve through locals and
 * parameters, local functions, members of enclosing types (with bases), then types (longest
 * qualified prefix) and their static members.
 */
export class CSharpResolver implements FamilyResolver {
  constructor(private readonly c: ResolverContext) {}

  addImport(env: FileEnv, imp: RawImport): void {
    const ns = imp.specifier;
    const alias = imp.names.find((n) => n.local !== '*')?.local;
    if (alias) env.aliases.set(alias, ns);
    else env.usings.push(ns);
    const nsFiles = this.c.t.csNamespaceFiles.get(ns);
    if (nsFiles && nsFiles.size) {
      for (const p of [...nsFiles].sort()) if (p !== env.file.path) this.c.link(env, imp, { kind: 'file', path: p });
      return;
    }
    const types = this.c.t.csTypes.get(ns);
    if (types?.length) {
      if (imp.isStatic) env.usings.push(ns); // members of a static class become visible
      for (const p of new Set(types.map((t) => t.path))) if (p !== env.file.path) this.c.link(env, imp, { kind: 'file', path: p });
      return;
    }
    this.c.link(env, imp, { kind: 'external', name: ns });
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const out = this.byName(parts, from, env, kinds, wantType);
    if ('targets' in out) return this.instanceCall(parts, from, env, kinds, out.targets) ?? out;
    if (out.reason !== 'not-found' && out.reason !== 'unknown-receiver') {
      // a receiver of an outside type may still have an in-repo extension method
      if (wantType || parts.length < 2 || (out.reason !== 'builtin' && out.reason !== 'external')) return out;
      const recv = this.typeOf(parts.slice(0, -1), from, env, 0, false, false);
      const ext = recv ? this.extensionsFor(parts[parts.length - 1], from, env, 'ext' in recv ? recv.ext : recv.types, false) : [];
      if (!ext.length) return recv && 'ext' in recv && !out.origin ? { ...out, origin: recv.ext } : out;
      return this.c.finish(ext, kinds, out.reason);
    }
    if (wantType && parts.length === 1) return this.outside(parts[0], from) ? { reason: 'external', origin: parts[0] } : out;
    return this.byType(parts, from, env, kinds, out);
  }

  /**
   * `x.M()` on an instance (`this`, a local, a parameter, a field) never calls a static M: when every
   * target is static, an applicable extension method is meant (`this.IsNull()` beside a static
   * `IsNull(in NewReference r)`), or, without one, the call is left to the static targets.
   */
  private instanceCall(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, targets: ParsedScope[]): Outcome | null {
    if (parts.length !== 2 || !targets.every((t) => this.c.t.memberBindings.get(t.id)?.has(CS_STATIC))) return null;
    const head = parts[0];
    const instance = head === 'this' || this.c.localBinding(head, from) || this.enclosingClasses(from).some((k) => this.c.memberBinding([k], head));
    if (!instance) return null;
    const recv = this.typeOf([head], from, env, 0, false, false);
    const ext = recv ? this.extensionsFor(parts[1], from, env, 'ext' in recv ? recv.ext : recv.types, false) : [];
    return ext.length ? this.c.finish(ext, kinds, 'not-found') : null;
  }

  /**
   * A call the name walk missed, read through the receiver's type: locals typed by what they were
   * given (`var x = repo.Find(); x.Save()`), element types of `foreach`, extension methods, delegate
   * invocations (`dynamic`) and members of types from outside the repository (`external`).
   */
  private byType(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, missed: Outcome & { reason: string }): Outcome {
    const last = parts[parts.length - 1];
    if (parts.length === 1) {
      // calling a local, parameter, field or property is invoking a delegate
      if (this.c.localBinding(last, from) || this.enclosingClasses(from).some((k) => this.c.memberBinding([k], last))) return { reason: 'dynamic' };
      const ext = this.extensionsFor(last, from, env, null, true);
      if (ext.length) return this.c.finish(ext, kinds, 'not-found');
      if (this.c.t.localBindings.get(from.id)?.has(CS_NEW + last) && this.outside(last, from)) return { reason: 'external', origin: last };
      const outsideBase = this.enclosingClasses(from).find((k) => this.c.inheritsFromOutside(k));
      if (outsideBase) return { reason: 'external' };
      return missed;
    }
    const recv = this.typeOf(parts.slice(0, -1), from, env, 0, false, false);
    if (recv && 'types' in recv) {
      const members = this.c.findMember(recv.types, last).filter((m) => m.kind !== 'constructor');
      if (members.length) {
        const hit = this.c.finish(members, kinds, 'not-found');
        if ('targets' in hit) return hit;
      }
      if (this.c.memberBinding(recv.types, last)) return { reason: 'dynamic' };
      const ext = this.extensionsFor(last, from, env, recv.types, false);
      if (ext.length) return this.c.finish(ext, kinds, 'not-found');
      if (recv.types.some((t) => this.c.inheritsFromOutside(t))) return { reason: 'external' };
      return { reason: 'not-found' };
    }
    if (recv) {
      const ext = this.extensionsFor(last, from, env, recv.ext, false);
      if (ext.length) return this.c.finish(ext, kinds, 'not-found');
      return { reason: isCSharpBuiltin(recv.ext) ? 'builtin' : 'external', origin: recv.ext };
    }
    const ext = this.extensionsFor(last, from, env, null, true);
    if (ext.length) return this.c.finish(ext, kinds, 'not-found');
    return missed;
  }

  /** The type of `a.b.c` (`call`: of what `c()` returns; `elem`: of its elements), as far as declarations say. */
  private typeOf(parts: string[], from: ParsedScope, env: FileEnv, depth: number, call: boolean, elem: boolean): CsType {
    if (depth > MAX_TYPE_DEPTH || !parts.length) return null;
    const head = parts[0];
    let cur: CsType = null;
    let i = 1;
    const lastStep = (k: number) => k === parts.length - 1;
    const suffix = (k: number) => (lastStep(k) && elem ? '[]' : '');
    if (head === 'this' || head === 'base') {
      const cls = this.c.enclosingClass(from);
      if (!cls) return null;
      if (head === 'this') cur = { types: [cls] };
      else {
        const bases = this.c.t.partsOf(cls).flatMap((p) => this.c.extendsOf.get(p.id) ?? []);
        cur = bases.length ? { types: bases } : this.c.inheritsFromOutside(cls) ? { ext: '' } : null; // an outside base, unnamed
      }
      if (parts.length === 1) return elem || call ? null : cur;
    } else if (parts.length === 1 && call) {
      // `M()`: a local function or a method of the enclosing classes (with bases)
      for (let s: ParsedScope | undefined = from; s && s.kind !== 'namespace' && s.kind !== 'file'; s = this.c.t.parent(s)) {
        const fns = (FUNCTION_LIKE.has(s.kind) ? this.c.t.childrenNamed(s, head) : CLASS_LIKE.has(s.kind) ? this.c.findMember([s], head) : [])
          .filter((m) => m.kind === 'method' || m.kind === 'function');
        const withResult = fns.find((m) => this.c.t.memberBindings.get(m.id)?.get(CS_RESULT + suffix(0)));
        if (withResult) return this.bindingType(this.c.t.memberBindings.get(withResult.id)!.get(CS_RESULT + suffix(0))!, withResult, this.c.envs.get(withResult.path) ?? env, depth);
        if (fns.length) return null;
      }
      return null;
    } else {
      let local = this.c.localBinding(head + (parts.length === 1 ? suffix(0) : ''), from);
      if (!local && parts.length === 1 && elem) {
        // `var xs = Load(); foreach (var x in xs)`: the elements of what the initializer gives
        const init = this.c.localBinding(head, from);
        if (init?.startsWith('=') && !init.endsWith('[]')) local = `${init}[]`;
      }
      const ownerField = local ? null : this.memberOf(this.enclosingClasses(from), head + (parts.length === 1 ? suffix(0) : ''));
      if (local) cur = this.bindingType(local, from, env, depth);
      else if (ownerField) cur = ownerField;
      else {
        let found = false;
        for (let k = parts.length; k >= 1 && !found; k--) {
          const types = this.typesOf(parts.slice(0, k), from, env);
          if (types.length) {
            cur = { types };
            i = k;
            found = true;
          }
        }
        if (!found) {
          if (this.outside(head, from)) cur = { ext: head };
          else if (this.enclosingClasses(from).some((k) => this.c.inheritsFromOutside(k))) cur = { ext: head };
          else return null;
        }
      }
      // the elements of a type named alone are unknown
      if (parts.length === 1 && elem && cur && 'types' in cur && !local && !ownerField) return null;
    }
    for (; i < parts.length; i++) {
      if (!cur) return null;
      if ('ext' in cur) return cur;
      const name = parts[i];
      if (lastStep(i) && call) {
        const methods = this.c.findMember(cur.types, name).filter((m) => m.kind === 'method' || m.kind === 'function');
        const results = methods.map((m) => ({ m, tn: this.c.t.memberBindings.get(m.id)?.get(CS_RESULT + suffix(i)) })).filter((x) => x.tn);
        if (!results.length) return methods.length || !cur.types.some((t) => this.c.inheritsFromOutside(t)) ? null : { ext: name };
        const first = results[0];
        return this.bindingType(first.tn!, first.m, this.c.envs.get(first.m.path) ?? env, depth);
      }
      const field = this.memberOf(cur.types, name + suffix(i), depth);
      if (field) {
        cur = field;
        continue;
      }
      const nested = this.c.findMember(cur.types, name).filter((m) => TYPE_LIKE.has(m.kind));
      if (nested.length && !suffix(i)) {
        cur = { types: nested };
        continue;
      }
      return cur.types.some((t) => this.c.inheritsFromOutside(t)) ? { ext: name } : null;
    }
    return cur;
  }

  /** A field's or property's declared type, looked up in the owners and their bases, read in its own file. */
  private memberOf(owners: ParsedScope[], name: string, depth = 0): CsType {
    const seen = new Set<string>();
    let level = owners;
    for (let d = 0; d < 12 && level.length; d++) {
      const next: ParsedScope[] = [];
      for (const o of level) {
        for (const part of this.c.t.partsOf(o)) {
          if (seen.has(part.id)) continue;
          seen.add(part.id);
          const tn = this.c.t.memberBindings.get(part.id)?.get(name);
          if (tn) return this.bindingType(tn, part, this.c.envs.get(part.path), depth);
          next.push(...(this.c.extendsOf.get(part.id) ?? []), ...(this.c.implementsOf.get(part.id) ?? []));
        }
      }
      level = next;
    }
    return null;
  }

  /** A binding's type: a type name, or an expression (`=a.B()`, `=xs[]`) typed in `ctx`. */
  private bindingType(tn: string, ctx: ParsedScope, env: FileEnv | undefined, depth: number): CsType {
    if (!env || depth > MAX_TYPE_DEPTH) return null;
    if (tn.startsWith('=')) {
      let expr = tn.slice(1);
      const elem = expr.endsWith('[]');
      if (elem) expr = expr.slice(0, -2);
      const call = expr.endsWith('()');
      if (call) expr = expr.slice(0, -2);
      return this.typeOf(expr.split('.'), ctx, env, depth + 1, call, elem);
    }
    const types = this.typesOf(tn.split('.'), ctx, env);
    if (types.length) return { types };
    return this.outside(tn.split('.')[0], ctx) || isCSharpBuiltin(tn) ? { ext: tn } : null;
  }

  /** Is `name` a type (or namespace) that nothing in the repository declares, so from a using of outside code? */
  private outside(name: string, from: ParsedScope): boolean {
    if (!/^[A-Z]/.test(name)) return false;
    if (isCSharpBuiltin(name)) return true;
    if (this.inRepoNames().has(name)) return false;
    return !this.isTypeParam(name, from);
  }

  private isTypeParam(name: string, from: ParsedScope): boolean {
    // type parameters are not kept on parsed scopes: a lone capital or T-prefixed name is read as one
    return /^T(?:[A-Z][a-z]*)?$/.test(name) && name.length <= 12 && !!from;
  }

  private namesCache: Set<string> | null = null;
  private inRepoNames(): Set<string> {
    if (!this.namesCache) {
      this.namesCache = new Set();
      for (const q of this.c.t.csTypes.keys()) this.namesCache.add(q.slice(q.lastIndexOf('.') + 1));
      for (const q of this.c.t.csNamespaceFiles.keys()) for (const seg of q.split('.')) this.namesCache.add(seg);
    }
    return this.namesCache;
  }

  private extCache: Map<string, ParsedScope[]> | null = null;
  /**
   * In-repo extension methods named `name` visible in `from`'s file (its namespaces and usings) that
   * apply to the receiver: its in-repo types (and their bases), an outside type by name, or, when the
   * receiver is unknown, only when every candidate is in one class.
   */
  private extensionsFor(name: string, from: ParsedScope, env: FileEnv, recv: ParsedScope[] | string | null, unknown: boolean): ParsedScope[] {
    if (!this.extCache) {
      this.extCache = new Map();
      for (const [id, m] of this.c.t.memberBindings) {
        if (!m.has(CS_EXTENDS)) continue;
        const s = this.c.t.scopes.get(id);
        if (s?.language === 'csharp' && s.kind === 'method') {
          const l = this.extCache.get(s.name);
          if (l) l.push(s);
          else this.extCache.set(s.name, [s]);
        }
      }
    }
    const all = this.extCache.get(name);
    if (!all) return [];
    const here = enclosingNamespace(this.c.t, from) ?? '';
    const visible = all.filter((m) => {
      const ns = enclosingNamespace(this.c.t, m) ?? '';
      return ns === '' || here === ns || here.startsWith(`${ns}.`) || env.usings.includes(ns);
    });
    if (!visible.length) return [];
    // an unknown receiver may be any in-repo type with an instance method of that name
    if (unknown) return new Set(visible.map((m) => m.parentId)).size === 1 && !this.instanceMethodNames().has(name) ? visible : [];
    const accepts = new Set(STRING_OBJECT_METHODS.has(name) ? [] : ['object', 'Object']);
    if (typeof recv === 'string') {
      const simple = recv.slice(recv.lastIndexOf('.') + 1);
      if (!STRING_OBJECT_METHODS.has(name) || !/^(?:string|String|object|Object)$/.test(simple)) accepts.add(simple);
    }
    else if (recv) for (const t of this.ancestors(recv)) accepts.add(t.name);
    return visible.filter((m) => {
      const tn = this.c.t.memberBindings.get(m.id)!.get(CS_EXTENDS)!;
      return accepts.has(tn.slice(tn.lastIndexOf('.') + 1));
    });
  }

  private methodNames: Set<string> | null = null;
  private instanceMethodNames(): Set<string> {
    if (!this.methodNames) {
      this.methodNames = new Set();
      for (const s of this.c.t.scopes.values()) {
        if (s.language !== 'csharp' || s.kind !== 'method') continue;
        const b = this.c.t.memberBindings.get(s.id);
        if (!b?.has(CS_STATIC)) this.methodNames.add(s.name);
      }
    }
    return this.methodNames;
  }

  private ancestors(types: ParsedScope[]): ParsedScope[] {
    const seen = new Map<string, ParsedScope>();
    const stack = [...types];
    while (stack.length && seen.size < 64) {
      const s = stack.pop()!;
      if (seen.has(s.id)) continue;
      seen.set(s.id, s);
      for (const p of this.c.t.partsOf(s)) stack.push(...(this.c.extendsOf.get(p.id) ?? []), ...(this.c.implementsOf.get(p.id) ?? []));
    }
    return [...seen.values()];
  }

  private enclosingClasses(from: ParsedScope): ParsedScope[] {
    const out: ParsedScope[] = [];
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'namespace' && s.kind !== 'file'; s = this.c.t.parent(s)) if (CLASS_LIKE.has(s.kind)) out.push(s);
    return out;
  }

  private byName(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const head = parts[0];
    const rest = parts.slice(1);
    if (head === 'this' && !rest.length && !wantType) {
      // `: this(...)`: another constructor of the class
      const cls = this.c.enclosingClass(from);
      return cls ? this.c.finish(this.c.constructorsOf([cls]), kinds, 'not-found') : { reason: 'not-found' };
    }
    if (head === 'this') return this.c.thisRef(from, rest, env, kinds);
    if (head === 'base') return this.c.superRef(from, rest, env, kinds);
    if (!wantType || rest.length) {
      // 1. locals / parameters (typed)
      const local = this.c.localBinding(head, from);
      if (local) return rest.length ? this.c.typedWalk(local, from, rest, env, kinds) : { reason: 'not-found' };
      // 2. local functions of enclosing functions, members of enclosing types (with bases)
      for (let s: ParsedScope | undefined = from; s && s.kind !== 'namespace' && s.kind !== 'file'; s = this.c.t.parent(s)) {
        if (FUNCTION_LIKE.has(s.kind)) {
          const fns = this.c.t.childrenNamed(s, head).filter((x) => x.kind === 'function');
          if (fns.length) return this.c.walk(fns, rest, env, kinds);
        } else if (CLASS_LIKE.has(s.kind)) {
          // a constructor is never named by a member access (`Assert.That` inside class Assert)
          const members = this.c.findMember([s], head).filter((m) => m.kind !== 'constructor');
          if (members.length) return this.c.walk(members, rest, env, kinds);
          const field = this.c.memberBinding([s], head);
          if (field) return rest.length ? this.c.typedWalk(field, s, rest, env, kinds) : { reason: 'not-found' };
        }
      }
    }
    // 3. types (longest qualified prefix), then static members
    for (let k = parts.length; k >= 1; k--) {
      const types = this.typesOf(parts.slice(0, k), from, env);
      if (types.length) return this.c.walk(types, parts.slice(k), env, kinds);
    }
    const reason = this.c.reasonFor(head, env);
    return { reason: reason === 'not-found' && rest.length ? 'unknown-receiver' : reason };
  }

  types(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    return this.typesOf(typeName.split('.'), ctx, env);
  }

  /** A base list names classes and interfaces alike: the target's kind decides the edge. */
  heritageEdge(from: ParsedScope, target: ParsedScope, written: 'EXTENDS' | 'IMPLEMENTS'): 'EXTENDS' | 'IMPLEMENTS' {
    if (from.kind === 'interface') return 'EXTENDS';
    if (target.kind === 'interface') return 'IMPLEMENTS';
    if (target.kind === 'class' || target.kind === 'record') return 'EXTENDS';
    return written;
  }

  private typesOf(parts: string[], from: ParsedScope, env: FileEnv): ParsedScope[] {
    return csTypeLookup(this.c.t, parts, from, env, (owners, name) => this.c.findMember(owners, name));
  }
}
