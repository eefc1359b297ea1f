import type { Language, ParsedFile, ParsedScope, RawImport, RawReference, ScopeKind } from '../parse/types';
import { isBuiltin } from './builtins';
import { csTypeLookup } from './csharp';
import { dirname, joinPath, ModuleResolver, ModuleTarget } from './module-resolver';
import { resolveSqlName } from './sql';
import { CLASS_LIKE, push, SymbolTable, TYPE_LIKE } from './symbol-table';
import type {
  EdgeType, FileImportLink, PreciseOutcome, RefOutcome, ResolvedEdge, ResolverName, ResolveOptions, ResolveResult,
  UnresolvedReason, UnresolvedRef,
} from './types';

const FUNCTION_LIKE = new Set<ScopeKind>(['function', 'method', 'constructor', 'property']);
// Variables and fields are callable: `export const isX = createPredicate(...)` holds a function.
const CALLABLE = new Set<ScopeKind>(['function', 'method', 'constructor', 'class', 'struct', 'record', 'property', 'variable']);
const HERITABLE = new Set<ScopeKind>(['class', 'interface', 'struct', 'record', 'type_alias']);
const REFERABLE = new Set<ScopeKind>([...TYPE_LIKE, 'namespace', 'variable']);

type Family = 'js' | 'py' | 'cs' | 'sql';

function family(l: Language): Family {
  switch (l) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return 'js';
    case 'python':
      return 'py';
    case 'csharp':
      return 'cs';
    default:
      return 'sql';
  }
}

/** What a name denotes while resolving. */
type Denotation =
  | { scopes: ParsedScope[] }
  | { module: string }
  | { external: string };

interface ImportedName {
  target: ModuleTarget;
  /** Name in the target module; '*' for the module itself. */
  imported: string;
}

interface FileEnv {
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
  isScript: boolean;
}

type Outcome = { targets: ParsedScope[] } | { reason: UnresolvedReason };

/**
 * Resolve raw references of a whole repository into edges between scopes.
 *
 * - IMPORTS (file -> file) for relative TS/JS imports (`./x` -> x.ts/x.tsx/x.js/x/index.ts..., `.js`
 *   specifiers mapped to `.ts`, tsconfig paths via options), Python relative/absolute imports (source roots
 *   detected from `__init__.py`), C# `using Ns;` -> every file declaring namespace `Ns`.
 * - CALLS / REFERENCES / EXTENDS / IMPLEMENTS: lexical scope first, then imports (following re-exports
 *   and `__init__.py` re-imports), then same-file declarations; `this.m()` / `self.m()` / `super.m()` /
 *   `base.M()` through the enclosing class and its resolved bases; `ns.f()` through namespace imports;
 *   `x.m()` through statically typed fields, parameters and `new`-initialised locals. C#: locals,
 *   members of enclosing types (with bases), then types of enclosing namespaces, `using`s and aliases.
 *   A bare name in a script file (no import/export) may resolve to a unique script-global declaration.
 * - C# base lists are corrected by target kind (class -> EXTENDS, interface -> IMPLEMENTS).
 * - SQL names (from SQL files and C# string literals) match case-insensitively on `schema.name`,
 *   default schema `dbo`, then on a unique bare name.
 * Anything else is returned in `unresolved` with a reason. Pure and synchronous.
 */
export function resolveRepository(files: ParsedFile[], opts: ResolveOptions = {}): ResolveResult {
  return new Resolver(files, opts).run();
}

class Resolver {
  private readonly t: SymbolTable;
  private readonly envs = new Map<string, FileEnv>();
  private readonly modules: ModuleResolver;
  private readonly scriptGlobals = new Map<string, ParsedScope[]>();
  /** Resolved EXTENDS / IMPLEMENTS targets per scope id. */
  private readonly extendsOf = new Map<string, ParsedScope[]>();
  private readonly implementsOf = new Map<string, ParsedScope[]>();
  private readonly exportMemo = new Map<string, Denotation | null>();
  /** Classes with an EXTENDS that did not resolve (base from a package...): reason per class id. */
  private readonly unresolvedBase = new Map<string, UnresolvedReason>();

