import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { FamilyResolver, FileEnv, FUNCTION_LIKE, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { push } from '../../resolve/symbol-table';
import type { UnresolvedReason } from '../../resolve/types';
import { FUNCTIONAL_INTERFACES, IMPLICIT_METHODS, isJavaBuiltin, isPlatformPackage } from './builtins';
import { OVERLOAD_PARAMS, RETURNS } from './extractor';
import { pickOverloads, Relate, sameParameters, simpleNames } from './overloads';

/** Scopes that own members and nested types (enums too, unlike the shared CLASS_LIKE). */
const OWNER_KINDS = new Set<ScopeKind>(['class', 'interface', 'enum', 'record']);
const TYPE_KINDS = new Set<ScopeKind>(['class', 'interface', 'enum', 'record']);

/** What one Java file sees besides its own package. */
interface JavaFileState {
  pkg: string;
  /** `import a.b.C;` -> C -> repository types. */
  single: Map<string, ParsedScope[]>;
  /** `import a.b.*;` of the repository's packages (or of a type's nested types). */
  onDemand: string[];
  /** `import static a.b.C.m;` -> m -> repository types declaring it. */
  staticSingle: Map<string, ParsedScope[]>;
  /** `import static a.b.C.*;` of repository types. */
  staticOnDemand: ParsedScope[];
  /** Names imported from outside the repository: simple name -> builtin (java.*) or external. */
  outside: Map<string, 'builtin' | 'external'>;
  /** Reason for type names that may come from on-demand imports outside the repository. */
  outsideWildcard: 'builtin' | 'external' | null;
  /** Reason for method names that may come from static on-demand imports outside the repository. */
  outsideStatic: 'builtin' | 'external' | null;
}

/**
 * Java: each file's package (its `namespace` scope), then types by fully qualified name
 * (`com.acme.Outer.Inner`). A simple type name is looked up in the enclosing types (nested and
 * inherited member types), the file, single-type imports, the file's package (other files of the same
 * package see each other without imports), on-demand imports, then as a fully qualified name.
 * Imports of repository types link to their files (IMPORTS); `java.*`/`javax.*` ones make the names
 * builtin, others external. `new T()` lands on T's constructors (the class when it declares none).
 */
export class JavaResolver implements FamilyResolver {
  /** Repository types by fully qualified name (package + qualified name). */
  private readonly byFqn = new Map<string, ParsedScope[]>();
  /** Files per package. */
  private readonly pkgFiles = new Map<string, Set<string>>();
  /** EXTENDS / IMPLEMENTS names as written, per file and declaring type. */
  private readonly heritageByFile = new Map<string, Map<string, string[]>>();
  /** Files declaring a public top-level type. */
  private readonly publicTypeFiles = new Set<string>();

  constructor(private readonly c: ResolverContext) {}

  /** A method overrides the base methods of its name with its parameter types, not the other overloads. */
  overrides(method: ParsedScope, candidates: ParsedScope[]): ParsedScope[] {
    const params = (s: ParsedScope) => this.c.t.localBindings.get(s.id)?.get(OVERLOAD_PARAMS);
    const mine = params(method);
    if (mine === undefined) return candidates;
    return candidates.filter((c) => {
      const theirs = params(c);
      return theirs === undefined || sameParameters(mine, theirs);
    });
  }

  prepare(envs: FileEnv[]): void {
    for (const env of envs) {
      const nsScope = env.file.scopes.find((s) => s.kind === 'namespace' && s.parentId === env.fileScope.id);
      const pkg = nsScope?.qualifiedName ?? '';
      env.state = {
        pkg, single: new Map(), onDemand: [], staticSingle: new Map(), staticOnDemand: [], outside: new Map(), outsideWildcard: null, outsideStatic: null,
      } satisfies JavaFileState;
      let files = this.pkgFiles.get(pkg);
      if (!files) this.pkgFiles.set(pkg, (files = new Set()));
      files.add(env.file.path);
      for (const s of env.file.scopes) {
        if (!TYPE_KINDS.has(s.kind) || !this.isMemberType(s)) continue;
        push(this.byFqn, pkg ? `${pkg}.${s.qualifiedName}` : s.qualifiedName, s);
        if (s.exported && !s.qualifiedName.includes('.')) this.publicTypeFiles.add(env.file.path);
      }
    }
  }

  addImport(env: FileEnv, imp: RawImport): void {
    const st = state(env);
    const spec = imp.specifier;
    const name = imp.names[0]?.imported ?? '*';
    const platform = isPlatformPackage(`${spec}.`);
    const outsideReason = platform ? 'builtin' : 'external';
    if (imp.isStatic) {
      const types = this.byFqn.get(spec);
      if (types?.length) {
        if (name === '*') st.staticOnDemand.push(...types);
        else for (const t of types) push(st.staticSingle, name, t);
        this.linkTypes(env, imp, types);
        return;
      }
      if (name === '*') st.outsideStatic = widen(st.outsideStatic, outsideReason);
      else st.outside.set(name, outsideReason);
      this.c.link(env, imp, { kind: 'external', name: spec });
      return;
    }
    if (name === '*') {
      const files = this.pkgFiles.get(spec);
      const types = this.byFqn.get(spec);
      if (files?.size || types?.length) {
        st.onDemand.push(spec);
        // the package's files that declare a public type: only those types are imported
        for (const p of [...(files ?? [])].sort()) {
          if (p !== env.file.path && this.publicTypeFiles.has(p)) this.c.link(env, imp, { kind: 'file', path: p });
        }
        if (types?.length) this.linkTypes(env, imp, types);
        return;
      }
      st.outsideWildcard = widen(st.outsideWildcard, outsideReason);
      this.c.link(env, imp, { kind: 'external', name: spec });
      return;
    }
    const types = this.byFqn.get(spec);
    if (types?.length) {
      st.single.set(name, types);
      this.linkTypes(env, imp, types);
      return;
    }
    st.outside.set(name, outsideReason);
    this.c.link(env, imp, { kind: 'external', name: spec });
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const out = this.lookup(parts, from, env, kinds, wantType);
    if (!('targets' in out) || out.targets.length < 2 || !kinds.has('constructor')) return out;
    const picked = pickOverloads(this.c.t, out.targets, from, parts.join('.'), this.relate(from, env));
    return picked ? { targets: picked } : { reason: 'ambiguous' };
  }

  private lookup(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    if (parts.some((p) => p.endsWith('()'))) return this.chained(parts, from, env, kinds);
    const head = parts[0];
    const rest = parts.slice(1);
    const calling = kinds.has('constructor');
    if (head === 'this') {
      const type = this.enclosingType(from);
      if (!type) return { reason: 'unknown-receiver' };
      // `this(...)`: another constructor of the class (never the calling one itself)
      if (!rest.length) return this.c.finish(this.c.constructorsOf([type]).filter((x) => x.id !== from.id), kinds, 'not-found');
      return this.members([type], rest, env, kinds);
    }
    if (head === 'super') {
      const out = this.c.superRef(from, rest, env, kinds);
      if ('reason' in out && out.reason === 'not-found' && !rest.length) return { reason: 'builtin' }; // Object's constructor
      return 'reason' in out ? { reason: this.implicit(rest, out.reason) } : out;
    }
    const st = state(env);
    let bareReason: UnresolvedReason | null = null;
    let outsideBase: UnresolvedReason | null = null;
    if (!wantType || rest.length) {
      // 1. parameters and locals (a bare `f()` is always a method: Java keeps methods and variables apart)
      const local = rest.length ? this.c.localBinding(head, from) : null;
      if (local) return this.typed(local, from, rest, env, kinds);
      // 2. methods of anonymous classes and members of the enclosing types (with their bases), innermost first
      outsideBase = null;
      for (let s: ParsedScope | undefined = from; s && s.kind !== 'file' && s.kind !== 'namespace'; s = this.c.t.parent(s)) {
        if (FUNCTION_LIKE.has(s.kind) && s.id !== from.id && !rest.length) {
          const fns = this.c.t.childrenNamed(s, head).filter((x) => x.kind === 'method');
          if (fns.length) return { targets: fns };
        } else if (OWNER_KINDS.has(s.kind)) {
          if (rest.length) {
            // a field before a member type of the same name (JLS 6.5.2)
            const field = this.field([s], head);
            if (field) return this.typed(field.type, field.owner, rest, env, kinds);
            const nestedTypes = this.c.findMember([s], head).filter((m) => TYPE_KINDS.has(m.kind));
            if (nestedTypes.length) return this.members(nestedTypes, rest, env, kinds);
          } else {
            const methods = this.methods([s], head);
            if (methods.length) return { targets: methods };
          }
          outsideBase ??= this.outsideBase([s]);
        }
      }
      // 3. static imports
      const statics = this.lookupStatic(env, head);
      if (statics) {
        if (rest.length) {
          const field = this.field(statics, head);
          if (field) return this.typed(field.type, field.owner, rest, env, kinds);
        } else {
          const methods = this.methods(statics, head);
          if (methods.length) return { targets: methods };
        }
      }
      // a static field imported from outside (`import static java.nio.charset.StandardCharsets.UTF_8`)
      const outside = st.outside.get(head);
      if (rest.length && outside) return { reason: outside };
      if (!rest.length) bareReason = st.outside.get(head) ?? outsideBase ?? (isJavaBuiltin(head) ? 'builtin' : st.outsideStatic);
    }
    // 4. types (longest qualified prefix), then their static members / nested types
    for (let k = parts.length; k >= 1; k--) {
      const types = this.typesOf(parts.slice(0, k), from, env);
      if (!types.length) continue;
      if (k === parts.length) return calling && !wantType ? this.finishCall(types, kinds, true) : this.c.finish(types, kinds, 'not-found');
      return this.members(types, parts.slice(k), env, kinds);
    }
    if (!rest.length && !wantType) return { reason: bareReason ?? this.reasonForType(head, env, false) };
    // a field inherited from a base outside the repository (`out.println()` in a subclass of a library class)
    if (rest.length && outsideBase && /^[a-z_$]/.test(head)) return { reason: outsideBase };
    return { reason: this.fqnReason(parts) ?? this.reasonForType(head, env, rest.length > 0) };
  }

  types(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    return this.typesOf(typeName.split('.'), ctx, env);
  }

  // ---------------------------------------------------------------- lookups

  /** `x.m().n`: from the declared return types of what `x.m` names, segment by segment. */
  private chained(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const k = parts.findIndex((p) => p.endsWith('()'));
    // each inner call is a call site of its own (`x.m` in `x.m().n`): its arguments pick its overload
    const inner = (j: number) => [...parts.slice(0, j), parts[j].slice(0, -2)];
    const first = this.lookup(inner(k), from, env, kinds, false);
    if ('reason' in first) return { reason: first.reason === 'not-found' ? 'unknown-receiver' : first.reason };
    const relate = this.relate(from, env);
    let cur = this.returnTypes(pickOverloads(this.c.t, first.targets, from, inner(k).join('.'), relate) ?? first.targets);
    for (let i = k + 1; ; ) {
      if ('reason' in cur) return cur;
      const j = parts.findIndex((p, idx) => idx >= i && p.endsWith('()'));
      if (j < 0) return this.members(cur.targets, parts.slice(i), env, kinds);
      const step = this.members(cur.targets, [...parts.slice(i, j), parts[j].slice(0, -2)], env, kinds);
      if ('reason' in step) return { reason: step.reason === 'not-found' ? 'unknown-receiver' : step.reason };
      cur = this.returnTypes(pickOverloads(this.c.t, step.targets, from, inner(j).join('.'), relate) ?? step.targets);
      i = j + 1;
    }
  }

  /** Argument and parameter types that both name repository types, related through the resolved bases. */
  private relate(from: ParsedScope, env: FileEnv): Relate {
    return (arg, param, callee) => {
      const args = this.types(arg, from, env);
      const calleeEnv = this.c.envs.get(callee.path);
      const params = args.length && calleeEnv ? this.types(param, callee, calleeEnv) : [];
      if (!args.length) return undefined;
      if (!params.length) return this.outsideSupertype(args, param);
      const wanted = new Set(params.map((p) => p.id));
      if (args.some((a) => wanted.has(a.id))) return 2;
      for (const cur of this.ancestors(args)) if (wanted.has(cur.id)) return 1;
      return 0;
    };
  }

  /**
   * Can a repository type be passed where an outside type is declared? Yes when one of its bases
   * names that type as written (`implements Runnable`), unknown when a base is outside the
   * repository, no otherwise (`Object` aside).
   */
  private outsideSupertype(args: ParsedScope[], param: string): number | undefined {
    const simple = param.slice(param.lastIndexOf('.') + 1);
    if (simple === 'Object') return 1;
    let outside = false;
    for (const a of this.ancestors(args)) {
      const refs = this.heritageRefs(a);
      if (refs.some((r) => r.slice(r.lastIndexOf('.') + 1) === simple)) return 1;
      if (refs.length > (this.c.extendsOf.get(a.id)?.length ?? 0) + (this.c.implementsOf.get(a.id)?.length ?? 0)) outside = true;
    }
    return outside ? undefined : 0;
  }

  /** The EXTENDS / IMPLEMENTS names a type's declaration writes. */
  private heritageRefs(type: ParsedScope): string[] {
    let byScope = this.heritageByFile.get(type.path);
    if (!byScope) {
      byScope = new Map();
      for (const r of this.c.envs.get(type.path)?.file.references ?? []) {
        if (r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS') push(byScope, r.fromId, r.targetName);
      }
      this.heritageByFile.set(type.path, byScope);
    }
    return byScope.get(type.id) ?? [];
  }

  /** The types the methods return, each resolved in the file declaring the method. */
  private returnTypes(methods: ParsedScope[]): Outcome {
    const out = new Set<ParsedScope>();
    let reason: UnresolvedReason = 'unknown-receiver';
    for (const m of methods) {
      const ret = this.c.t.localBindings.get(m.id)?.get(RETURNS);
      const declEnv = this.c.envs.get(m.path);
      if (!ret || !declEnv) continue;
      const types = this.types(ret, m, declEnv);
      if (types.length) for (const t of types) out.add(t);
      else reason = this.reasonForType(ret.split('.')[0], declEnv, true);
    }
    return out.size ? { targets: [...out] } : { reason };
  }

  /** `x.rest` where x is declared with `typeName`. */
  private typed(typeName: string, ctx: ParsedScope, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    // the type name is written where the variable is declared (an inherited field: another file)
    const declEnv = this.c.envs.get(ctx.path) ?? env;
    const types = this.types(typeName, ctx, declEnv);
    if (!types.length) {
      const simple = typeName.slice(typeName.lastIndexOf('.') + 1);
      if (rest.length === 1 && FUNCTIONAL_INTERFACES.has(simple)) return { reason: 'dynamic' };
      return { reason: this.reasonForType(typeName.split('.')[0], declEnv, true) };
    }
    return this.members(types, rest, env, kinds);
  }

  /**
   * Follow `rest` from `owners`: a field continues from its declared type (fields are bindings, some
   * also `property` scopes), a member type from itself; the last name is a member (or, called, a
   * member type's constructors). What Object, enums and records bring is builtin.
   */
  private members(owners: ParsedScope[], rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    let cur = owners;
    for (let i = 0; i < rest.length - 1; i++) {
      const name = rest[i];
      const field = this.field(cur, name);
      if (field) {
        const declEnv = this.c.envs.get(field.owner.path) ?? env;
        const types = this.types(field.type, field.owner, declEnv);
        if (!types.length) {
          const simple = field.type.slice(field.type.lastIndexOf('.') + 1);
          if (i === rest.length - 2 && FUNCTIONAL_INTERFACES.has(simple)) return { reason: 'dynamic' };
          return { reason: this.reasonForType(field.type.split('.')[0], declEnv, true) };
        }
        cur = types;
        continue;
      }
      const nestedTypes = this.c.findMember(cur, name).filter((m) => TYPE_KINDS.has(m.kind));
      if (!nestedTypes.length) return { reason: this.outsideBase(cur) ?? 'unknown-receiver' };
      cur = nestedTypes;
    }
    const name = rest[rest.length - 1];
    const methods = this.methods(cur, name);
    const found = methods.length ? methods : this.c.findMember(cur, name);
    if (found.length) return this.finishCall(found, kinds, kinds.has('constructor'));
    if (IMPLICIT_METHODS.has(name) || this.isRecordComponent(cur, name)) return { reason: 'builtin' };
    return { reason: this.outsideBase(cur) ?? 'not-found' };
  }

  /** `x.toString()` on a repository type that does not declare it: java.lang.Object's. */
  private implicit(rest: string[], reason: UnresolvedReason): UnresolvedReason {
    return reason === 'not-found' && rest.length && IMPLICIT_METHODS.has(rest[rest.length - 1]) ? 'builtin' : reason;
  }

  /**
   * Methods named `name` of the owners and their bases: Java inherits overloads, so every level
   * counts (unlike `findMember`, which stops at the nearest level); an override hides the method
   * with the same parameter types further up.
   */
  private methods(owners: ParsedScope[], name: string): ParsedScope[] {
    const seen = new Set<string>();
    const signatures = new Set<string>();
    const out: ParsedScope[] = [];
    let level = owners;
    for (let depth = 0; depth < 12 && level.length; depth++) {
      const next: ParsedScope[] = [];
      const found: ParsedScope[] = [];
      for (const o of level) {
        if (seen.has(o.id)) continue;
        seen.add(o.id);
        for (const m of this.c.t.childrenNamed(o, name)) if (m.kind === 'method') found.push(m);
        next.push(...(this.c.extendsOf.get(o.id) ?? []), ...(this.c.implementsOf.get(o.id) ?? []));
      }
      const here = new Set<string>();
      for (const m of found) {
        const written = this.c.t.localBindings.get(m.id)?.get(OVERLOAD_PARAMS);
        const sig = written === undefined ? undefined : simpleNames(written);
        if (sig !== undefined && signatures.has(sig)) continue;
        if (sig !== undefined) here.add(sig);
        out.push(m);
      }
      for (const sig of here) signatures.add(sig);
      level = next;
    }
    return out;
  }

  /** The declared type of a field named `name` of the owners or their bases, with the type declaring it. */
  private field(owners: ParsedScope[], name: string): { type: string; owner: ParsedScope } | null {
    const seen = new Set<string>();
    let level = owners;
    for (let depth = 0; depth < 12 && level.length; depth++) {
      const next: ParsedScope[] = [];
      for (const o of level) {
        if (seen.has(o.id)) continue;
        seen.add(o.id);
        const type = this.c.t.memberBindings.get(o.id)?.get(name);
        if (type) return { type, owner: o };
        next.push(...(this.c.extendsOf.get(o.id) ?? []), ...(this.c.implementsOf.get(o.id) ?? []));
      }
      level = next;
    }
    return null;
  }

  private isRecordComponent(owners: ParsedScope[], name: string): boolean {
    return owners.some((o) => o.kind === 'record' && this.c.t.memberBindings.get(o.id)?.has(name));
  }

  /** A call that lands on a type is `new T()`: T's constructors, or T itself when it declares none. */
  private finishCall(targets: ParsedScope[], kinds: ReadonlySet<ScopeKind>, calling: boolean): Outcome {
    if (!calling) return this.c.finish(targets, kinds, 'not-found');
    const types = targets.filter((t) => TYPE_KINDS.has(t.kind));
    const rest = targets.filter((t) => !TYPE_KINDS.has(t.kind));
    return this.c.finish([...rest, ...this.c.constructorsOf(types)], kinds, 'not-found');
  }

  private lookupStatic(env: FileEnv, name: string): ParsedScope[] | undefined {
    const st = state(env);
    const single = st.staticSingle.get(name);
    if (single?.length) return single;
    const hits = st.staticOnDemand.filter((t) => this.c.findMember([t], name).length);
    return hits.length ? hits : undefined;
  }

  /** Why a name that no lookup found is not in the repository. */
  private reasonForType(head: string, env: FileEnv, receiver: boolean): UnresolvedReason {
    const st = state(env);
    const r = st.outside.get(head);
    if (r) return r;
    if (isJavaBuiltin(head)) return 'builtin';
    // an upper-case name no repository type has, with on-demand imports from outside: from them
    if (st.outsideWildcard && /^[A-Z]/.test(head)) return st.outsideWildcard;
    return receiver ? 'unknown-receiver' : 'not-found';
  }

  /** `org.slf4j.LoggerFactory.getLogger`: a fully qualified name whose package the repository lacks. */
  private fqnReason(parts: string[]): UnresolvedReason | null {
    const k = parts.findIndex((p) => /^[A-Z]/.test(p));
    if (k < 1 || parts.slice(0, k).some((p) => !/^[a-z_][a-z0-9_]*$/.test(p))) return null;
    const pkg = parts.slice(0, k).join('.');
    if (this.pkgFiles.has(pkg)) return null;
    return isPlatformPackage(`${pkg}.`) ? 'builtin' : 'external';
  }

  /** The reason inherited members are missing: the nearest base outside the repository. */
  private outsideBase(owners: ParsedScope[]): UnresolvedReason | null {
    for (const cur of this.ancestors(owners)) {
      const r = this.c.unresolvedBase.get(cur.id);
      if (r) return r === 'unknown-receiver' ? 'not-found' : r;
    }
    return null;
  }

  /** The types and their resolved bases, breadth first, each once. */
  private *ancestors(types: ParsedScope[]): Generator<ParsedScope> {
    const seen = new Set<string>();
    const queue = [...types];
    while (queue.length) {
      const cur = queue.shift()!;
      if (seen.has(cur.id)) continue;
      seen.add(cur.id);
      yield cur;
      queue.push(...(this.c.extendsOf.get(cur.id) ?? []), ...(this.c.implementsOf.get(cur.id) ?? []));
    }
  }

  /** Types named by a dotted name seen from `from`. */
  private typesOf(parts: string[], from: ParsedScope, env: FileEnv): ParsedScope[] {
    const head = this.simpleType(parts[0], from, env);
    if (head.length) return this.nested(head, parts.slice(1));
    // fully qualified: the longest prefix that names a repository type, then nested types
    for (let k = parts.length; k >= 2; k--) {
      const hit = this.byFqn.get(parts.slice(0, k).join('.'));
      if (hit?.length) return this.nested(hit, parts.slice(k));
    }
    // a type of an on-demand imported package / type's nested types
    return [];
  }

  private nested(types: ParsedScope[], rest: string[]): ParsedScope[] {
    let cur = types;
    for (const name of rest) {
      cur = this.c.findMember(cur, name).filter((m) => TYPE_KINDS.has(m.kind));
      if (!cur.length) return [];
    }
    return cur;
  }

  private simpleType(name: string, from: ParsedScope, env: FileEnv): ParsedScope[] {
    // enclosing types: themselves, their member types, inherited member types; local classes
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.c.t.parent(s)) {
      if (s.name === name && TYPE_KINDS.has(s.kind)) return [s];
      if (OWNER_KINDS.has(s.kind)) {
        const hit = this.c.findMember([s], name).filter((m) => TYPE_KINDS.has(m.kind));
        if (hit.length) return hit;
      } else {
        const hit = this.c.t.childrenNamed(s, name).filter((m) => TYPE_KINDS.has(m.kind));
        if (hit.length) return hit;
      }
    }
    const st = state(env);
    const single = st.single.get(name);
    if (single?.length) return single;
    const own = this.byFqn.get(st.pkg ? `${st.pkg}.${name}` : name);
    if (own?.length) return own;
    const found: ParsedScope[] = [];
    for (const p of st.onDemand) found.push(...(this.byFqn.get(`${p}.${name}`) ?? []));
    if (found.length && new Set(found.map((f) => f.qualifiedName)).size === 1) return found;
    // member types brought in by static imports (`import static a.B.*` makes B's nested types visible)
    const statics = this.lookupStatic(env, name);
    if (statics) return this.c.findMember(statics, name).filter((m) => TYPE_KINDS.has(m.kind));
    return [];
  }

  private enclosingType(s: ParsedScope): ParsedScope | null {
    for (let p: ParsedScope | undefined = s; p; p = this.c.t.parent(p)) if (OWNER_KINDS.has(p.kind)) return p;
    return null;
  }

  /** Types declared in a type or at the top of a file (local classes have no qualified name). */
  private isMemberType(s: ParsedScope): boolean {
    for (let p = this.c.t.parent(s); p; p = this.c.t.parent(p)) {
      if (p.kind === 'file' || p.kind === 'namespace') return true;
      if (!OWNER_KINDS.has(p.kind)) return false;
    }
    return true;
  }

  private linkTypes(env: FileEnv, imp: RawImport, types: ParsedScope[]): void {
    for (const p of new Set(types.map((t) => t.path))) if (p !== env.file.path) this.c.link(env, imp, { kind: 'file', path: p });
  }
}

function state(env: FileEnv): JavaFileState {
  return env.state as JavaFileState;
}

/** Several on-demand imports from outside: external wins (the platform's names are mostly known). */
function widen(cur: 'builtin' | 'external' | null, next: 'builtin' | 'external'): 'builtin' | 'external' {
  return cur === 'external' || next === 'external' ? 'external' : 'builtin';
}
