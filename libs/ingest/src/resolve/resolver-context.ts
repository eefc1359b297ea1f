import type { Language, ParsedFile, ParsedScope, RawImport, RawReference, ScopeKind } from '../parse/types';
import type { ModuleTarget } from './module-resolver';
import { MissList } from './miss-list';
import { CLASS_LIKE, push, SymbolTable } from './symbol-table';
import type { EdgeType, FileImportLink, RefOutcome, ResolvedEdge, ResolverName, ResolveOptions, ResolveResult, UnresolvedReason, UnresolvedRef } from './types';

export const FUNCTION_LIKE = new Set<ScopeKind>(['function', 'method', 'constructor', 'property']);

/**
 * A resolution family (`js`, `py`, `cs`, `sql`, `go`...): files of one family resolve names by the same
 * rules. Each language plugin (../languages) names its family.
 */
export type Family = string;

/** What a name denotes while resolving. */
export type Denotation =
  | { scopes: ParsedScope[] }
  | { module: string }
  | { external: string };

export interface ImportedName {
  target: ModuleTarget;
  /** Name in the target module; '*' for the module itself. */
  imported: string;
}

/** What a file brings into scope, filled by its family's import handling. */
export interface FileEnv {
  file: ParsedFile;
  fileScope: ParsedScope;
  fam: Family;
  /** local name -> imported binding (TS/JS named/default/namespace imports, Python imports). */
  imported: Map<string, ImportedName>;
  /** Python `from x import *` targets. */
  wildcards: ModuleTarget[];
  /** TS/JS re-exports. */
  reexports: { target: ModuleTarget; names: RawImport['names'] }[];
  /** C#: `using` namespaces and aliases. */
  usings: string[];
  aliases: Map<string, string>;
  /** TS/JS file with no import or export: its declarations are script globals. */
  isScript: boolean;
  /** A family's own per-file state (what its imports brought in, its package...), owned by its resolver. */
  state?: unknown;
}

export type Outcome = { targets: ParsedScope[] } | { reason: UnresolvedReason; origin?: string };

/** One language family's name resolution over the shared context. */
export interface FamilyResolver {
  /** Records what one import/using statement brings into the file (and its IMPORTS edges). */
  addImport(env: FileEnv, imp: RawImport): void;
  /** A dotted name used in `from`; `wantType`: the reference names a type (C# looks types up first then). */
  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome;
  /** The scopes a declared type name stands for, seen from `ctx`. */
  types(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[];
  /** Optional: called once per file of the family after every file is in `ctx.envs`, before any import. */
  indexFile?(env: FileEnv): void;
  /**
   * Optional: called once with every file of the family after all files are indexed and before imports:
   * package tables, members declared outside their type's body (Go receivers, Rust `impl`, C++ `A::f`)
   * attached with `ctx.t.addMember`.
   */
  prepare?(envs: FileEnv[]): void;
  /** Optional: the edge a resolved base-list entry makes (C#: `: IFoo` is IMPLEMENTS when IFoo is an interface). */
  heritageEdge?(from: ParsedScope, to: ParsedScope, written: 'EXTENDS' | 'IMPLEMENTS'): EdgeType;
  /**
   * Optional: called after every written EXTENDS/IMPLEMENTS is resolved and before OVERRIDES and other
   * references: relationships the language leaves implicit (Go's interface satisfaction by method sets),
   * recorded with `ctx.addHeritage`.
   */
  afterHeritage?(envs: FileEnv[]): void;
  /**
   * Optional: of the same-named members of a method's bases, the ones it overrides (Java: those with
   * its parameter types, not every overload). Without it, all of them.
   */
  overrides?(method: ParsedScope, candidates: ParsedScope[]): ParsedScope[];
}

/** Edges, unresolved references, import links and (for benchmarks) per-reference outcomes. */
export class ResolveOutput {
  /**
   * Edges in the order they were first added, and for finding an edge again the last one added from
   * each source scope (keyed by the parse's own id string) with, per edge, the one added before it
   * from the same scope (-1: none). A key per edge (source, target and type joined) was a new string
   * for each of millions of edges: the largest thing resolution held at a million scopes.
   */
  private readonly edges: ResolvedEdge[] = [];
  private readonly lastFrom = new Map<string, number>();
  private previous = new Int32Array(1024);
  private readonly unresolved = new MissList();
  private readonly fileImports: FileImportLink[] = [];
  private readonly outcomes: RefOutcome[] | undefined;
  /** Second thoughts on the name-based resolver's misses (see unresolved-reasons.ts), set by the resolver. */
  refineMiss?: (r: RawReference, reason: UnresolvedReason) => { reason: UnresolvedReason; origin?: string };