  private readonly edges = new Map<string, ResolvedEdge>();
  private readonly unresolved: UnresolvedRef[] = [];
  private readonly fileImports: FileImportLink[] = [];
  private readonly outcomes: RefOutcome[] | undefined;
  /** Classes whose heritage the fast resolver decided (at least in part): their OVERRIDES are `fast`. */
  private readonly fastHeritage = new Set<string>();

  constructor(private readonly files: ParsedFile[], private readonly opts: ResolveOptions) {
    this.t = new SymbolTable(files, opts.defaultSqlSchema ?? 'dbo');
    this.modules = new ModuleResolver(new Set(files.map((f) => f.path)), opts);
    this.outcomes = opts.collectOutcomes ? [] : undefined;
    this.index();
  }

  run(): ResolveResult {
    this.resolveImports();
    // Heritage first: member lookups through bases need it.
    const rest: RawReference[] = [];
    for (const f of this.files) {
      for (const r of f.references) {
        if (r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS') this.resolveHeritage(r);
        else rest.push(r);
      }
    }
    this.resolveOverrides();
    for (const r of rest) this.resolveRef(r);
    return {
      edges: [...this.edges.values()],
      unresolved: this.unresolved,
      fileImports: this.fileImports,
      ...(this.outcomes ? { outcomes: this.outcomes } : {}),
    };
  }

  // ================================================================== indexing

  private index(): void {
    for (const f of this.files) {
      const fileScope = f.scopes.find((s) => s.kind === 'file') ?? f.scopes[0];
      const fam = family(f.language);
      const isScript = fam === 'js' && f.imports.length === 0 && (f.exports ?? []).length === 0
        && !f.scopes.some((s) => s.exported);
      const env: FileEnv = {
        file: f, fileScope, fam, imported: new Map(), wildcards: [], reexports: [], usings: [], aliases: new Map(), isScript,
      };
      this.envs.set(f.path, env);
      if (isScript && fileScope) {
        for (const list of this.t.children.get(fileScope.id)?.values() ?? []) for (const s of list) push(this.scriptGlobals, s.name, s);
      }
    }
  }

  // ================================================================== imports

  private resolveImports(): void {
    for (const env of this.envs.values()) {
      const { file } = env;
      for (const imp of file.imports) {
        switch (env.fam) {
          case 'js':
            this.jsImport(env, imp);
            break;
          case 'py':
            this.pyImport(env, imp);
            break;
          case 'cs':
            this.csUsing(env, imp);
            break;
          default:
        }
      }
    }
  }

  private link(env: FileEnv, imp: RawImport, target: ModuleTarget): void {
    const base = { fromPath: env.file.path, specifier: imp.specifier, line: imp.line };
    if (target.kind === 'file') {
      this.fileImports.push({ ...base, toPath: target.path });
      const to = this.envs.get(target.path)?.fileScope;
      if (to && to.id !== env.fileScope.id) this.addEdge(env.fileScope.id, to.id, 'IMPORTS', imp.line);
    } else if (target.kind === 'external') {
      this.fileImports.push({ ...base, external: target.name });
    } else if (target.kind === 'missing') {
      this.fileImports.push({ ...base, missing: true });
    }
  }

  private jsImport(env: FileEnv, imp: RawImport): void {
    const target = this.modules.resolveTs(env.file.path, imp.specifier);
    this.link(env, imp, target);
    if (imp.reexport) {
      env.reexports.push({ target, names: imp.names });
      return;
    }
    for (const n of imp.names) env.imported.set(n.local, { target, imported: n.imported });
  }

  private pyImport(env: FileEnv, imp: RawImport): void {
    const target = this.modules.resolvePy(env.file.path, imp.specifier);
    // A namespace-package directory is not a file: link the submodules named by the import instead.
    if (target.kind !== 'dir') this.link(env, imp, target);
    let linkedSub = false;
    for (const n of imp.names) {
      if (n.imported === '*' && n.local === '*') {
        env.wildcards.push(target);
        continue;
      }
      if (imp.isNamespace) {
        // import a.b.c -> binds "a.b.c" (used as a.b.c.f()); import a.b as c -> binds "c"
        env.imported.set(n.local, { target, imported: '*' });
        continue;
      }
      const b: ImportedName = { target, imported: n.imported };
      env.imported.set(n.local, b);
      // from pkg import submodule -> also link the submodule's file
      if (target.kind === 'file' || target.kind === 'dir') {
        const d = this.denoteImported(b, new Set());
        if (d && 'module' in d && !(target.kind === 'file' && d.module === target.path)) {
          this.link(env, imp, { kind: 'file', path: d.module });
          linkedSub = true;
        }
      }
    }
    if (target.kind === 'dir' && !linkedSub) this.link(env, imp, { kind: 'missing' });
  }

  private csUsing(env: FileEnv, imp: RawImport): void {
    const ns = imp.specifier;
    const alias = imp.names.find((n) => n.local !== '*')?.local;
    if (alias) env.aliases.set(alias, ns);
    else env.usings.push(ns);
    const nsFiles = this.t.csNamespaceFiles.get(ns);
    if (nsFiles && nsFiles.size) {
      for (const p of [...nsFiles].sort()) if (p !== env.file.path) this.link(env, imp, { kind: 'file', path: p });
      return;
    }
    const types = this.t.csTypes.get(ns);
    if (types?.length) {
      if (imp.isStatic) env.usings.push(ns); // members of a static class become visible
      for (const p of new Set(types.map((t) => t.path))) if (p !== env.file.path) this.link(env, imp, { kind: 'file', path: p });
      return;
    }
    this.link(env, imp, { kind: 'external', name: ns });
  }

  /** What an imported binding denotes. */
  private denoteImported(b: ImportedName, seen: Set<string>): Denotation | null {
    const t = b.target;
    if (t.kind === 'external') return { external: t.name };
    if (t.kind === 'missing') return null;
    if (b.imported === '*') return t.kind === 'file' ? { module: t.path } : null;
    if (t.kind === 'file') {
      const d = this.exportLookup(t.path, b.imported, seen);
      if (d) return d;
    }
    // Python: `from pkg import mod` where mod is a submodule
    const dir = t.kind === 'dir' ? t.path : t.path.endsWith('__init__.py') ? dirname(t.path) : null;
    if (dir !== null) {
      const sub = this.modules.tryPyModule(joinPath(dir, b.imported));
      if (sub?.kind === 'file') return { module: sub.path };
    }
    return null;
  }

  /** The declaration(s) a module exports under `name` (following re-exports and re-imports). */
  private exportLookup(path: string, name: string, seen: Set<string>): Denotation | null {
    const key = `${path}\u0000${name}`;
    if (this.exportMemo.has(key)) return this.exportMemo.get(key)!;
    if (seen.has(key)) return null;
    // A miss is only final when this lookup started the search: inside a cycle of `export *` barrels,
    // a module visited earlier on the path is cut short, so a miss found here may be a hit elsewhere.
    const outermost = seen.size === 0;
    seen.add(key);
    const env = this.envs.get(path);
    let result: Denotation | null = null;
    if (env) {
      const top = this.t.childrenNamed(env.fileScope, name);
      if (top.length) {
        const exported = top.filter((s) => s.exported !== false);
        result = { scopes: exported.length ? exported : top };
      }
      if (!result) {
        for (const e of env.file.exports ?? []) {
          if (e.exported !== name) continue;
          const local = this.t.childrenNamed(env.fileScope, e.local);
          if (local.length) {
            result = { scopes: local };
            break;
          }
          const imp = env.imported.get(e.local);
          if (imp) {
            result = this.denoteImported(imp, seen);
            if (result) break;
          }
        }
      }
      if (!result) {
        for (const r of env.reexports) {
          for (const n of r.names) {
            if (n.local === name && n.imported !== '*') result = this.denoteImported({ target: r.target, imported: n.imported }, seen);
            else if (n.local === name && n.imported === '*') result = r.target.kind === 'file' ? { module: r.target.path } : null;
            else if (n.local === '*' && name !== 'default' && r.target.kind === 'file') result = this.exportLookup(r.target.path, name, seen);
            if (result) break;
          }
          if (result) break;
        }
      }
      if (!result && env.fam === 'py') {
        const imp = env.imported.get(name);
        if (imp) result = this.denoteImported(imp, seen);
        if (!result) {
          for (const w of env.wildcards) {
            if (w.kind === 'file') result = this.exportLookup(w.path, name, seen);
            if (result) break;
          }
        }
      }
    }
    if (result || outermost) this.exportMemo.set(key, result);
    return result;
  }

  // ================================================================== references

  private resolveHeritage(r: RawReference): void {
    const from = this.t.scopes.get(r.fromId);
    if (!from) return;
    const env = this.envs.get(from.path)!;
    const parts = r.targetName.split('.');
    // Bases are resolved from the declaring scope's parent (a class cannot inherit its own members).
    const ctx = from.parentId ? this.t.scopes.get(from.parentId) ?? from : from;
    const { out, resolver } = this.decide(r, env, () =>
      env.fam === 'cs' ? this.csResolve(parts, ctx, env, HERITABLE, true) : this.dynResolve(parts, ctx, env, HERITABLE));
    if (resolver === 'fast') this.fastHeritage.add(from.id);
    if ('reason' in out) {
      this.miss(r, out.reason, resolver);
      if (r.kind === 'EXTENDS') this.unresolvedBase.set(from.id, out.reason === 'not-found' ? 'unknown-receiver' : out.reason);
      return;
    }
    this.hit(r, out.targets, resolver);
    for (const t of out.targets) {
      if (t.id === from.id) continue;
      let type: EdgeType = r.kind;
      if (env.fam === 'cs') {
        if (from.kind === 'interface') type = 'EXTENDS';
        else if (t.kind === 'interface') type = 'IMPLEMENTS';
        else if (t.kind === 'class' || t.kind === 'record') type = 'EXTENDS';
      }
      push(type === 'EXTENDS' ? this.extendsOf : this.implementsOf, from.id, t);
      this.addEdge(from.id, t.id, type, r.line, resolver);
    }
  }

  /**
   * Which resolver answers a reference. By default the fast resolver goes first and the compiler is
   * asked only about what it could not pin to a scope (measured: where both pin a TS/JS reference they
   * agree, and the checker's type inference is the expensive part); `preciseFirst` asks the compiler
   * about every TS/JS reference (benchmarks measure the fast resolver's precision that way).
   */
  private decide(r: RawReference, env: FileEnv, fast: () => Outcome): { out: Outcome; resolver: ResolverName } {
    if (this.opts.preciseFirst) {
      const p = this.precise(r, env);
      return p ? { out: p, resolver: 'precise' } : { out: fast(), resolver: 'fast' };
    }
    const f = fast();
    if ('targets' in f || f.reason === 'external' || f.reason === 'builtin') return { out: f, resolver: 'fast' };
    const p = this.precise(r, env);
    return p ? { out: p, resolver: 'precise' } : { out: f, resolver: 'fast' };
  }

  /** TS/JS: the compiler's answer, when it has one, as an outcome over scopes. */
  private precise(r: RawReference, env: FileEnv): Outcome | undefined {
    if (env.fam !== 'js' || !this.opts.precise) return undefined;
    const p: PreciseOutcome | undefined = this.opts.precise.resolve(r, env.file);
    if (!p) return undefined;
    if ('reason' in p) return p;
    const targets = p.targetIds.map((id) => this.t.scopes.get(id)).filter((s): s is ParsedScope => !!s);
    return targets.length ? { targets } : undefined;
  }

  /**
   * OVERRIDES: a method to the nearest same-named member of its class's bases (base classes first,
   * then interfaces, breadth first), so "what overrides X" and interface-typed call targets can be
   * followed. Constructors are not overrides.
   */
  private resolveOverrides(): void {
    for (const cls of this.t.scopes.values()) {
      if (!CLASS_LIKE.has(cls.kind)) continue;
      const bases = [...(this.extendsOf.get(cls.id) ?? []), ...(this.implementsOf.get(cls.id) ?? [])];
      if (!bases.length) continue;
      const resolver: ResolverName = this.fastHeritage.has(cls.id) ? 'fast' : 'precise';
      for (const list of this.t.children.get(cls.id)?.values() ?? []) {
        for (const m of list) {
          if (m.kind !== 'method' && m.kind !== 'property') continue;
          for (const t of this.findMember(bases, m.name)) {
            if ((t.kind === 'method' || t.kind === 'property') && t.id !== m.id) this.addEdge(m.id, t.id, 'OVERRIDES', m.startLine, resolver);
          }
        }
      }
    }
  }

  private resolveRef(r: RawReference): void {
    const from = this.t.scopes.get(r.fromId);
    if (!from) return;
    const env = this.envs.get(from.path)!;
    if (r.targetLanguage === 'sql' || env.fam === 'sql') {
      this.resolveSql(r);
      return;
    }
    const parts = r.targetName.split('.');
    const kinds = r.kind === 'CALLS' ? CALLABLE : REFERABLE;
    const { out, resolver } = this.decide(r, env, () => (env.fam === 'cs'
      ? this.csResolve(parts, from, env, kinds, r.kind !== 'CALLS')
      : this.dynResolve(parts, from, env, kinds)));
    if ('reason' in out) {
      this.miss(r, out.reason, resolver);
      return;
    }
    this.hit(r, out.targets, resolver);
    for (const t of out.targets) {
      // A type mentioning itself (`static of(): Notification`) is not an edge; recursion is.
      if (t.id === from.id && r.kind !== 'CALLS') continue;
      this.addEdge(from.id, t.id, r.kind, r.line, resolver);
    }
  }

  private resolveSql(r: RawReference): void {
    const out = resolveSqlName(this.t, r.targetName);
    if ('reason' in out) {
      this.miss(r, out.reason);
      return;
    }
    this.hit(r, out.targets, 'fast');
    for (const t of out.targets) if (t.id !== r.fromId) this.addEdge(r.fromId, t.id, r.kind, r.line, 'fast');
  }

  // ------------------------------------------------------------------ TS/JS and Python

  private dynResolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const head = parts[0];
    const rest = parts.slice(1);
    const py = env.fam === 'py';
    if (head === 'this' || (py && (head === 'self' || head === 'cls'))) {
      const cls = this.enclosingClass(from);
      if (!cls) return { reason: 'unknown-receiver' };
      return this.walk([cls], rest, env, kinds);
    }
    if (head === 'super') return this.superRef(from, rest, env, kinds);
    // Python: `import a.b` binds the dotted prefix
    if (py && parts.length > 1) {
      for (let k = parts.length - 1; k >= 2; k--) {
        const imp = env.imported.get(parts.slice(0, k).join('.'));
        if (imp) {
          const d = this.denoteImported(imp, new Set());
          if (d && 'external' in d) return { reason: 'external' };
          if (d && 'module' in d) return this.moduleWalk(d.module, parts.slice(k), env, kinds);
        }
      }
    }
    const d = this.denoteHead(head, from, env);
    if (d) {
      if ('external' in d) return { reason: 'external' };
      if ('module' in d) return this.moduleWalk(d.module, rest, env, kinds);
      return this.walk(d.scopes, rest, env, kinds);
    }
    // Statically typed receiver: typed parameter / local / `const x = new Foo()`.
    if (rest.length) {
      const typeName = this.localBinding(head, from) ?? this.fileBinding(head, env);
      if (typeName) return this.typedWalk(typeName, from, rest, env, kinds);
    }
    const reason = this.reasonFor(head, env);
    return { reason: reason === 'not-found' && rest.length ? 'unknown-receiver' : reason };
  }

