import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { dirname, joinPath } from '../../resolve/module-resolver';
import { FamilyResolver, FileEnv, Outcome, ResolverContext } from '../../resolve/resolver-context';
import type { UnresolvedReason } from '../../resolve/types';
import { CLASS_LIKE, push, TYPE_LIKE } from '../../resolve/symbol-table';
import { STANDARD_HEADERS } from './builtins';
import { RETURN_BINDING } from './extractor';
import { isHeaderPath } from './paths';

/** What one C/C++ file brings into scope. */
interface CFileState {
  /** Repository files its `#include`s name, in order. */
  includes: string[];
  /** `using namespace a::b` -> `a.b`. */
  usings: string[];
  /** It includes a header of a dependency (`<zlib.h>`): names nothing declares may come from there. */
  external: boolean;
}

const FUNCTIONS = new Set<ScopeKind>(['function', 'method', 'constructor']);
const MAX_ALIAS_HOPS = 5;
/** What a qualified name's leading parts can be. */
const CONTAINERS = new Set<ScopeKind>(['namespace', ...TYPE_LIKE]);

/**
 * C and C++ name resolution (one family: a C file includes headers a C++ file includes too).
 *
 * - `#include "x.h"`: the including file's directory, then the include directories (every directory
 *   named `include`, and `-I` / `include_directories` of Makefiles and CMakeLists.txt), then a unique
 *   repository file ending in `/x.h`; `<x.h>`: the include directories, then a file ending in `/x.h`
 *   when the name has a directory (`<brotli/decode.h>`). Standard headers are the standard library;
 *   other unfound `<...>` headers are dependencies (`external`).
 * - Names: parameters and locals (calling one is `dynamic`: a function pointer), members of the
 *   enclosing class (out-of-line `A::f` bodies included), file globals, then qualified lookup in the
 *   enclosing namespaces, `using namespace`s and the global namespace. Several candidates: the same
 *   file's first, then those of included headers (transitively), then the rest. `static` functions
 *   and types of a `.c`/`.cpp` file are seen from that file only.
 * - Declaration and definition are two scopes: a header's prototype (or an in-class method
 *   declaration) and the body that defines it, linked by an IMPLEMENTS edge from the definition to the
 *   declaration; a call that finds the declaration lands on the definition(s) when the repository has
 *   them. Out-of-line members (`void ns::A::f() {}`) are attached to their class (`owner`).
 * - `x.f()` / `x->f()` in C, a call through a local/parameter, a struct field, `table[i](x)`: `dynamic`.
 */
export class CFamilyResolver implements FamilyResolver {
  private readonly byQName = new Map<string, ParsedScope[]>();
  /** Out-of-line member -> the classes it belongs to. */
  private readonly ownerOf = new Map<string, ParsedScope[]>();
  /** Declaration (prototype, in-class method declaration) -> its definitions. */
  private readonly defsOf = new Map<string, ParsedScope[]>();
  /** typedef / `using X = T` scope -> the type name it stands for. */
  private readonly aliasTarget = new Map<string, string>();
  /** Names of fields of any struct/class: `x.cb()` on one of them calls a function pointer. */
  private readonly fieldNames = new Set<string>();
  private includeDirs: string[] = [];
  private byBasename = new Map<string, string[]>();
  private readonly closures = new Map<string, Set<string>>();
  /** `using a::B;` in namespace N: `N.B` (qualified) -> what it names, looked up where it is written. */
  private readonly usingNames = new Map<string, { parts: string[]; from: ParsedScope; env: FileEnv }>();

  constructor(private readonly c: ResolverContext) {}

  private state(env: FileEnv): CFileState {
    return (env.state ??= { includes: [], usings: [], external: false }) as CFileState;
  }