  constructor(private readonly t: SymbolTable, collectOutcomes: boolean) {
    this.outcomes = collectOutcomes ? [] : undefined;
  }

  /** An import statement's target, and the IMPORTS edge when it is another file of the repository. */
  link(env: FileEnv, imp: RawImport, target: ModuleTarget, fileScopeOf: (path: string) => ParsedScope | undefined): void {
    const base = { fromPath: env.file.path, specifier: imp.specifier, line: imp.line };
    if (target.kind === 'file') {
      this.fileImports.push({ ...base, toPath: target.path });
      const to = fileScopeOf(target.path);
      if (to && to.id !== env.fileScope.id) this.addEdge(env.fileScope.id, to.id, 'IMPORTS', imp.line);
    } else if (target.kind === 'external') {
      this.fileImports.push({ ...base, external: target.name });
    } else if (target.kind === 'missing') {
      this.fileImports.push({ ...base, missing: true });
    }
  }

  /** `guessed`: the name-based resolver chose this target among several candidates. */
  addEdge(fromId: string, toId: string, type: EdgeType, line?: number, resolver?: ResolverName, guessed?: boolean): void {
    const last = this.lastFrom.get(fromId);
    let e: ResolvedEdge | undefined;
    for (let k = last ?? -1; k >= 0 && !e; k = this.previous[k]) if (this.edges[k].toId === toId && this.edges[k].type === type) e = this.edges[k];
    if (!e) {
      // Made whole in one literal: properties added one by one after it would go to a second store.
      const edge: ResolvedEdge = line === undefined
        ? resolver ? { fromId, toId, type, resolver } : { fromId, toId, type }
        : !resolver ? { fromId, toId, type, line } : guessed && resolver === 'fast' ? { fromId, toId, type, line, resolver, guessed: true } : { fromId, toId, type, line, resolver };
      if (guessed && resolver === 'fast' && line === undefined) edge.guessed = true;
      const k = this.edges.push(edge) - 1;
      if (k === this.previous.length) {
        const grown = new Int32Array(k * 2);
        grown.set(this.previous);
        this.previous = grown;
      }
      this.previous[k] = last ?? -1;
      this.lastFrom.set(fromId, k);
      return;
    }
    if (line !== undefined && (e.line === undefined || line < e.line)) e.line = line;
    // Several references may yield one edge: it is as strong as the strongest backing (SCIP, the compiler, a unique name).
    if (resolver === 'scip' || (resolver === 'precise' && e.resolver !== 'scip')) e.resolver = resolver;
    if (!guessed || e.resolver !== 'fast') delete e.guessed;
  }

  miss(r: RawReference, reason: UnresolvedReason, resolver: ResolverName = 'fast', origin?: string): void {
    // a family's own origin (a C# type from a using) stands unless the imports name a package
    if (resolver === 'fast' && this.refineMiss) ({ reason, origin } = { origin, ...this.refineMiss(r, reason) });
    // The scope's own id string: a reference read back from the spill carries a copy of it per reference.
    const fromId = this.t.scopes.get(r.fromId)?.id ?? r.fromId;
    this.unresolved.push({ fromId, type: r.kind, targetName: r.targetName, line: r.line, reason, resolver, ...(origin ? { origin } : {}) });
    this.outcomes?.push({ ref: r, path: this.t.scopes.get(r.fromId)?.path ?? '', resolver, reason });
  }

