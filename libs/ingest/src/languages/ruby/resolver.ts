import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { dirname, joinPath } from '../../resolve/module-resolver';
import type { FamilyResolver, FileEnv, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { push } from '../../resolve/symbol-table';
import type { UnresolvedReason } from '../../resolve/types';
import { CONVERSIONS, RETURNS } from './extractor';
import { isRubyBuiltin, isRubyCoreMethod, RUBY_DYNAMIC, RUBY_OBJECT_METHODS, RUBY_STDLIB } from './builtins';

const TYPES = new Set<ScopeKind>(['class', 'module']);
const METHODS = new Set<ScopeKind>(['method', 'function', 'constructor', 'property']);

/**
 * Ruby names.
 *
 * - Files: `require_relative 'x'` from the file's directory; `require 'a/b'` from every `lib/`
 *   directory of the repository (the load path a gem sets up), then the repository root, then the
 *   requiring file's directory. A feature no file provides is the standard library's (`json`, `set`...)
 *   or a gem's: an outside module either way. Constants are global once loaded, so name lookup does
 *   not depend on which files a file requires.
 * - Constants (`A::B`, written `A.B`): the lexical nesting innermost first (`A.B.C.X`, `A.B.X`, `A.X`),
 *   then the top level. A class or module opened in several files (same qualified name) is one type:
 *   the first part (by path, then line) is its canonical scope; `prepare` attaches every other part's
 *   members to it (`addMember`) and `afterHeritage` gives it the other parts' superclass and mixins.
 * - Calls: `foo` / `self.foo` on the enclosing class or module and its ancestors (superclass,
 *   `include`/`extend`/`prepend` mixins), then top-level `def`s; `A::B.new` -> `initialize` (or the
 *   class when it has none); `x.m` through `x = A.new` or YARD `@param [A] x`; `@x.m` through
 *   `@x = A.new` in any method of the class; `super` -> the same-named method of the ancestors.
 * - Not in the repository: a constant the repository does not declare is `builtin` (Ruby core and
 *   standard library) or `external` (a gem). A method name no repository scope declares cannot land in
 *   the repository: `builtin` when core classes answer it, else `external`. `send`, `define_method`,
 *   `instance_eval`, `proc.call` and their kind are `dynamic`.
 */
export class RubyResolver implements FamilyResolver {
  private readonly byName = new Map<string, ParsedScope[]>();
  private readonly canonical = new Map<string, ParsedScope>();
  /** Constants that are not classes or modules (`VERSION = '1.0'`), first declaration by qualified name. */
  private readonly constants = new Map<string, ParsedScope>();
  private readonly functions = new Map<string, ParsedScope[]>();
  /** Methods, attributes and top-level `def`s by name (constructors excluded): the duck-typing candidates. */
  private readonly methodsByName = new Map<string, ParsedScope[]>();
  private readonly rubyPaths = new Set<string>();
  private libRoots: string[] = [];
  /** Classes and modules that `include`/`extend`/`prepend` a module, by the module's id. */
  private readonly includers = new Map<string, ParsedScope[]>();

  constructor(private readonly c: ResolverContext) {}

  prepare(envs: FileEnv[]): void {
    const libs = new Set<string>();
    for (const env of [...envs].sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0))) {
      const path = env.file.path;
      this.rubyPaths.add(path);
      const segs = path.split('/');
      for (let i = 0; i < segs.length - 1; i++) if (segs[i] === 'lib') libs.add(segs.slice(0, i + 1).join('/'));
      for (const s of env.file.scopes) {
        if (TYPES.has(s.kind)) push(this.byName, s.qualifiedName, s);
        else if (s.kind === 'variable' && !this.constants.has(s.qualifiedName)) this.constants.set(s.qualifiedName, s);
        else if (METHODS.has(s.kind)) {
          if (s.kind !== 'constructor') push(this.methodsByName, s.name, s);
          if (s.kind === 'function' && s.parentId === env.fileScope.id) push(this.functions, s.name, s);
        }
      }
    }
    this.libRoots = [...libs].sort();
    for (const [qn, parts] of this.byName) {
      const first = parts[0];
      this.canonical.set(qn, first);
      for (const part of parts.slice(1)) {
        for (const list of this.c.t.children.get(part.id)?.values() ?? []) for (const m of list) this.c.t.addMember(first, m);
      }
    }
    // `module M; module ClassMethods; def x` + `def self.included(base) base.extend ClassMethods`: the
    // idiom (ActiveSupport::Concern's too) makes ClassMethods' methods callable on whatever includes M.
    for (const [qn, parts] of this.byName) {
      const cm = this.canonical.get(`${qn}.ClassMethods`);
      if (!cm || parts[0].kind !== 'module') continue;
      for (const list of this.c.t.children.get(cm.id)?.values() ?? []) for (const m of list) if (METHODS.has(m.kind)) this.c.t.addMember(parts[0], m);
    }
  }

  afterHeritage(): void {
    // who mixes each module in (a module method's `self` is an instance of one of them)
    for (const [id, targets] of this.c.implementsOf) {
      const from = this.c.t.scopes.get(id);
      if (!from || from.language !== 'ruby') continue;
      for (const t of targets) push(this.includers, t.id, this.canonical.get(from.qualifiedName) ?? from);
    }
    for (const parts of this.byName.values()) {
      if (parts.length < 2) continue;
      const first = parts[0];
      for (const map of [this.c.extendsOf, this.c.implementsOf]) {
        const merged = [...(map.get(first.id) ?? [])];
        for (const p of parts.slice(1)) for (const t of map.get(p.id) ?? []) if (!merged.includes(t)) merged.push(t);
        if (merged.length) map.set(first.id, merged);
      }
      if (!this.c.extendsOf.has(first.id)) {
        const r = parts.map((p) => this.c.unresolvedBase.get(p.id)).find((x) => x);
        if (r) this.c.unresolvedBase.set(first.id, r);
      }
    }
  }

  addImport(env: FileEnv, imp: RawImport): void {
    const spec = imp.specifier;
    const withExt = spec.endsWith('.rb') ? spec : `${spec}.rb`;
    if (spec.startsWith('./') || spec.startsWith('../')) {
      const p = joinPath(dirname(env.file.path), withExt);
      this.c.link(env, imp, this.rubyPaths.has(p) ? { kind: 'file', path: p } : { kind: 'missing' });
      return;
    }
    const here = env.file.path;
    // load-path roots: the lib/ directories that contain the file first, then the others
    const roots = [...this.libRoots.filter((r) => here.startsWith(`${r}/`)), ...this.libRoots.filter((r) => !here.startsWith(`${r}/`)), '', dirname(here)];
    for (const r of roots) {
      const p = joinPath(r, withExt);
      if (this.rubyPaths.has(p)) {
        this.c.link(env, imp, { kind: 'file', path: p });
        return;
      }
    }
    this.c.link(env, imp, { kind: 'external', name: RUBY_STDLIB.has(spec) ? spec : spec.split('/')[0] });
  }

  types(typeName: string, ctx: ParsedScope): ParsedScope[] {
    const parts = typeName.split('.');
    return this.constant(parts, ctx) ?? [];
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const accept = wantType || kinds.has('namespace') ? new Set<ScopeKind>([...kinds, 'module', 'class']) : kinds;
    const head = parts[0];
    const rest = parts.slice(1);
    if (head === 'super') return this.superCall(from, accept);
    // `x.to_s.size`: past a conversion, the value is core Ruby's
    if (rest.slice(0, -1).some((r) => r in CONVERSIONS)) return { reason: 'builtin' };
    if (head === 'self') {
      const t = this.enclosingType(from);
      if (!t) return { reason: 'unknown-receiver' };
      if (!rest.length) return this.c.finish([t], accept, 'not-found');
      return this.members([t], rest, accept, this.classSide(from));
    }
    if (head.startsWith('@')) {
      const t = this.enclosingType(from);
      const typeName = t ? this.c.memberBinding(this.partsOf(t), head) : null;
      if (typeName) return this.typed(typeName, from, rest, accept);
      return rest.length ? this.duck(rest[rest.length - 1], accept) : { reason: 'unknown-receiver' };
    }
    if (/^[A-Z]/.test(head)) {
      for (let k = parts.length; k >= 1; k--) {
        if (k < parts.length && !/^[A-Z]/.test(parts[k - 1])) continue;
        const types = this.constant(parts.slice(0, k), from);
        if (types) return k === parts.length ? this.c.finish(types, accept, 'not-found') : this.members(types, parts.slice(k), accept, true);
      }
      return { reason: isRubyBuiltin(head) ? 'builtin' : 'external' };
    }
    if (!rest.length) return this.selfCall(head, from, accept);
    if (head === 'new') {
      // `new(...).m` inside a class method: an instance of the enclosing class
      const t = this.enclosingType(from);
      if (t) return this.members([t], rest, accept);
    }
    const local = this.c.localBinding(head, from);
    if (local) return this.typed(local, from, rest, accept);
    // `reader.m` where `reader` is an attribute of the class backed by a typed `@reader`
    const t = this.enclosingType(from);
    const attr = t ? this.c.memberBinding(this.partsOf(t), `@${head}`) : null;
    if (attr) return this.typed(attr, from, rest, accept);
    // `repo.m` where `repo` is a method of self whose last expression builds the object
    const returned = t ? this.returnType(this.c.findMember([t], head)) : null;
    if (returned) return this.typed(returned.type, returned.from, rest, accept);
    return this.duck(rest[rest.length - 1], accept);
  }

  /**
   * A call of `name` on a receiver whose class is not known statically (or a bare call that self's
   * class does not answer: a block `instance_eval`'d by a DSL). Ruby dispatches on whatever object
   * arrives (duck typing): the repository's methods of that name are the candidates. One candidate,
   * and no core class answers the name: that method. Several (or a core class too): `dynamic`, as a
   * call through an interface with several implementors. None: the target is outside the repository.
   */
  private duck(name: string, accept: ReadonlySet<ScopeKind>, inBlock = false, instance = false): Outcome {
    if (RUBY_DYNAMIC.has(name)) return { reason: 'dynamic' };
    if (RUBY_OBJECT_METHODS.has(name)) return { reason: 'builtin' };
    const all = this.methodsByName.get(name) ?? [];
    // a receiver known to be an instance never lands on a class method
    const candidates = instance ? all.filter((m) => m.owner !== 'self') : all;
    if (!candidates.length) return { reason: all.length ? 'not-found' : this.outside(name) };
    if (candidates.length === 1 && !isRubyCoreMethod(name)) return this.c.finish(candidates, accept, 'not-found');
    // several, one of them on a class or module every other one's class descends from (`peek_size` on
    // Pattern and its overrides in subclasses): a call on the base's method, as through a base type
    const base = isRubyCoreMethod(name) ? undefined : this.baseMethod(candidates);
    if (base) return this.c.finish([base], accept, 'not-found');
    return { reason: inBlock ? 'dynamic' : 'unknown-receiver' };
  }

  /** Of methods of one name, the one whose class (or module) is an ancestor of every other one's, if any. */
  private baseMethod(methods: ParsedScope[]): ParsedScope | undefined {
    const owners = methods.map((m) => (m.parentId ? this.enclosingType(this.c.t.scopes.get(m.parentId)!) : null));
    if (owners.some((o) => !o) || new Set(methods.map((m) => m.owner === 'self')).size > 1) return undefined;
    const found = methods.filter((_, i) => owners.every((o, j) => j === i || (o !== owners[i] && this.ancestors(o!).has(owners[i]!))));
    return found.length === 1 ? found[0] : undefined;
  }

  /** Superclasses and included modules of a class or module, transitively (every reopening's heritage). */
  private ancestors(t: ParsedScope): Set<ParsedScope> {
    const out = new Set<ParsedScope>();
    const queue = [t];
    while (queue.length) {
      const cur = queue.pop()!;
      for (const part of this.partsOf(cur)) {
        for (const b of [...(this.c.extendsOf.get(part.id) ?? []), ...(this.c.implementsOf.get(part.id) ?? [])]) {
          const canon = this.canonical.get(b.qualifiedName) ?? b;
          if (canon === t || out.has(canon)) continue;
          out.add(canon);
          queue.push(canon);
        }
      }
    }
    return out;
  }

  /** A method name no repository scope declares: core Ruby's, or a gem's. */
  private outside(name: string): UnresolvedReason {
    return isRubyCoreMethod(name) ? 'builtin' : 'external';
  }

  private typed(typeName: string, from: ParsedScope, rest: string[], accept: ReadonlySet<ScopeKind>): Outcome {
    const types = this.constant(typeName.split('.'), from);
    if (!types) return { reason: isRubyBuiltin(typeName.split('.')[0]) ? 'builtin' : 'external' };
    return this.members(types, rest, accept);
  }

  /** Follow `rest` from `types`: `.new` makes an instance, `.class` the class, other names are members. */
  private members(types: ParsedScope[], rest: string[], accept: ReadonlySet<ScopeKind>, classSide = false): Outcome {
    let cur = types;
    let side = classSide;
    for (let i = 0; i < rest.length; i++) {
      const name = rest[i];
      const last = i === rest.length - 1;
      if (name === 'new') {
        // a class (or module) may define `def self.new` itself
        const own = side ? this.c.findMember(cur, 'new').filter((m) => m.owner === 'self') : [];
        if (last) return this.c.finish(own.length ? own : this.c.constructorsOf(cur), accept, 'not-found');
        side = false;
        continue;
      }
      if (name === 'class') {
        if (last) return { reason: 'builtin' }; // Kernel#class
        side = true;
        continue;
      }
      const found = this.side(this.c.findMember(cur, name), side);
      side = false;
      if (found.length) {
        if (last) return this.c.finish(found, accept, 'not-found');
        const nested = found.filter((f) => TYPES.has(f.kind));
        if (nested.length) {
          cur = nested;
          continue;
        }
        const returned = this.returnType(found) ?? this.attrType(found);
        if (returned) {
          const types = this.constant(returned.type.split('.'), returned.from);
          if (!types) return { reason: isRubyBuiltin(returned.type.split('.')[0]) ? 'builtin' : 'external' };
          cur = types;
          continue;
        }
        return this.duck(rest[rest.length - 1], accept);
      }
      if (cur.some((t) => this.c.unresolvedBase.has(t.id) || this.c.inheritsFromOutside(t))) return { reason: 'external' };
      // a constant the repository's namespace does not declare (or a constant that is not a class)
      if (/^[A-Z]/.test(name)) return { reason: 'not-found' };
      if (!last) return this.duck(rest[rest.length - 1], accept);
      return this.duck(name, accept);
    }
    return this.c.finish(cur, accept, 'not-found');
  }

  /** A bare `foo` (or `foo(...)`): the enclosing class/module and its ancestors, then top-level `def`s. */
  private selfCall(name: string, from: ParsedScope, accept: ReadonlySet<ScopeKind>): Outcome {
    const t = this.enclosingType(from);
    if (t) {
      if (name === 'new') return this.c.finish(this.c.constructorsOf([t]), accept, 'not-found');
      const found = this.side(this.c.findMember([t], name), this.classSide(from));
      if (found.length) return this.c.finish(found, accept, 'not-found');
      if (t.kind === 'module') {
        // a mixin's method calling what the classes that include it provide
        const via = this.fromIncluders(t, name);
        if (via.length) return via.length === 1 ? this.c.finish(via, accept, 'not-found') : { reason: 'dynamic' };
      }
    }
    const fns = this.functions.get(name);
    if (fns?.length) {
      const mine = fns.filter((f) => f.path === from.path);
      return this.c.finish(mine.length ? mine : fns, accept, 'not-found');
    }
    if (RUBY_DYNAMIC.has(name)) return { reason: 'dynamic' };
    if (isRubyBuiltin(name)) return { reason: 'builtin' };
    if (t && (this.c.unresolvedBase.has(t.id) || this.c.inheritsFromOutside(t))) return { reason: 'external' };
    // In a class body (not a method) a name the class does not answer runs in a DSL's block, which the
    // DSL `instance_eval`s on an object of its choosing: a closure call.
    return this.duck(name, accept, from.kind === 'class' || from.kind === 'module', !this.classSide(from));
  }

  /** The class a method returns (its last expression), when all of `methods` agree. */
  private returnType(methods: ParsedScope[]): { type: string; from: ParsedScope } | null {
    const types = new Set<string>();
    for (const m of methods) {
      const r = this.c.t.localBindings.get(m.id)?.get(RETURNS);
      if (!r) return null;
      types.add(r);
    }
    return types.size === 1 ? { type: [...types][0], from: methods[0] } : null;
  }

  /** An `attr_reader :x` backed by a typed `@x`. */
  private attrType(found: ParsedScope[]): { type: string; from: ParsedScope } | null {
    const p = found.length === 1 && found[0].kind === 'property' ? found[0] : null;
    const owner = p ? this.c.t.parent(p) : undefined;
    const type = owner ? this.c.memberBinding(this.partsOf(owner), `@${p!.name}`) : null;
    return type ? { type, from: p! } : null;
  }

  /** Members named `name` of the classes that mix `module` in (transitively), de-duplicated. */
  private fromIncluders(module: ParsedScope, name: string): ParsedScope[] {
    const out = new Map<string, ParsedScope>();
    const seen = new Set<string>([module.id]);
    let level = this.includers.get(module.id) ?? [];
    for (let depth = 0; depth < 4 && level.length; depth++) {
      const next: ParsedScope[] = [];
      for (const inc of level) {
        if (seen.has(inc.id)) continue;
        seen.add(inc.id);
        for (const m of this.c.findMember([inc], name)) out.set(m.id, m);
        if (inc.kind === 'module') next.push(...(this.includers.get(inc.id) ?? []));
      }
      if (out.size) break;
      level = next;
    }
    return [...out.values()];
  }

  /** Is `self` the class (a class body, `def self.x`, `class << self`) rather than an instance? */
  private classSide(from: ParsedScope): boolean {
    for (let s: ParsedScope | undefined = from; s; s = this.c.t.parent(s)) {
      if (TYPES.has(s.kind)) return true;
      if (METHODS.has(s.kind)) return s.owner === 'self';
    }
    return false;
  }

  /**
   * `def self.x` and `def x` share a name (`A.x`): the receiver decides, a class (`A.x`, `self.x` in a
   * class method or body) its class methods, an instance its instance methods.
   */
  private side(found: ParsedScope[], classSide: boolean): ParsedScope[] {
    const mine = found.filter((f) => (f.owner === 'self') === classSide);
    // an instance never answers a class method; a class may answer an instance method of a module
    // it extends (or a `module_function`), so on the class side the others stay when nothing else does
    if (!classSide) return mine;
    return mine.length ? mine : found;
  }

  /** `super` / `super(...)`: the enclosing method's namesake in the ancestors (initialize: their constructors). */
  private superCall(from: ParsedScope, accept: ReadonlySet<ScopeKind>): Outcome {
    let m: ParsedScope | undefined = from;
    while (m && !METHODS.has(m.kind)) m = this.c.t.parent(m);
    const t = this.enclosingType(from);
    if (!m || !t) return { reason: 'not-found' };
    const parts = this.partsOf(t);
    const bases = parts.flatMap((p) => [...(this.c.extendsOf.get(p.id) ?? []), ...(this.c.implementsOf.get(p.id) ?? [])]);
    if (bases.length) {
      const found = this.side(this.c.findMember(bases, m.name), m.owner === 'self');
      if (found.length) return this.c.finish(found, accept, 'not-found');
    }
    if (parts.some((p) => this.c.unresolvedBase.has(p.id)) || this.c.inheritsFromOutside(t)) return { reason: 'external' };
    // no superclass in the repository and none outside: Object / BasicObject / Kernel
    return { reason: bases.length ? 'not-found' : 'builtin' };
  }


  /** The canonical scope of the innermost class/module around `from` (itself included). */
  private enclosingType(from: ParsedScope): ParsedScope | null {
    for (let s: ParsedScope | undefined = from; s; s = this.c.t.parent(s)) {
      if (TYPES.has(s.kind)) return this.canonical.get(s.qualifiedName) ?? s;
    }
    return null;
  }

  private partsOf(t: ParsedScope): ParsedScope[] {
    return this.byName.get(t.qualifiedName) ?? [t];
  }

  /** A constant path seen from `from`: lexical nesting innermost first, then the top level. */
  private constant(parts: string[], from: ParsedScope): ParsedScope[] | null {
    const q = parts.join('.');
    for (let s: ParsedScope | undefined = from; s; s = this.c.t.parent(s)) {
      if (!TYPES.has(s.kind)) continue;
      // `module A::B` nests lexically in A::B only; the prefixes make `A.X` reachable as well (lenient)
      const segs = s.qualifiedName.split('.');
      for (let i = segs.length; i >= 1; i--) {
        const key = `${segs.slice(0, i).join('.')}.${q}`;
        const hit = this.canonical.get(key) ?? this.constants.get(key);
        if (hit) return [hit];
      }
    }
    const top = this.canonical.get(q) ?? this.constants.get(q);
    return top ? [top] : null;
  }
}