  prepare(envs: FileEnv[]): void {
    for (const env of envs) {
      this.state(env);
      for (const s of env.file.scopes) if (s.kind !== 'file') push(this.byQName, s.qualifiedName, s);
      for (const r of env.file.references) {
        if (r.kind !== 'REFERENCES' || this.aliasTarget.has(r.fromId)) continue;
        if (this.c.t.scopes.get(r.fromId)?.kind === 'type_alias') this.aliasTarget.set(r.fromId, r.targetName);
      }
      for (const b of env.file.bindings) if (b.member) this.fieldNames.add(b.name);
    }
    this.indexPaths();
    // Out-of-line members join their class; in-class declarations pair with them.
    const outOfLine = new Map<string, ParsedScope[]>();
    for (const env of envs) {
      for (const s of env.file.scopes) {
        if (!s.owner) continue;
        const parent = this.c.t.parent(s) ?? env.fileScope;
        const owners = this.lookup(s.owner.split('::'), parent, env, (o) => CLASS_LIKE.has(o.kind));
        if (!owners.length) continue;
        this.ownerOf.set(s.id, owners);
        for (const o of owners) push(outOfLine, o.id, s);
        for (const o of owners) {
          this.c.t.addMember(o, s);
        }
      }
    }
    for (const [classId, members] of outOfLine) {
      const byName = new Map<string, ParsedScope[]>();
      for (const m of members) push(byName, m.name, m);
      for (const [name, defs] of byName) {
        const decls = (this.c.t.children.get(classId)?.get(name) ?? []).filter((d) => d.parentId === classId && !d.owner && FUNCTIONS.has(d.kind));
        pair(decls, defs, (d, def) => push(this.defsOf, d.id, def));
      }
    }
    // Header prototypes pair with the non-static bodies of the same qualified name in source files.
    for (const group of this.byQName.values()) {
      if (group.length < 2) continue;
      const fns = group.filter((s) => s.kind === 'function' && !s.owner);
      const decls = fns.filter((s) => isHeaderPath(s.path));
      const defs = fns.filter((s) => !isHeaderPath(s.path) && s.exported !== false);
      if (!decls.length || !defs.length) continue;
      pair(decls, defs, (d, def) => push(this.defsOf, d.id, def));
    }
  }

  /** A definition IMPLEMENTS its declaration (see the class comment). */
  afterHeritage(): void {
    for (const [declId, defs] of this.defsOf) {
      const decl = this.c.t.scopes.get(declId);
      if (!decl) continue;
      for (const def of defs) this.c.addHeritage(def, decl, 'IMPLEMENTS', def.startLine, 'fast');
    }
  }

  addImport(env: FileEnv, imp: RawImport): void {
    const st = this.state(env);
    if (imp.isNamespace) {
      st.usings.push(imp.specifier);
      return;
    }
    if (imp.names.length) {
      // `using a::B;`: the namespace it is written in receives B.
      const ns = imp.namespace ? this.byQName.get(imp.namespace)?.find((s) => s.kind === 'namespace' && s.path === env.file.path) ?? null : null;
      const key = imp.namespace ? `${imp.namespace}.${imp.names[0].local}` : imp.names[0].local;
      if (!this.usingNames.has(key)) this.usingNames.set(key, { parts: imp.specifier.split('.'), from: ns ?? env.fileScope, env });
      return;
    }
    const angle = imp.specifier.startsWith('<');
    const name = angle ? imp.specifier.slice(1, -1).trim() : imp.specifier;
    const found = this.findHeader(name, angle, env.file.path);
    if (found) {
      st.includes.push(found);
      this.c.link(env, imp, { kind: 'file', path: found });
      return;
    }
    if (STANDARD_HEADERS.has(name)) {
      this.c.link(env, imp, { kind: 'external', name });
      return;
    }
    if (angle) {
      st.external = true;
      this.c.link(env, imp, { kind: 'external', name });
      return;
    }
    this.c.link(env, imp, { kind: 'missing' });
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const head = parts[0];
    const rest = parts.slice(1);
    const isC = env.file.language === 'c';
    if (head === '?') return { reason: rest.length && !isC ? 'unknown-receiver' : 'dynamic' };
    // C has no methods: `s->f(x)` calls the function pointer in field f.
    if (isC && rest.length && !wantType) return { reason: 'dynamic' };
    const made = parts.findIndex((p) => p.endsWith('()'));
    if (made >= 0 && !wantType) return this.madeReceiver(parts, made, from, env, kinds);
    if (head === 'this') {
      const classes = this.enclosingClasses(from);
      if (!classes.length) return { reason: 'unknown-receiver' };
      return this.member(this.c.walk(classes, rest, env, kinds), rest, kinds);
    }
    if (!wantType) {
      const local = this.c.localBinding(head, from) ?? this.c.fileBinding(head, env);
      if (local) {
        if (!rest.length || local === '*fn') return { reason: 'dynamic' };
        return this.member(this.c.typedWalk(local, from, rest, env, kinds), rest, kinds);
      }
      for (const cls of this.enclosingClasses(from)) {
        const members = this.c.findMember([cls], head);
        if (members.length) return this.member(this.c.walk(members, rest, env, kinds), rest, kinds);
        const field = this.c.memberBinding([cls], head);
        if (field) {
          if (!rest.length || field === '*fn') return { reason: 'dynamic' };
          return this.member(this.c.typedWalk(field, cls, rest, env, kinds), rest, kinds);
        }
      }
    }
    for (let k = parts.length; k >= 1; k--) {
      const last = k === parts.length;
      const found = this.lookup(parts.slice(0, k), from, env, (s) => (last ? kinds.has(s.kind) || CLASS_LIKE.has(s.kind) && kinds.has('constructor') : CONTAINERS.has(s.kind)));
      if (!found.length) continue;
      const out = last ? this.finishTargets(found, kinds) : this.member(this.c.walk(found, parts.slice(k), env, kinds), parts.slice(k), kinds);
      // `ns::swap` where namespace ns says `using std::swap;`
      const outside = 'reason' in out && out.reason === 'not-found' && this.usingNames.size ? this.usingOutside(parts, from, env) : null;
      return outside ? { reason: this.c.reasonFor(outside, env) } : out;
    }
    const outside = this.usingNames.size ? this.usingOutside(parts, from, env) : null;
    const reason = this.c.reasonFor(outside ?? head, env);
    if (reason === 'not-found' && this.includesExternal(env)) return { reason: 'external' };
    return { reason: reason === 'not-found' && rest.length ? 'unknown-receiver' : reason };
  }