  hit(r: RawReference, targets: ParsedScope[], resolver: ResolverName): void {
    this.outcomes?.push({ ref: r, path: this.t.scopes.get(r.fromId)?.path ?? '', resolver, targetIds: targets.map((t) => t.id) });
  }

  /** Everything, or what leaves the files `kept` accepts (edges and misses by their source scope's file). */
  result(kept?: (path: string) => boolean): ResolveResult {
    if (!kept) {
      return {
        edges: this.edges,
        unresolved: this.unresolved,
        fileImports: this.fileImports,
        ...(this.outcomes ? { outcomes: this.outcomes } : {}),
      };
    }
    const from = (id: string) => kept(this.t.scopes.get(id)?.path ?? '');
    return {
      edges: this.edges.filter((e) => from(e.fromId)),
      unresolved: this.unresolved.select(from),
      fileImports: this.fileImports.filter((i) => kept(i.fromPath)),
      ...(this.outcomes ? { outcomes: this.outcomes.filter((o) => kept(o.path)) } : {}),
    };
  }
}

/**
 * What every family's resolution shares: the symbol table, each file's environment, the resolved
 * class hierarchy, and the lookups that follow members, bases and declared types. Type names are
 * resolved by the family of the file they are written in.
 */
export class ResolverContext {
  readonly envs = new Map<string, FileEnv>();
  /** Resolved EXTENDS / IMPLEMENTS targets per scope id. */
  readonly extendsOf = new Map<string, ParsedScope[]>();
  readonly implementsOf = new Map<string, ParsedScope[]>();
  /** Classes whose heritage the fast resolver decided (at least in part): their OVERRIDES are `fast`. */
  readonly fastHeritage = new Set<string>();
  /** Classes with an EXTENDS that did not resolve (base from a package...): reason per class id. */
  readonly unresolvedBase = new Map<string, UnresolvedReason>();
  private readonly families = new Map<Family, FamilyResolver>();
  /** Python names the repository declares or assigns (pyDeclares / pyAssigns), built on first use. */
  private pyNames?: { declared: Set<string>; assigned: Set<string> };

  constructor(
    readonly t: SymbolTable,
    /** Every parsed path of the repository (what module resolution may land on). */
    readonly paths: ReadonlySet<string>,
    /** The run's options (tsconfig paths, Python roots...: what the plugins' module rules read). */
    readonly options: ResolveOptions,
    readonly out: ResolveOutput,
    /** Standard-library and language names of the plugins' own lists (LanguagePlugin.isBuiltin). */
    private readonly pluginBuiltin: (language: Language, head: string) => boolean = () => false,
    /** Contents of the plugins' manifest files (go.mod, composer.json...) by repo-relative path. */
    readonly manifests: Readonly<Record<string, string>> = {},
  ) {}

  /**
   * Python: does some scope of the repository carry this name, or some import bind it (a checker
   * follows `import x as y` to the imported declaration)? When none does, no resolver can make the
   * name an in-repo edge: a type checker's answer is a declaration, and it names a scope only when
   * the declaration's name is that scope's. Read after every file's imports are recorded (run()).
   */
  pyDeclares(name: string): boolean {
    return this.pythonNames().declared.has(name);
  }

  /** Python: is this name assigned a value somewhere (a local, parameter, module or instance variable)? */
  pyAssigns(name: string): boolean {
    return this.pythonNames().assigned.has(name);
  }