  /** Lexical scopes (not class bodies), imports, same-file declarations, script globals. */
  private denoteHead(name: string, from: ParsedScope, env: FileEnv): Denotation | null {
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.t.parent(s)) {
      if (CLASS_LIKE.has(s.kind)) continue;
      const found = this.t.childrenNamed(s, name);
      if (found.length) return { scopes: found };
    }
    const imp = env.imported.get(name);
    if (imp) {
      const d = this.denoteImported(imp, new Set());
      if (d) return d;
    }
    const top = this.t.childrenNamed(env.fileScope, name);
    if (top.length) return { scopes: top };
    for (const w of env.wildcards) {
      if (w.kind === 'external') continue;
      if (w.kind === 'file') {
        const d = this.exportLookup(w.path, name, new Set());
        if (d) return d;
      }
    }
    if (env.isScript) {
      const globals = (this.scriptGlobals.get(name) ?? []).filter((s) => s.path !== env.file.path);
      if (globals.length && new Set(globals.map((g) => g.qualifiedName)).size === 1 && new Set(globals.map((g) => g.path)).size === 1) {
        return { scopes: globals };
      }
    }
    return null;
  }

  private moduleWalk(path: string, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    if (!rest.length) {
      const fs = this.envs.get(path)?.fileScope;
      return fs ? this.finish([fs], kinds, 'not-found') : { reason: 'not-found' };
    }
    const d = this.exportLookup(path, rest[0], new Set());
    if (!d) return { reason: 'not-found' };
    if ('external' in d) return { reason: 'external' };
    if ('module' in d) return this.moduleWalk(d.module, rest.slice(1), env, kinds);
    return this.walk(d.scopes, rest.slice(1), env, kinds);
  }

  // ------------------------------------------------------------------ C#

  private csResolve(
    parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean,
  ): Outcome {
    const head = parts[0];
    const rest = parts.slice(1);
    if (head === 'this') {
      const cls = this.enclosingClass(from);
      if (!cls) return { reason: 'unknown-receiver' };
      return this.walk([cls], rest, env, kinds);
    }
    if (head === 'base') return this.superRef(from, rest, env, kinds);
    if (!wantType || rest.length) {
      // 1. locals / parameters (typed)
      const local = this.localBinding(head, from);
      if (local) return rest.length ? this.typedWalk(local, from, rest, env, kinds) : { reason: 'not-found' };
      // 2. local functions of enclosing functions, members of enclosing types (with bases)
      for (let s: ParsedScope | undefined = from; s && s.kind !== 'namespace' && s.kind !== 'file'; s = this.t.parent(s)) {
        if (FUNCTION_LIKE.has(s.kind)) {
          const fns = this.t.childrenNamed(s, head).filter((c) => c.kind === 'function');
          if (fns.length) return this.walk(fns, rest, env, kinds);
        } else if (CLASS_LIKE.has(s.kind)) {
          const members = this.findMember([s], head);
          if (members.length) return this.walk(members, rest, env, kinds);
          const field = this.memberBinding([s], head);
          if (field) return rest.length ? this.typedWalk(field, s, rest, env, kinds) : { reason: 'not-found' };
        }
      }
    }
    // 3. types (longest qualified prefix), then static members
    for (let k = parts.length; k >= 1; k--) {
      const types = this.csTypes(parts.slice(0, k), from, env);
      if (types.length) return this.walk(types, parts.slice(k), env, kinds);
    }
    const reason = this.reasonFor(head, env);
    return { reason: reason === 'not-found' && rest.length ? 'unknown-receiver' : reason };
  }

  private csTypes(parts: string[], from: ParsedScope, env: FileEnv): ParsedScope[] {
    return csTypeLookup(this.t, parts, from, env, (owners, name) => this.findMember(owners, name));
  }

  // ------------------------------------------------------------------ shared lookups

  /**
   * Follow `rest` member by member from `owners`: member scopes (methods, nested types, namespace and
   * object members, inherited ones), or typed fields/properties to continue from their type.
   */
  private walk(owners: ParsedScope[], rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
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
  private typedWalk(typeName: string, ctx: ParsedScope, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const types = this.resolveTypeName(typeName, ctx, env);
    if (!types.length) {
      const r = this.reasonFor(typeName.split('.')[0], env);
      return { reason: r === 'not-found' ? 'unknown-receiver' : r };
    }
    return this.walk(types, rest, env, kinds);
  }

  /** `super(...)`, `super.m()`, `base.M()`, C# `: base(...)`. */
  private superRef(from: ParsedScope, rest: string[], env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const cls = this.enclosingClass(from);
    if (!cls) return { reason: 'not-found' };
    const bases = this.t.partsOf(cls).flatMap((p) => this.extendsOf.get(p.id) ?? []);
    if (!bases.length) return { reason: this.unresolvedBase.get(cls.id) ?? 'not-found' };
    if (!rest.length) return this.finish(this.constructorsOf(bases), kinds, 'not-found');
    return this.walk(bases, rest, env, kinds);
  }

  /** Children named `name` of the owners (all partial parts in C#), then of their bases, breadth first. */
  private findMember(owners: ParsedScope[], name: string): ParsedScope[] {
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

  /** Declared type of a member field/property named `name` in the owners or their bases. */
  private memberBinding(owners: ParsedScope[], name: string): string | null {
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
  private localBinding(name: string, from: ParsedScope): string | null {
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.t.parent(s)) {
      if (!FUNCTION_LIKE.has(s.kind)) continue;
      const t = this.t.localBindings.get(s.id)?.get(name);
      if (t) return t;
    }
    return null;
  }

  private fileBinding(name: string, env: FileEnv): string | null {
    return this.t.localBindings.get(env.fileScope.id)?.get(name) ?? null;
  }

  private resolveTypeName(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    if (env.fam === 'cs') return this.csTypes(typeName.split('.'), ctx, env);
    const out = this.dynResolve(typeName.split('.'), ctx, env, TYPE_LIKE);
    return 'targets' in out ? out.targets : [];
  }

  private constructorsOf(classes: ParsedScope[]): ParsedScope[] {
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

  private enclosingClass(s: ParsedScope): ParsedScope | null {
    for (let p: ParsedScope | undefined = s; p; p = this.t.parent(p)) {
      if (CLASS_LIKE.has(p.kind)) return p;
      // `this` inside an object literal's method is the object
      if (p.kind === 'variable' && p !== s) return p;
    }
    return null;
  }

  private finish(targets: ParsedScope[], kinds: ReadonlySet<ScopeKind>, reason: UnresolvedReason): Outcome {
    const ok = targets.filter((t) => kinds.has(t.kind));
    return ok.length ? { targets: ok } : { reason };
  }

  private reasonFor(head: string, env: FileEnv): UnresolvedReason {
    const imp = env.imported.get(head);
    if (imp && imp.target.kind === 'external') return 'external';
    if (isBuiltin(env.file.language, head)) return 'builtin';
    if (env.fam === 'cs' && env.aliases.has(head)) return 'external';
    return 'not-found';
  }

  // ------------------------------------------------------------------ output

  private addEdge(fromId: string, toId: string, type: EdgeType, line?: number, resolver?: ResolverName): void {
    const key = `${fromId}\u0000${toId}\u0000${type}`;
    const e = this.edges.get(key);
    if (!e) {
      const edge: ResolvedEdge = { fromId, toId, type };
      if (line !== undefined) edge.line = line;
      if (resolver) edge.resolver = resolver;
      this.edges.set(key, edge);
      return;
    }
    if (line !== undefined && (e.line === undefined || line < e.line)) e.line = line;
    // Several references may yield one edge: it is precise if the compiler backed any of them.
    if (resolver === 'precise') e.resolver = 'precise';
  }

  private miss(r: RawReference, reason: UnresolvedReason, resolver: ResolverName = 'fast'): void {
    this.unresolved.push({ fromId: r.fromId, type: r.kind, targetName: r.targetName, line: r.line, reason, resolver });
    this.outcomes?.push({ ref: r, path: this.t.scopes.get(r.fromId)?.path ?? '', resolver, reason });
  }

  private hit(r: RawReference, targets: ParsedScope[], resolver: ResolverName): void {
    this.outcomes?.push({ ref: r, path: this.t.scopes.get(r.fromId)?.path ?? '', resolver, targetIds: targets.map((t) => t.id) });
  }
}
