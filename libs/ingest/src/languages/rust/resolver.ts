import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { dirname } from '../../resolve/module-resolver';
import { FamilyResolver, FileEnv, FUNCTION_LIKE, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { TYPE_LIKE } from '../../resolve/symbol-table';
import type { UnresolvedReason } from '../../resolve/types';
import { isRustBuiltin, isStdMethod, isStdOnlyMethod, STD_CRATES } from './builtins';
import { ALIAS_BINDING, ALTERNATIVE, FN_VALUE, GENERIC, IMPL_PREFIX, RETURN_BINDING, TRAIT_BINDING, UNTYPED, VALUE_PREFIX, VARIANT_PREFIX } from './extractor';

/** A compilation unit: a package's library (+ `main.rs`), one `src/bin` binary, or its tests/examples/benches. */
interface Crate {
  key: string;
  /** The name other crates of the repository `use` it by (package name, `-` as `_`), for the library. */
  name: string | null;
  /** The package's name (`-` as `_`): its library is what tests, examples and binaries call into. */
  pkg: string | null;
  /** Dependencies named in the package's Cargo.toml (`-` as `_`). */
  deps: Set<string>;
  /**
   * Each file directly in `tests/` (`examples/`, `benches/`) is a crate of its own; the modules in
   * their subdirectories (`tests/common/mod.rs`), which any of them may declare, live in this one.
   */
  shared?: Crate;
}

interface Module {
  key: string;
  crate: Crate;
  path: string[];
  /** File scopes (`a.rs`, `a/mod.rs`) and inline `mod a { }` scopes of this module. */
  scopes: ParsedScope[];
  uses: Map<string, UseEntry[]>;
  globs: UseEntry[];
}

interface UseEntry {
  parts: string[];
  module: Module;
}

/** What a path denotes. */
type Entity =
  | { kind: 'dynamic' }
  | { kind: 'module'; m: Module }
  | { kind: 'scopes'; scopes: ParsedScope[] }
  | { kind: 'external'; name: string }
  | { kind: 'builtin' };

const MODULE_FILES = new Set(['mod', 'lib', 'main']);
const MAX_DEPTH = 24;

/**
 * Rust: crates from Cargo.toml (`src/lib.rs`/`src/main.rs`, `src/bin/*`, `tests/`, `examples/`,
 * `benches/`; without a manifest, the directory holding `src/`), the module tree by file layout
 * (`a.rs` or `a/mod.rs` is module `a`, inline `mod a { }` too), `use` paths (`crate::`, `super::`,
 * `self::`, other crates of the repository by name, globs, `pub use` re-exports), paths in code through
 * modules, types and their members (`impl` members attached to their type wherever the impl is),
 * `self`/typed locals/fields/call results (`-> T`) for `x.m()`. `impl Trait for Type` is IMPLEMENTS,
 * supertraits EXTENDS. Paths into `std`/`core`/`alloc` and the prelude are `builtin`; other crates
 * `external` (named). Calling a closure or a `Fn`-typed parameter is `dynamic`; a method call
 * through `dyn Trait`, `impl Trait` or `T: Trait` lands on the trait's item (OVERRIDES lead on to
 * the implementations).
 */
export class RustResolver implements FamilyResolver {
  private readonly modules = new Map<string, Module>();
  /** Module of every file scope and inline module scope, by scope id. */
  private readonly moduleOfScope = new Map<string, Module>();
  private readonly cratesByName = new Map<string, Crate>();
  private readonly lookupMemo = new Map<string, Entity[] | null>();
  /** Lookups under way (key -> nesting level) and the outermost level a cycle reached back to (see inModule). */
  private readonly open = new Map<string, number>();
  private cycleAt = Infinity;
  private readonly typing = new Set<string>();
  private readonly methodsByCrate = new Map<Crate, Map<string, ParsedScope[]>>();

  constructor(private readonly c: ResolverContext) {}

  // ---- module tree ---------------------------------------------------------------------------

  prepare(envs: FileEnv[]): void {
    const manifests = this.readManifests();
    const crates = new Map<string, Crate>();
    for (const env of envs) {
      const { crateKey, sharedKey, modPath, pkg } = this.locate(env.file.path, manifests);
      const crateOf = (key: string): Crate => {
        let crate = crates.get(key);
        if (!crate) {
          crate = { key, name: key.endsWith('/src') || key === 'src' ? pkg.name : null, pkg: pkg.name, deps: pkg.deps };
          crates.set(key, crate);
          if (crate.name && !this.cratesByName.has(crate.name)) this.cratesByName.set(crate.name, crate);
        }
        return crate;
      };
      const crate = crateOf(crateKey);
      if (sharedKey) crate.shared = crateOf(sharedKey);
      const m = this.module(crate, modPath);
      m.scopes.push(env.fileScope);
      this.moduleOfScope.set(env.fileScope.id, m);
      // inline modules, outermost first (scopes come in source order)
      for (const s of env.file.scopes) {
        if (s.kind !== 'module') continue;
        const parent = s.parentId ? this.moduleOfScope.get(s.parentId) : undefined;
        if (!parent) continue;
        const inner = this.module(crate, [...parent.path, s.name]);
        inner.scopes.push(s);
        this.moduleOfScope.set(s.id, inner);
      }
    }
    // `use` tables, before anything is looked up
    for (const env of envs) {
      for (const imp of env.file.imports) {
        if (imp.isNamespace) continue; // `mod foo;`: the file layout already made the module
        const { m, spec } = this.importSite(env, imp);
        if (!m) continue;
        const parts = spec.split('::').filter(Boolean);
        const name = imp.names[0];
        if (!name) continue;
        if (name.local === '*') {
          m.globs.push({ parts: parts.slice(0, -1), module: m });
          continue;
        }
        const list = m.uses.get(name.local);
        const entry = { parts, module: m };
        if (list) list.push(entry);
        else m.uses.set(name.local, [entry]);
      }
    }
    // `impl` members join their type, wherever it is declared
    for (const env of envs) {
      for (const s of env.file.scopes) {
        if (!s.owner) continue;
        const holder = s.parentId ? this.c.t.scopes.get(s.parentId) : undefined;
        if (!holder) continue;
        for (const type of this.types(s.owner, holder, env)) this.c.t.addMember(type, s);
      }
    }
  }

  /** `impl Trait for Type`: IMPLEMENTS (and OVERRIDES for enums, which the shared pass leaves to classes). */
  afterHeritage(envs: FileEnv[]): void {
    for (const env of envs) {
      for (const s of env.file.scopes) {
        if (s.kind !== 'file' && s.kind !== 'module') continue;
        const bindings = this.c.t.memberBindings.get(s.id);
        if (!bindings) continue;
        for (const [name, self] of bindings) {
          if (!name.startsWith(IMPL_PREFIX)) continue;
          const trait = name.slice(IMPL_PREFIX.length, name.length - self.length - ' for '.length);
          const traits = this.types(trait, s, env).filter((t) => t.kind === 'trait');
          if (!traits.length) continue;
          for (const type of this.types(self, s, env)) {
            for (const tr of traits) this.c.addHeritage(type, tr, 'IMPLEMENTS', undefined, 'fast');
            if (type.kind !== 'enum') continue;
            for (const list of this.c.t.children.get(type.id)?.values() ?? []) {
              for (const m of list) {
                if (m.kind !== 'method') continue;
                for (const t of this.c.findMember(traits, m.name)) if (t.kind === 'method') this.c.out.addEdge(m.id, t.id, 'OVERRIDES', m.startLine, 'fast');
              }
            }
          }
        }
      }
    }
  }

  addImport(env: FileEnv, imp: RawImport): void {
    const { m, spec } = this.importSite(env, imp);
    if (!m) return;
    if (imp.isNamespace) {
      const sub = this.submodule(m, spec.replace(/^mod\s+/, ''));
      const files = sub?.scopes.filter((s) => s.kind === 'file') ?? [];
      if (!files.length) this.c.link(env, imp, { kind: 'missing' });
      for (const f of files) this.c.link(env, imp, { kind: 'file', path: f.path });
      return;
    }
    const parts = spec.split('::').filter(Boolean);
    const target = imp.names[0]?.local === '*' ? parts.slice(0, -1) : parts;
    const ents = this.resolvePath(target, m, 0);
    const paths = new Set<string>();
    for (const e of ents) {
      if (e.kind === 'module') for (const s of e.m.scopes) paths.add(s.path);
      else if (e.kind === 'scopes') for (const s of e.scopes) paths.add(s.path);
      else if (e.kind === 'external') {
        this.c.link(env, imp, { kind: 'external', name: e.name });
        return;
      } else {
        this.c.link(env, imp, { kind: 'external', name: STD_CRATES.has(target[0]) ? target[0] : 'std' });
        return;
      }
    }
    if (!paths.size) this.c.link(env, imp, { kind: 'missing' });
    for (const p of [...paths].sort()) this.c.link(env, imp, { kind: 'file', path: p });
  }

  // ---- lookups -------------------------------------------------------------------------------

  resolve(written: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    // `a::b::f` is a path (modules, types), never a local's field: look it up as one
    const isPath = written[0].includes('::');
    const parts = isPath ? [...written[0].split('::'), ...written.slice(1)] : written;
    if (isPath) wantType = true;
    const head = parts[0];
    const rest = parts.slice(1);
    if (head.includes('+')) {
      // `T::f()` with `T: A + B` (the extractor wrote the bounds in place of T)
      const types = this.types(head, from, env);
      return types.length ? this.walkTypes(types, rest, env, kinds) : { reason: this.typeReason(head, from, env) };
    }
    if (!wantType) {
      const local = this.c.localBinding(head, from);
      if (local !== null) {
        if (!rest.length) return { reason: local === FN_VALUE || local.startsWith(UNTYPED) ? 'dynamic' : 'not-found' };
        if (local === FN_VALUE) return { reason: 'dynamic' };
        const types = this.types(local, from, env);
        if (!types.length) {
          const reason = this.typeReason(local, from, env);
          if (reason !== 'unknown-receiver' || rest.length !== 1) return { reason };
          if (isStdOnlyMethod(rest[0])) return { reason: 'builtin' };
          return this.onlyMethod(rest[0], from, kinds) ?? { reason };
        }
        return this.walkTypes(types, rest, env, kinds);
      }
      // functions nested in enclosing functions
      for (let s: ParsedScope | undefined = from; s && s.kind !== 'file' && s.kind !== 'module'; s = this.c.t.parent(s)) {
        if (!FUNCTION_LIKE.has(s.kind)) continue;
        const fns = this.c.t.childrenNamed(s, head.replace(/\(\)$/, '')).filter((x) => !x.owner && x.kind === 'function');
        if (fns.length) return this.walkEntities([{ kind: 'scopes', scopes: fns }], parts, 1, env, kinds, head.endsWith('()'));
      }
    }
    const m = this.moduleOf(from);
    if (!m) return { reason: 'not-found' };
    const call = head.endsWith('()');
    const first = this.first(call ? head.slice(0, -2) : head, m, false);
    if (!first.length) {
      const reason = this.reasonFor(head.replace(/\(\)$/, ''), m, env);
      return { reason: reason === 'not-found' && rest.length ? 'unknown-receiver' : reason };
    }
    return this.walkEntities(first, parts, 1, env, kinds, call);
  }

  types(typeName: string, ctx: ParsedScope, env: FileEnv, depth = 0): ParsedScope[] {
    if (depth > 4 || typeName === FN_VALUE || typeName === GENERIC || typeName.startsWith(UNTYPED)) return [];
    // `let x = x.next()` and friends: a binding typed through itself has no type
    const key = `${ctx.id}\u0000${typeName}`;
    if (this.typing.has(key)) return [];
    this.typing.add(key);
    try {
      return this.typesOf(typeName, ctx, env, depth);
    } finally {
      this.typing.delete(key);
    }
  }

  private typesOf(typeName: string, ctx: ParsedScope, env: FileEnv, depth: number): ParsedScope[] {
    if (typeName.includes(ALTERNATIVE)) return [...new Set(typeName.split(ALTERNATIVE).flatMap((t) => this.types(t, ctx, env, depth + 1)))];
    if (typeName.startsWith(VALUE_PREFIX)) {
      const out = this.valueOutcome(typeName, ctx, env, depth);
      return Array.isArray(out) ? out : [];
    }
    if (typeName.startsWith(VARIANT_PREFIX)) {
      // `Enum.Variant`: the enum's recorded payload type of `Variant()`
      const path = typeName.slice(VARIANT_PREFIX.length);
      const dot = path.lastIndexOf('.');
      const out: ParsedScope[] = [];
      for (const e of this.types(path.slice(0, dot), ctx, env, depth + 1)) {
        const payload = e.kind === 'enum' ? this.c.t.memberBindings.get(e.id)?.get(`${path.slice(dot + 1)}()`) : undefined;
        if (payload) out.push(...this.types(payload, e, this.envOf(e), depth + 1));
      }
      return out;
    }
    // `T: A + B`: a value of T has the members of every bound
    if (typeName.includes('+')) return [...new Set(typeName.split('+').flatMap((t) => this.types(t, ctx, env, depth + 1)))];
    const m = this.moduleOf(ctx);
    if (!m) return [];
    const ents = this.typeEntities(typeName, m);
    const out: ParsedScope[] = [];
    for (const e of ents) {
      if (e.kind !== 'scopes') continue;
      for (const s of e.scopes) {
        if (s.kind === 'type_alias') out.push(...this.dealias(s, depth + 1));
        else if (TYPE_LIKE.has(s.kind)) out.push(s);
      }
    }
    return [...new Set(out)];
  }

  /** The types of a value a local was initialised from (see VALUE_PREFIX), or why there are none. */
  private valueOutcome(typeName: string, ctx: ParsedScope, env: FileEnv, depth: number): ParsedScope[] | UnresolvedReason {
    const key = `v\u0000${ctx.id}\u0000${typeName}`;
    if (depth > 4 || this.typing.has(key)) return 'unknown-receiver';
    this.typing.add(key);
    try {
      return this.valueOutcomeOf(typeName, ctx, env, depth);
    } finally {
      this.typing.delete(key);
    }
  }

  private valueOutcomeOf(typeName: string, ctx: ParsedScope, env: FileEnv, depth: number): ParsedScope[] | UnresolvedReason {
    const path = typeName.slice(VALUE_PREFIX.length);
    const parts = path.split('.');
    if (path.endsWith('()')) {
      parts[parts.length - 1] = parts[parts.length - 1].slice(0, -2);
      const out = this.resolve(parts, ctx, env, CALLABLE, false);
      if (!('targets' in out)) return out.reason;
      const types = this.resultTypes(out.targets, depth + 1);
      return types.length ? types : (this.resultReason(out.targets) ?? types);
    }
    if (parts.length === 1) {
      const local = this.c.localBinding(path, ctx);
      return local && local !== typeName ? this.types(local, ctx, env, depth + 1) : 'unknown-receiver';
    }
    const out = this.resolve(parts, ctx, env, TYPE_LIKE, false);
    return 'targets' in out ? out.targets.filter((t) => TYPE_LIKE.has(t.kind)) : out.reason;
  }

  /** An alias as a path step: its in-repo type, or the standard library / dependency it names. */
  private aliasEntities(alias: ParsedScope): Entity[] {
    const types = this.dealias(alias);
    if (types.length !== 1 || types[0] !== alias) return [{ kind: 'scopes', scopes: types }];
    const target = this.c.t.memberBindings.get(alias.id)?.get(ALIAS_BINDING);
    const m = this.moduleOf(alias);
    const r = target && m ? this.reasonOf(this.typeEntities(target, m)) : null;
    return r === 'builtin' ? [{ kind: 'builtin' }] : r === 'external' ? [{ kind: 'external', name: target!.split('.')[0] }] : [];
  }

  /** The type an alias names (the alias itself when that is not in the repository). */
  private dealias(alias: ParsedScope, depth = 0): ParsedScope[] {
    const target = this.c.t.memberBindings.get(alias.id)?.get(ALIAS_BINDING);
    const aliased = target ? this.types(target, alias, this.envOf(alias), depth + 1) : [];
    return aliased.length ? aliased : [alias];
  }

  /**
   * `x.m()` where nothing says what `x` is (a closure's or a loop's variable, a `match` binding): the
   * crate's only method named `m`, when there is exactly one and the standard library has no method
   * of that name. Rust code calls methods on inferred types all the time; a name declared once in
   * the crate is that method in practice (the sample in the report measures how often). Tests,
   * examples and binaries count their package library's methods too. A name several types declare
   * is still taken when exactly one trait declares it and every other declaration implements that
   * trait: the call lands on the trait's item, as a call through `dyn Trait` does.
   */
  private onlyMethod(name: string, from: ParsedScope | undefined, kinds: ReadonlySet<ScopeKind>): Outcome | undefined {
    if (!from || isStdMethod(name) || !kinds.has('method')) return undefined;
    const m = this.moduleOf(from);
    if (!m) return undefined;
    const byName = this.onlyMethodTable(m.crate);
    const found = [...(byName.get(name) ?? []), ...(m.crate.name ? [] : this.libMethods(m.crate, name))];
    if (found.length === 1) return { targets: found };
    // one trait declares `m` and every other method so named implements that trait: the call is
    // through the trait whatever the receiver (OVERRIDES lead on to the implementations)
    const items = found.filter((x) => this.c.t.parent(x)?.kind === 'trait');
    if (items.length !== 1) return undefined;
    const trait = this.c.t.parent(items[0])!.name;
    const viaTrait = (x: ParsedScope) => {
      const tr = this.c.t.memberBindings.get(x.id)?.get(TRAIT_BINDING);
      return !!tr && tr.slice(tr.lastIndexOf('.') + 1) === trait;
    };
    return found.every((x) => x === items[0] || viaTrait(x)) ? { targets: items } : undefined;
  }

  /** Methods named `name` of the package's library, seen from its tests, examples, benches and binaries. */
  private libMethods(crate: Crate, name: string): ParsedScope[] {
    const lib = crate.pkg ? this.cratesByName.get(crate.pkg) : undefined;
    if (!lib || lib === crate) return [];
    return this.onlyMethodTable(lib).get(name) ?? [];
  }

  /** Methods of a crate by name. */
  private onlyMethodTable(crate: Crate): Map<string, ParsedScope[]> {
    let byName = this.methodsByCrate.get(crate);
    if (!byName) {
      byName = new Map();
      for (const mod of this.modules.values()) {
        if (mod.crate !== crate) continue;
        for (const s of mod.scopes) {
          const env = this.c.envs.get(s.path);
          if (!env || s.kind !== 'file') continue;
          for (const x of env.file.scopes) if (x.kind === 'method') byName.set(x.name, [...(byName.get(x.name) ?? []), x]);
        }
      }
      this.methodsByCrate.set(crate, byName);
    }
    return byName;
  }

  /** What a type path written in module `m` denotes. */
  private typeEntities(typeName: string, m: Module): Entity[] {
    const parts = typeName.split('.');
    let ents = this.first(parts[0], m, true);
    for (let i = 1; i < parts.length && ents.length; i++) ents = this.step(ents, parts[i]);
    return ents;
  }

  /** The types the targets of a call give: declared return types, or the struct/enum constructed. */
  private resultTypes(targets: ParsedScope[], depth: number): ParsedScope[] {
    const out: ParsedScope[] = [];
    for (const t of targets) {
      if (TYPE_LIKE.has(t.kind)) {
        out.push(t);
        continue;
      }
      const ret = this.c.t.memberBindings.get(t.id)?.get(RETURN_BINDING);
      if (ret) out.push(...this.types(ret, t, this.envOf(t), depth));
    }
    return [...new Set(out)];
  }

  /**
   * Why calls give no in-repo type: every callee declares a return type of the standard library
   * (`-> &[Bucket]` is a slice) or of one dependency; null when some return type is unknown.
   */
  private resultReason(targets: ParsedScope[]): UnresolvedReason | null {
    const reasons = new Set<UnresolvedReason>();
    for (const t of targets) {
      const ret = TYPE_LIKE.has(t.kind) ? undefined : this.c.t.memberBindings.get(t.id)?.get(RETURN_BINDING);
      if (!ret || ret.startsWith(VALUE_PREFIX) || ret === GENERIC || ret === FN_VALUE || ret.startsWith(UNTYPED)) return null;
      const m = this.moduleOf(t);
      const r = m ? this.reasonOf(this.typeEntities(ret, m)) : null;
      if (r !== 'builtin' && r !== 'external') return null;
      reasons.add(r);
    }
    return reasons.size === 1 ? [...reasons][0] : null;
  }

  /** Why `x.m()` through a local typed `typeName` found no type. */
  private typeReason(typeName: string, from: ParsedScope, env: FileEnv): UnresolvedReason {
    if (typeName === FN_VALUE || typeName === GENERIC) return 'dynamic';
    if (typeName.includes(ALTERNATIVE)) {
      // every alternative outside the repository for the same reason: that reason
      const reasons = new Set(typeName.split(ALTERNATIVE).map((t) => this.typeReason(t, from, env)));
      return reasons.size === 1 ? [...reasons][0] : 'unknown-receiver';
    }
    if (typeName.startsWith(UNTYPED)) return 'unknown-receiver';
    if (typeName.startsWith(VALUE_PREFIX)) {
      const out = this.valueOutcome(typeName, from, env, 0);
      if (!Array.isArray(out)) return out === 'builtin' || out === 'external' || out === 'dynamic' ? out : 'unknown-receiver';
      return 'unknown-receiver';
    }
    const m = this.moduleOf(from);
    if (!m) return 'unknown-receiver';
    const known = this.reasonOf(this.typeEntities(typeName, m));
    if (known) return known;
    const r = this.reasonFor(typeName.split('.')[0], m, env);
    return r === 'not-found' ? 'unknown-receiver' : r;
  }

  /** Follow `parts[i..]` from entities; `call`: the previous segment was called (`a.b().c`). */
  private walkEntities(ents: Entity[], parts: string[], i: number, env: FileEnv, kinds: ReadonlySet<ScopeKind>, call: boolean): Outcome {
    let cur = ents;
    let called = call;
    for (; i < parts.length; i++) {
      if (called) {
        const scopes = cur.flatMap((e) => (e.kind === 'scopes' ? e.scopes : []));
        const types = this.resultTypes(scopes, 0);
        if (!types.length) {
          const known = this.reasonOf(cur) ?? this.resultReason(scopes);
          if (known) return { reason: known };
          const seg = parts[i].replace(/\(\)$/, '');
          if (isStdOnlyMethod(seg)) return { reason: 'builtin' };
          return (i === parts.length - 1 ? this.onlyMethod(seg, scopes[0], kinds) : undefined) ?? { reason: 'unknown-receiver' };
        }
        cur = [{ kind: 'scopes', scopes: types }];
      }
      let seg = parts[i];
      called = seg.endsWith('()');
      if (called) seg = seg.slice(0, -2);
      const ext = this.reasonOf(cur);
      if (ext) return { reason: ext };
      // `x.f.g()`: `f` is a field (a method would be written `f()`), the last segment a method
      const next = this.step(cur, seg, !called && i < parts.length - 1);
      if (!next.length) {
        const owners = cur.flatMap((e) => (e.kind === 'scopes' ? e.scopes : []));
        // an enum's variant: constructing one is a use of the enum
        if (i === parts.length - 1 && owners.some((o) => o.kind === 'enum')) return { targets: owners.filter((o) => o.kind === 'enum') };
        if (isStdMethod(seg)) return { reason: 'builtin' };
        if (owners.some((o) => this.c.unresolvedBase.has(o.id))) return { reason: 'external' };
        return { reason: i === parts.length - 1 ? 'not-found' : 'unknown-receiver' };
      }
      cur = next;
    }
    const ext = this.reasonOf(cur);
    if (ext) return { reason: ext };
    const targets = [...new Set(cur.flatMap((e) => (e.kind === 'scopes' ? e.scopes : e.kind === 'module' ? e.m.scopes.filter((s) => s.kind === 'module') : [])))];
    const ok = targets.filter((t) => accepts(kinds, t.kind));
    return ok.length ? { targets: this.inherentFirst(ok) } : { reason: 'not-found' };
  }

  /** `x.m()` where the type has an inherent `m` and a trait impl's `m`: Rust calls the inherent one. */
  private inherentFirst(targets: ParsedScope[]): ParsedScope[] {
    if (targets.length < 2) return targets;
    const fromTrait = (t: ParsedScope) => !!this.c.t.memberBindings.get(t.id)?.has(TRAIT_BINDING);
    const byOwner = new Map<string, ParsedScope[]>();
    for (const t of targets) {
      const k = `${t.owner ?? t.parentId}\u0000${t.name}`;
      byOwner.set(k, [...(byOwner.get(k) ?? []), t]);
    }
    const out: ParsedScope[] = [];
    for (const group of byOwner.values()) {
      const inherent = group.filter((t) => !fromTrait(t));
      out.push(...(inherent.length ? inherent : group));
    }
    return out;
  }

  private walkTypes(types: ParsedScope[], rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    return this.walkEntities([{ kind: 'scopes', scopes: types }], ['', ...rest], 1, env, kinds, false);
  }

  private reasonOf(ents: Entity[]): UnresolvedReason | null {
    if (ents.length && ents.every((e) => e.kind === 'dynamic')) return 'dynamic';
    if (ents.length && ents.every((e) => e.kind === 'builtin')) return 'builtin';
    if (ents.length && ents.every((e) => e.kind === 'external' || e.kind === 'builtin')) return 'external';
    return null;
  }

  /** One path segment further: a module's item, a type's member (or a typed field's type). */
  private step(ents: Entity[], seg: string, field = false): Entity[] {
    const out: Entity[] = [];
    const types: ParsedScope[] = [];
    for (const e of ents) {
      if (e.kind === 'module') out.push(...this.inModule(e.m, seg, 0));
      else if (e.kind === 'external' || e.kind === 'builtin' || e.kind === 'dynamic') out.push(e);
      else {
        for (const s of e.scopes) {
          const m = s.kind === 'module' ? this.moduleOfScope.get(s.id) : undefined;
          if (m) out.push(...this.inModule(m, seg, 0));
          else if (s.kind === 'type_alias') out.push(...this.step(this.aliasEntities(s), seg));
          else types.push(s);
        }
      }
    }
    if (types.length) {
      const fieldType = this.c.memberBinding(types, seg);
      const members = field && fieldType ? [] : this.c.findMember(types, seg);
      if (members.length) out.push({ kind: 'scopes', scopes: members });
      else {
        const field = fieldType;
        if (field) {
          const ft = this.types(field, types[0], this.envOf(types[0]));
          if (ft.length) out.push(...ft.flatMap((t): Entity[] => (t.kind === 'type_alias' ? this.aliasEntities(t) : [{ kind: 'scopes', scopes: [t] }])));
          else if (field === GENERIC || field === FN_VALUE) out.push({ kind: 'dynamic' });
          else if (field !== UNTYPED) {
            const m = this.moduleOf(types[0]);
            const r = m ? this.reasonOf(this.typeEntities(field, m)) : null;
            if (r) out.push(r === 'builtin' ? { kind: 'builtin' } : { kind: 'external', name: field.split('.')[0] });
          }
        }
      }
    }
    return out;
  }

  /** The first segment of a path seen from module `m`: its items and uses, then crates. */
  private first(name: string, m: Module, wantType: boolean): Entity[] {
    if (name === 'crate') return [{ kind: 'module', m: this.module(m.crate, []) }];
    if (name === 'self') return [{ kind: 'module', m }];
    if (name === 'super') return m.path.length ? [{ kind: 'module', m: this.module(m.crate, m.path.slice(0, -1)) }] : [];
    const own = this.inModule(m, name, 0);
    if (own.length) return own;
    // `#[macro_export]` and textually scoped macros: any macro of the crate by that name
    if (name.endsWith('!')) {
      const macros = this.cratesMacros(m.crate, name, m);
      if (macros.length) return [{ kind: 'scopes', scopes: macros }];
    }
    const crate = this.cratesByName.get(name);
    if (crate) return [{ kind: 'module', m: this.module(crate, []) }];
    if (isRustBuiltin(name)) return [{ kind: 'builtin' }];
    if (m.crate.deps.has(name)) return [{ kind: 'external', name }];
    void wantType;
    return [];
  }

  /** Items of a module named `name`: declarations, submodules, `use`d names and glob imports. */
  private inModule(m: Module, name: string, depth: number): Entity[] {
    const key = `${m.key}\u0000${name}`;
    const memo = this.lookupMemo.get(key);
    if (memo !== undefined) {
      if (memo === null) this.cycleAt = Math.min(this.cycleAt, this.open.get(key)!);
      return memo ?? [];
    }
    if (depth > MAX_DEPTH) return [];
    this.lookupMemo.set(key, null); // a cycle of globs or re-exports finds nothing
    const level = this.open.size;
    this.open.set(key, level);
    try {
      const out = this.inModuleOf(m, name, depth);
      // an answer that met a lookup still open further out is provisional (that lookup was not done
      // yet): kept only by the outermost lookup of the cycle, so `visit::Dfs` found through
      // `pub use self::traversal::*` after a glob that leads back to `visit` is still found later
      if (this.cycleAt < level) this.lookupMemo.delete(key);
      else {
        this.lookupMemo.set(key, out);
        this.cycleAt = Infinity;
      }
      return out;
    } finally {
      this.open.delete(key);
    }
  }

  private inModuleOf(m: Module, name: string, depth: number): Entity[] {
    const out: Entity[] = [];
    const scopes: ParsedScope[] = [];
    for (const s of m.scopes) for (const c of this.c.t.childrenNamed(s, name)) if (!c.owner && c.kind !== 'file') scopes.push(c);
    const sub = this.submodule(m, name);
    // a module and a function may share a name (`mod dfs; pub use dfs::dfs;`): keep both namespaces
    if (scopes.length) out.push({ kind: 'scopes', scopes });
    if (sub) out.push({ kind: 'module', m: sub });
    if (!scopes.length) {
      for (const u of m.uses.get(name) ?? []) out.push(...this.resolvePath(u.parts, u.module, depth + 1));
    }
    if (!out.length) {
      for (const g of m.globs) {
        for (const e of this.resolvePath(g.parts, g.module, depth + 1)) {
          if (e.kind === 'module') out.push(...this.inModule(e.m, name, depth + 1));
          else if (e.kind === 'scopes') {
            // `use Enum::*` brings variants (not scopes); `use Type::*` nothing callable by name
            for (const s of e.scopes) {
              const inner = s.kind === 'module' ? this.moduleOfScope.get(s.id) : undefined;
              if (inner) out.push(...this.inModule(inner, name, depth + 1));
            }
          }
        }
        if (out.length) break;
      }
    }
    return out;
  }

  /** A `use` path from module `m`. */
  private resolvePath(parts: string[], m: Module, depth: number): Entity[] {
    if (!parts.length) return [{ kind: 'module', m }];
    if (depth > MAX_DEPTH) return [];
    let ents: Entity[];
    let i = 1;
    if (parts[0] === 'crate') ents = [{ kind: 'module', m: this.module(m.crate, []) }];
    else if (parts[0] === 'self') ents = [{ kind: 'module', m }];
    else if (parts[0] === 'super') {
      let p = m.path;
      for (i = 0; i < parts.length && parts[i] === 'super'; i++) p = p.slice(0, -1);
      ents = [{ kind: 'module', m: this.module(m.crate, p) }];
    } else {
      // a path's prefix is in the type namespace: a function named like a crate (`fn indexmap()`
      // next to `use indexmap::IndexMap`) does not hide the crate
      const own = parts.length > 1 ? pathPrefixes(this.inModule(m, parts[0], depth + 1)) : this.inModule(m, parts[0], depth + 1);
      const sub = parts.length > 1 ? this.submodule(m, parts[0]) : undefined;
      if (own.length) ents = own;
      // `pub use dfs::dfs;` looked up while `dfs` itself is being looked up (a cycle finds nothing): the submodule
      else if (sub) ents = [{ kind: 'module', m: sub }];
      else if (this.cratesByName.has(parts[0])) ents = [{ kind: 'module', m: this.module(this.cratesByName.get(parts[0])!, []) }];
      else if (STD_CRATES.has(parts[0]) || isRustBuiltin(parts[0])) ents = [{ kind: 'builtin' }];
      // a `use` path starts with a crate or a name in scope: anything else is a dependency
      else ents = [{ kind: 'external', name: parts[0] }];
    }
    for (; i < parts.length && ents.length; i++) ents = this.step(ents, parts[i]);
    return ents;
  }

  private reasonFor(head: string, m: Module, env: FileEnv): UnresolvedReason {
    if (isRustBuiltin(head)) return 'builtin';
    if (m.crate.deps.has(head)) return 'external';
    return this.c.reasonFor(head, env);
  }

  /**
   * Macros are scoped by text, not by path: a `macro_rules!` of this module or an enclosing one, or a
   * `#[macro_export]`ed one anywhere in the crate.
   */
  private cratesMacros(crate: Crate, name: string, from: Module): ParsedScope[] {
    const out: ParsedScope[] = [];
    for (let p = from.path; ; p = p.slice(0, -1)) {
      const m = this.modules.get(this.key(crate, p));
      if (m) for (const s of m.scopes) for (const c of this.c.t.childrenNamed(s, name)) if (c.kind === 'function') out.push(c);
      if (out.length || !p.length) break;
    }
    if (out.length) return out;
    for (const m of this.modules.values()) {
      if (m.crate !== crate) continue;
      for (const s of m.scopes) for (const c of this.c.t.childrenNamed(s, name)) if (c.kind === 'function' && c.exported) out.push(c);
    }
    return out;
  }

  // ---- crates and modules --------------------------------------------------------------------

  private moduleOf(s: ParsedScope): Module | undefined {
    for (let p: ParsedScope | undefined = s; p; p = this.c.t.parent(p)) {
      if (p.kind === 'file' || p.kind === 'module') {
        const m = this.moduleOfScope.get(p.id);
        if (m) return m;
      }
    }
    return undefined;
  }

  private envOf(s: ParsedScope): FileEnv {
    return this.c.envs.get(s.path)!;
  }

  /** The module an import statement belongs to (inline modules prefix the specifier: `tests|super::*`). */
  private importSite(env: FileEnv, imp: RawImport): { m: Module | undefined; spec: string } {
    const fileModule = this.moduleOfScope.get(env.fileScope.id);
    const bar = imp.specifier.indexOf('|');
    if (bar < 0 || !fileModule) return { m: fileModule, spec: imp.specifier };
    const inner = imp.specifier.slice(0, bar).split('::');
    return { m: this.modules.get(this.key(fileModule.crate, [...fileModule.path, ...inner])) ?? fileModule, spec: imp.specifier.slice(bar + 1) };
  }

  private submodule(m: Module, name: string): Module | undefined {
    return this.modules.get(this.key(m.crate, [...m.path, name]))
      ?? (m.crate.shared && !m.path.length ? this.modules.get(this.key(m.crate.shared, [name])) : undefined);
  }

  private key(crate: Crate, path: string[]): string {
    return `${crate.key}::${path.join('::')}`;
  }

  private module(crate: Crate, path: string[]): Module {
    const key = this.key(crate, path);
    let m = this.modules.get(key);
    if (!m) this.modules.set(key, (m = { key, crate, path, scopes: [], uses: new Map(), globs: [] }));
    return m;
  }

  private readManifests(): Map<string, { name: string | null; deps: Set<string> }> {
    const out = new Map<string, { name: string | null; deps: Set<string> }>();
    for (const [path, text] of Object.entries(this.c.manifests)) {
      if (!path.endsWith('Cargo.toml')) continue;
      out.set(dirname(path), parseCargoToml(text));
    }
    return out;
  }

  /** The crate a file belongs to and its module path, by Cargo's layout. */
  private locate(path: string, manifests: Map<string, { name: string | null; deps: Set<string> }>): {
    crateKey: string; sharedKey?: string; modPath: string[]; pkg: { name: string | null; deps: Set<string> };
  } {
    let dir: string | null = null;
    for (const d of manifests.keys()) {
      if ((d === '' || path.startsWith(`${d}/`)) && (dir === null || d.length > dir.length)) dir = d;
    }
    if (dir === null) {
      const i = path.lastIndexOf('/src/');
      dir = path.startsWith('src/') ? '' : i >= 0 ? path.slice(0, i) : dirname(path);
    }
    const pkg = manifests.get(dir) ?? { name: crateNameOf(dir), deps: new Set<string>() };
    const rel = (dir ? path.slice(dir.length + 1) : path).replace(/\.rs$/, '').split('/');
    const prefix = dir ? `${dir}/` : '';
    let crateKey: string;
    let mod: string[];
    if (rel[0] === 'src' && rel[1] === 'bin' && rel.length > 2) {
      crateKey = `${prefix}src/bin/${rel[2]}`;
      mod = rel.slice(3);
    } else if (rel[0] === 'src') {
      crateKey = `${prefix}src`;
      mod = rel.slice(1);
    } else if (rel.length > 1 && (rel[0] === 'tests' || rel[0] === 'examples' || rel[0] === 'benches')) {
      if (rel.length === 2 || (rel.length === 3 && rel[2] === 'main')) {
        // `tests/it.rs` or `tests/it/main.rs`: a crate root
        return { crateKey: `${prefix}${rel[0]}/${rel[1]}`, sharedKey: `${prefix}${rel[0]}`, modPath: [], pkg };
      }
      crateKey = `${prefix}${rel[0]}`;
      mod = rel.slice(1);
    } else {
      crateKey = `${prefix}src`;
      mod = rel;
    }
    if (mod.length && MODULE_FILES.has(mod[mod.length - 1])) {
      // `lib.rs`/`main.rs` are the crate root only at its top; `a/mod.rs` is module `a`
      if (mod.length === 1 || mod[mod.length - 1] === 'mod') mod = mod.slice(0, -1);
    }
    return { crateKey, modPath: mod, pkg };
  }
}

/** Entities a path can continue from: modules, types, dependencies (not functions, consts or statics). */
function pathPrefixes(ents: Entity[]): Entity[] {
  return ents.flatMap((e): Entity[] => {
    if (e.kind !== 'scopes') return [e];
    const scopes = e.scopes.filter((s) => s.kind !== 'function' && s.kind !== 'variable');
    return scopes.length ? [{ kind: 'scopes', scopes }] : [];
  });
}

const CALLABLE = new Set<ScopeKind>(['function', 'method', 'constructor', 'struct', 'enum', 'variable']);

/** Kinds a reference may land on: what the shared resolver asks for, plus traits as bases and enums as constructors. */
function accepts(kinds: ReadonlySet<ScopeKind>, kind: ScopeKind): boolean {
  if (kinds.has(kind)) return true;
  if (kind === 'enum' || kind === 'union') return kinds.has('function') || kinds.has('struct');
  if (kind === 'trait') return kinds.has('interface');
  return false;
}

function crateNameOf(dir: string): string | null {
  const base = dir.slice(dir.lastIndexOf('/') + 1).replace(/-\d+(\.\d+)*.*$/, '');
  return base ? base.replace(/-/g, '_') : null;
}

/** Package name and dependency names of a Cargo.toml (a line-level reading: enough for names). */
export function parseCargoToml(text: string): { name: string | null; deps: Set<string> } {
  let section = '';
  let name: string | null = null;
  const deps = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      section = header[1];
      const dotted = /(?:^|\.)(?:dev-|build-)?dependencies\.([A-Za-z0-9_-]+)$/.exec(section);
      if (dotted) deps.add(dotted[1].replace(/-/g, '_'));
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    if (section === 'package' && kv[1] === 'name') name = kv[2].replace(/^["']|["']$/g, '').replace(/-/g, '_');
    else if (/(?:^|\.)(?:dev-|build-)?dependencies$/.test(section)) {
      deps.add(kv[1].replace(/-/g, '_'));
      // `foo = { package = "bar" }` is still used as `foo`
    }
  }
  return { name, deps };
}