  private pythonNames(): { declared: Set<string>; assigned: Set<string> } {
    if (this.pyNames) return this.pyNames;
    const declared = new Set<string>();
    const assigned = new Set<string>();
    for (const env of this.envs.values()) {
      if (env.fam !== 'py') continue;
      for (const s of env.file.scopes) if (s.kind !== 'file') declared.add(s.name);
      for (const local of env.imported.keys()) declared.add(local.slice(local.lastIndexOf('.') + 1));
      // binding marks are `param x` / `value x` (py-unresolved.ts): the name is after the space
      for (const b of env.file.bindings ?? []) assigned.add(b.name.slice(b.name.lastIndexOf(' ') + 1));
    }
    return (this.pyNames = { declared, assigned });
  }

  register(fam: Family, resolver: FamilyResolver): void {
    this.families.set(fam, resolver);
  }

  /** A heritage relationship (EXTENDS or IMPLEMENTS) found by a family: edge, and member lookups through it. */
  addHeritage(from: ParsedScope, to: ParsedScope, type: 'EXTENDS' | 'IMPLEMENTS', line: number | undefined, resolver: ResolverName): void {
    if (from.id === to.id) return;
    if (resolver === 'fast') this.fastHeritage.add(from.id);
    push(type === 'EXTENDS' ? this.extendsOf : this.implementsOf, from.id, to);
    this.out.addEdge(from.id, to.id, type, line, resolver);
  }

  /** The resolver of a file's family (SQL files have none: their names are resolved as SQL). */
  familyOf(env: FileEnv): FamilyResolver | undefined {
    return this.families.get(env.fam);
  }

  link(env: FileEnv, imp: RawImport, target: ModuleTarget): void {
    this.out.link(env, imp, target, (path) => this.envs.get(path)?.fileScope);
  }

  /**
   * Follow `rest` member by member from `owners`: member scopes (methods, nested types, namespace and
   * object members, inherited ones), or typed fields/properties to continue from their type.
   */
  walk(owners: ParsedScope[], rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    let cur = owners;
    for (let i = 0; i < rest.length; i++) {
      const name = rest[i];
      const members = this.findMember(cur, name);
      if (members.length) {
        cur = members;
        continue;
      }
      const inheritedFromOutside = cur.some((c) => this.unresolvedBase.has(c.id));
      if (i === rest.length - 1) return { reason: inheritedFromOutside ? 'external' : 'not-found' };
      const field = this.memberBinding(cur, name);
      if (!field) return { reason: inheritedFromOutside ? 'external' : 'unknown-receiver' };
      const types = this.resolveTypeName(field, cur[0], env);
      if (!types.length) {
        const r = this.reasonFor(field.split('.')[0], env);
        return { reason: r === 'not-found' ? 'unknown-receiver' : r };
      }
      cur = types;
    }
    return this.finish(cur, kinds, 'not-found');
  }

  /** `x.rest` where x has a declared type. */
  typedWalk(typeName: string, ctx: ParsedScope, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const types = this.resolveTypeName(typeName, ctx, env);
    if (!types.length) {
      const r = this.reasonFor(typeName.split('.')[0], env);
      return { reason: r === 'not-found' ? 'unknown-receiver' : r };
    }
    return this.walk(types, rest, env, kinds);
  }

  /** `super(...)`, `super.m()`, `base.M()`, C# `: base(...)`. */
  superRef(from: ParsedScope, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const cls = this.enclosingClass(from);
    if (!cls) return { reason: 'not-found' };
    const bases = this.t.partsOf(cls).flatMap((p) => this.extendsOf.get(p.id) ?? []);
    if (!bases.length) return { reason: this.unresolvedBase.get(cls.id) ?? 'not-found' };
    if (!rest.length) return this.finish(this.constructorsOf(bases), kinds, 'not-found');
    return this.walk(bases, rest, env, kinds);
  }

  /** `this.rest` (and Python's `self`/`cls`): from the enclosing class. */
  thisRef(from: ParsedScope, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const cls = this.enclosingClass(from);
    if (!cls) return { reason: 'unknown-receiver' };
    return this.walk([cls], rest, env, kinds);
  }