  /**
   * `A().f` / `ns.A().f`: a temporary of class A; `a.get().f` / `make().f`: the declared return type
   * of what `a.get` / `make` resolves to; chains (`A().get().f`) go on from each result.
   */
  private madeReceiver(parts: string[], at: number, from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const callee = [...parts.slice(0, at), parts[at].slice(0, -2)];
    // `f()(x)`: what f returns, or a name a macro builds (`FN(Init)(x)`): we cannot tell which.
    if (at === parts.length - 1) return { reason: 'unknown-receiver' };
    const classes = this.lookup(callee, from, env, (s) => TYPE_LIKE.has(s.kind));
    let types: ParsedScope[] | UnresolvedReason;
    if (classes.length) types = this.typesFollowing(classes, 0);
    else {
      const fn = this.resolve(callee, from, env, kinds, false);
      types = 'reason' in fn ? (fn.reason === 'not-found' ? 'unknown-receiver' : fn.reason) : this.returnTypes(fn.targets);
    }
    for (let i = at + 1; ; ) {
      if (!Array.isArray(types)) return { reason: types };
      const next = parts.findIndex((p, j) => j >= i && p.endsWith('()'));
      if (next < 0) {
        const rest = parts.slice(i);
        return this.member(this.c.walk(types, rest, env, kinds), rest, kinds);
      }
      if (next === parts.length - 1) return { reason: 'unknown-receiver' };
      const seg = [...parts.slice(i, next), parts[next].slice(0, -2)];
      const out = this.member(this.c.walk(types, seg, env, kinds), seg, kinds);
      types = 'reason' in out ? (out.reason === 'not-found' ? 'unknown-receiver' : out.reason) : this.returnTypes(out.targets);
      i = next + 1;
    }
  }

  /** The types functions declare they return (`builtin` for the standard library's, e.g. `std::string`). */
  private returnTypes(fns: ParsedScope[]): ParsedScope[] | UnresolvedReason {
    const out = new Set<ParsedScope>();
    let reason: UnresolvedReason = 'unknown-receiver';
    for (const t of fns) {
      const ret = this.c.t.localBindings.get(t.id)?.get(RETURN_BINDING);
      const tEnv = ret ? this.c.envs.get(t.path) : undefined;
      if (!ret || !tEnv) continue;
      const found = this.types(ret, t, tEnv);
      for (const f of found) out.add(f);
      if (!found.length && this.c.reasonFor(ret.split('.')[0], tEnv) === 'builtin') reason = 'builtin';
    }
    return out.size ? [...out] : reason;
  }

  types(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    return this.typesOf(typeName, ctx, env, 0);
  }

  private typesOf(typeName: string, ctx: ParsedScope, env: FileEnv, hops: number): ParsedScope[] {
    return this.typesFollowing(this.lookup(typeName.split('.'), ctx, env, (s) => TYPE_LIKE.has(s.kind)), hops);
  }

  /** Types with typedefs and `using X = T` followed to what they name. */
  private typesFollowing(found: ParsedScope[], hops: number): ParsedScope[] {
    if (hops >= MAX_ALIAS_HOPS) return found;
    const out: ParsedScope[] = [];
    for (const s of found) {
      const target = s.kind === 'type_alias' ? this.aliasTarget.get(s.id) : undefined;
      const aliasEnv = target ? this.c.envs.get(s.path) : undefined;
      const followed = target && aliasEnv ? this.typesOf(target, this.c.t.parent(s) ?? aliasEnv.fileScope, aliasEnv, hops + 1) : [];
      out.push(...(followed.length ? followed : [s]));
    }
    return [...new Set(out)];
  }

