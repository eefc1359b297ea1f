import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { FamilyResolver, FileEnv, FUNCTION_LIKE, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { CLASS_LIKE, SymbolTable, TYPE_LIKE } from '../../resolve/symbol-table';

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
    const head = parts[0];
    const rest = parts.slice(1);
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
          const members = this.c.findMember([s], head);
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