  /** Children named `name` of the owners (all partial parts in C#), then of their bases, breadth first. */
  findMember(owners: ParsedScope[], name: string): ParsedScope[] {
    const seen = new Set<string>();
    let level = owners;
    for (let depth = 0; depth < 12 && level.length; depth++) {
      const found: ParsedScope[] = [];
      const next: ParsedScope[] = [];
      for (const o of level) {
        for (const part of this.t.partsOf(o)) {
          if (seen.has(part.id)) continue;
          seen.add(part.id);
          found.push(...this.t.childrenNamed(part, name));
          next.push(...(this.extendsOf.get(part.id) ?? []), ...(this.implementsOf.get(part.id) ?? []));
        }
      }
      if (found.length) return found;
      level = next;
    }
    return [];
  }

  /** Does `t` or any of its ancestors extend or implement something from outside the repository? */
  inheritsFromOutside(t: ParsedScope): boolean {
    const seen = new Set<string>();
    const stack = [t];
    while (stack.length) {
      const s = stack.pop()!;
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      if (this.unresolvedBase.has(s.id)) return true;
      stack.push(...(this.extendsOf.get(s.id) ?? []), ...(this.implementsOf.get(s.id) ?? []));
    }
    return false;
  }

  /** Declared type of a member field/property named `name` in the owners or their bases. */
  memberBinding(owners: ParsedScope[], name: string): string | null {
    const seen = new Set<string>();
    let level = owners;
    for (let depth = 0; depth < 12 && level.length; depth++) {
      const next: ParsedScope[] = [];
      for (const o of level) {
        for (const part of this.t.partsOf(o)) {
          if (seen.has(part.id)) continue;
          seen.add(part.id);
          const t = this.t.memberBindings.get(part.id)?.get(name);
          if (t) return t;
          next.push(...(this.extendsOf.get(part.id) ?? []), ...(this.implementsOf.get(part.id) ?? []));
        }
      }
      level = next;
    }
    return null;
  }

  /** Parameter / local binding of `name` in the enclosing function scopes. */
  localBinding(name: string, from: ParsedScope): string | null {
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.t.parent(s)) {
      if (!FUNCTION_LIKE.has(s.kind)) continue;
      const t = this.t.localBindings.get(s.id)?.get(name);
      if (t) return t;
    }
    return null;
  }

  fileBinding(name: string, env: FileEnv): string | null {
    return this.t.localBindings.get(env.fileScope.id)?.get(name) ?? null;
  }

  resolveTypeName(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    return this.familyOf(env)?.types(typeName, ctx, env) ?? [];
  }

  constructorsOf(classes: ParsedScope[]): ParsedScope[] {
    const out: ParsedScope[] = [];
    for (const c of classes) {
      const ctors: ParsedScope[] = [];
      for (const part of this.t.partsOf(c)) {
        for (const list of this.t.children.get(part.id)?.values() ?? []) for (const s of list) if (s.kind === 'constructor') ctors.push(s);
      }
      out.push(...(ctors.length ? ctors : [c]));
    }
    return out;
  }

  enclosingClass(s: ParsedScope): ParsedScope | null {
    for (let p: ParsedScope | undefined = s; p; p = this.t.parent(p)) {
      if (CLASS_LIKE.has(p.kind)) return p;
      // `this` inside an object literal's method is the object
      if (p.kind === 'variable' && p !== s) return p;
    }
    return null;
  }

  finish(targets: ParsedScope[], kinds: ReadonlySet<ScopeKind>, reason: UnresolvedReason): Outcome {
    const ok = targets.filter((t) => kinds.has(t.kind));
    return ok.length ? { targets: ok } : { reason };
  }

  /** Why a name that nothing in the repository declares was not resolved. */
  reasonFor(head: string, env: FileEnv): UnresolvedReason {
    const imp = env.imported.get(head);
    if (imp && imp.target.kind === 'external') return 'external';
    if (this.pluginBuiltin(env.file.language, head)) return 'builtin';
    // A C# alias names a namespace or type the repository does not declare.
    if (env.aliases.has(head)) return 'external';
    return 'not-found';
  }
}