  // ---------------------------------------------------------------- lookups

  /**
   * Scopes a (possibly qualified) name denotes from `from`: enclosing namespaces and classes
   * innermost first (an out-of-line member's class and its namespaces too), the global namespace,
   * then `using namespace`s; among several, the best-placed (same file, included headers, the rest).
   */
  private lookup(parts: string[], from: ParsedScope, env: FileEnv, accept: (s: ParsedScope) => boolean = () => true, depth = 0): ParsedScope[] {
    const q = parts.join('.');
    for (const prefix of this.prefixes(from, env)) {
      const hits = this.byQName.get(prefix ? `${prefix}.${q}` : q);
      if (!hits && depth < 4 && this.usingNames.size) {
        const via = this.viaUsing(parts, prefix, accept, depth);
        if (via.length) return via;
      }
      if (!hits) continue;
      const visible = hits.filter((s) => (s.language === 'c' || s.language === 'cpp') && accept(s) && this.visible(s, env));
      if (visible.length) return this.best(visible, env);
    }
    return [];
  }

  /** `N.B.rest` where `using a::B;` sits in namespace N: `a.B.rest` looked up where the using is written. */
  private viaUsing(parts: string[], prefix: string, accept: (s: ParsedScope) => boolean, depth: number): ParsedScope[] {
    for (let i = 1; i <= parts.length; i++) {
      const head = parts.slice(0, i).join('.');
      const alias = this.usingNames.get(prefix ? `${prefix}.${head}` : head);
      if (!alias) continue;
      const via = this.lookup([...alias.parts, ...parts.slice(i)], alias.from, alias.env, accept, depth + 1);
      if (via.length) return via;
    }
    return [];
  }

  /** A name that a `using std::x;` brings in (the standard library's, or a dependency's). */
  private usingOutside(parts: string[], from: ParsedScope, env: FileEnv): string | null {
    for (const prefix of this.prefixes(from, env)) {
      for (let i = 1; i <= parts.length; i++) {
        const head = parts.slice(0, i).join('.');
        const alias = this.usingNames.get(prefix ? `${prefix}.${head}` : head);
        if (alias) return alias.parts[0];
      }
    }
    return null;
  }

  private prefixes(from: ParsedScope, env: FileEnv): string[] {
    const out: string[] = [];
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.c.t.parent(s)) {
      if (s.kind === 'namespace' || CLASS_LIKE.has(s.kind)) out.push(s.qualifiedName);
      const owners = this.ownerOf.get(s.id);
      if (owners) {
        for (const o of owners) for (let p: ParsedScope | undefined = o; p && p.kind !== 'file'; p = this.c.t.parent(p)) out.push(p.qualifiedName);
      }
    }
    out.push('');
    out.push(...this.state(env).usings);
    return [...new Set(out)];
  }

  private visible(s: ParsedScope, env: FileEnv): boolean {
    return s.exported !== false || s.path === env.file.path || isHeaderPath(s.path) || FUNCTIONS.has(s.kind) && !!s.owner;
  }

  private best(scopes: ParsedScope[], env: FileEnv): ParsedScope[] {
    const same = scopes.filter((s) => s.path === env.file.path);
    if (same.length) return same;
    const closure = this.closure(env.file.path);
    const included = scopes.filter((s) => closure.has(s.path));
    if (included.length) return included;
    // `malloc` declared by a shim header this file does not include is the C library's malloc.
    if (this.c.reasonFor(scopes[0].name, env) === 'builtin') return [];
    return scopes;
  }

  /** Classes whose members `from` sees unqualified: enclosing class bodies, or an out-of-line member's class. */
  private enclosingClasses(from: ParsedScope): ParsedScope[] {
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.c.t.parent(s)) {
      if (CLASS_LIKE.has(s.kind)) return [s];
      const owners = this.ownerOf.get(s.id);
      if (owners) return owners;
    }
    return [];
  }

  /** Declarations become their definitions; a class called is its constructors. */
  private finishTargets(found: ParsedScope[], kinds: ReadonlySet<ScopeKind>): Outcome {
    const out = new Set<ParsedScope>();
    for (const s of found) {
      if (CLASS_LIKE.has(s.kind) && kinds.has('constructor')) {
        for (const ctor of this.c.constructorsOf([s])) for (const d of this.defsOf.get(ctor.id) ?? [ctor]) out.add(d);
        continue;
      }
      for (const d of this.defsOf.get(s.id) ?? [s]) out.add(d);
    }
    return this.c.finish([...out], kinds, 'not-found');
  }

  /** After a member walk: definitions for declarations; a missing member that is a field is a function pointer. */
  private member(out: Outcome, rest: string[], kinds: ReadonlySet<ScopeKind>): Outcome {
    if ('targets' in out) return this.finishTargets(out.targets, kinds);
    if (out.reason === 'not-found' && kinds.has('constructor') && this.fieldNames.has(rest[rest.length - 1])) return { reason: 'dynamic' };
    return out;
  }

  // ---------------------------------------------------------------- includes

  private indexPaths(): void {
    const dirs = new Set<string>();
    this.byBasename = new Map();
    for (const path of this.c.envs.keys()) {
      push(this.byBasename, path.slice(path.lastIndexOf('/') + 1), path);
      const segs = path.split('/');
      for (let i = 0; i < segs.length - 1; i++) if (segs[i] === 'include') dirs.add(segs.slice(0, i + 1).join('/'));
    }
    for (const [path, text] of Object.entries(this.c.manifests)) {
      const base = dirname(path);
      for (const d of buildIncludeDirs(text)) dirs.add(joinPath(base, d));
    }
    this.includeDirs = [...dirs].sort();
  }

  private findHeader(name: string, angle: boolean, fromPath: string): string | null {
    if (!name || name.startsWith('/')) return null;
    const candidates = angle ? [] : [joinPath(dirname(fromPath), name)];
    for (const d of this.includeDirs) candidates.push(joinPath(d, name));
    candidates.push(joinPath(name));
    for (const c of candidates) if (this.c.envs.has(c)) return c;
    if (angle && (!name.includes('/') || STANDARD_HEADERS.has(name))) return null;
    // Build systems add directories we cannot read (generated, per-target): a file ending in the name.
    const base = name.slice(name.lastIndexOf('/') + 1);
    const hits = (this.byBasename.get(base) ?? []).filter((p) => p === name || p.endsWith(`/${name}`));
    if (!hits.length) return null;
    if (hits.length === 1) return hits[0];
    // The one nearest the including file.
    const shared = (p: string) => { let i = 0; while (i < p.length && p[i] === fromPath[i]) i++; return i; };
    return [...hits].sort((a, b) => shared(b) - shared(a) || (a < b ? -1 : 1))[0];
  }

  /** Every repository file a file includes, transitively (itself included). */
  private closure(path: string): Set<string> {
    let set = this.closures.get(path);
    if (set) return set;
    set = new Set([path]);
    const queue = [path];
    while (queue.length) {
      const p = queue.pop()!;
      const env = this.c.envs.get(p);
      if (!env?.state) continue;
      for (const inc of (env.state as CFileState).includes) if (!set.has(inc)) { set.add(inc); queue.push(inc); }
    }
    this.closures.set(path, set);
    return set;
  }

  private includesExternal(env: FileEnv): boolean {
    for (const p of this.closure(env.file.path)) {
      const st = this.c.envs.get(p)?.state as CFileState | undefined;
      if (st?.external) return true;
    }
    return false;
  }
}

/**
 * Declarations with their definitions: one to one in id order when the counts match (overloads get
 * their `~N` suffixes by signature in both files, so the orders agree), else every pair.
 */
function pair(decls: ParsedScope[], defs: ParsedScope[], link: (decl: ParsedScope, def: ParsedScope) => void): void {
  if (decls.length === defs.length && decls.length > 1) {
    const byId = (a: ParsedScope, b: ParsedScope) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const a = [...decls].sort(byId);
    const b = [...defs].sort(byId);
    a.forEach((d, i) => link(d, b[i]));
    return;
  }
  for (const d of decls) for (const def of defs) link(d, def);
}

/** Include directories named by a Makefile (`-Idir`, `-I dir`) or a CMakeLists.txt (`include_directories(a b)`). */
export function buildIncludeDirs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)-I\s*([^\s$()"']+)/g)) out.push(m[1]);
  for (const m of text.matchAll(/\b(?:target_)?include_directories\s*\(([^)]*)\)/gi)) {
    for (const tok of m[1].split(/\s+/)) {
      if (!tok || /^(?:PUBLIC|PRIVATE|INTERFACE|SYSTEM|BEFORE|AFTER)$/.test(tok) || tok.includes('$')) continue;
      if (m[0].toLowerCase().startsWith('target_') && tok === m[1].trim().split(/\s+/)[0]) continue; // the target's name
      out.push(tok.replace(/^"|"$/g, ''));
    }
  }
  return out.filter((d) => !d.startsWith('/'));
}
