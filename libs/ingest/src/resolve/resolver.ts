import type { ParsedFile, ParsedScope, RawReference, ScopeKind } from '../parse/types';
import { familyOf, LANGUAGE_PLUGINS, LanguagePlugin, pluginOf } from '../languages';
import { resolveSqlName } from '../languages/sql/resolver';
import { FamilyResolver, FileEnv, Outcome, ResolveOutput, ResolverContext } from './resolver-context';
import { UnresolvedReasons } from './unresolved-reasons';
import { CLASS_LIKE, push, SymbolTable, TYPE_LIKE } from './symbol-table';
import type { EdgeType, PreciseOutcome, ResolverName, ResolveOptions, ResolveResult } from './types';

// Variables and fields are callable: `export const isX = createPredicate(...)` holds a function.
const CALLABLE = new Set<ScopeKind>(['function', 'method', 'constructor', 'class', 'struct', 'record', 'property', 'variable']);
const HERITABLE = new Set<ScopeKind>(['class', 'interface', 'struct', 'record', 'type_alias']);
const REFERABLE = new Set<ScopeKind>([...TYPE_LIKE, 'namespace', 'variable']);
const JS_ONLY: ReadonlySet<string> = new Set(['js']);

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
 *
 * The per-family name resolution lives in the language plugins (../languages: dynamic-resolver.ts for
 * TS/JS and Python, <lang>/resolver.ts for the others, sql/resolver.ts for SQL names), over the
 * shared symbol table and lookups of resolver-context.ts; this file orders the work and asks the
 * precise (compiler) resolver where the setting says so.
 */
export function resolveRepository(files: ParsedFile[], opts: ResolveOptions = {}): ResolveResult {
  return new Resolver(files, opts).run();
}

class Resolver {
  private readonly t: SymbolTable;
  private readonly c: ResolverContext;
  private readonly out: ResolveOutput;

  constructor(private readonly files: ParsedFile[], private readonly opts: ResolveOptions) {
    this.t = new SymbolTable(files, opts.defaultSqlSchema ?? 'dbo');
    this.out = new ResolveOutput(this.t, !!opts.collectOutcomes);
    const pluginBuiltin = (language: ParsedFile['language'], head: string) => !!pluginOf(language)?.isBuiltin?.(language, head);
    this.c = new ResolverContext(this.t, new Set(files.map((f) => f.path)), opts, this.out, pluginBuiltin, opts.manifests);
    // One resolver per factory: plugins that share a factory (TS/JS and Python) share the instance.
    const made = new Map<NonNullable<LanguagePlugin['resolver']>, FamilyResolver>();
    for (const p of LANGUAGE_PLUGINS) {
      if (!p.resolver) continue;
      let r = made.get(p.resolver);
      if (!r) made.set(p.resolver, (r = p.resolver(this.c)));
      this.c.register(p.family, r);
    }
    this.index();
    const reasons = new UnresolvedReasons(this.t, this.c.envs);
    this.out.refineMiss = (r, reason) => reasons.refine(r, reason);
  }

  run(): ResolveResult {
    const only = this.opts.only;
    const kept = (path: string) => !only || only.has(path);
    // Every file's imports and heritage, even with `only`: lookups from the kept files go through
    // other files' imports, re-exports and base classes.
    for (const env of this.c.envs.values()) {
      const fam = this.c.familyOf(env);
      if (fam) for (const imp of env.file.imports) fam.addImport(env, imp);
    }
    // Heritage first: member lookups through bases need it.
    for (const f of this.files) for (const r of f.references) if (r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS') this.resolveHeritage(r);
    this.scipHeritage(kept);
    for (const [fam, envs] of this.byFamily) fam.afterHeritage?.(envs);
    this.resolveOverrides(kept);
    // Then the rest, file by file in the files' order (from disk when spilled: a batch at a time).
    const spilled = this.opts.spilled;
    if (spilled) {
      for (const batch of spilled.batches()) for (const f of batch) if (kept(f.path)) for (const r of f.references) this.resolveRef(r);
    } else {
      for (const f of this.files) {
        if (!kept(f.path)) continue;
        for (const r of f.references) if (r.kind !== 'EXTENDS' && r.kind !== 'IMPLEMENTS') this.resolveRef(r);
      }
    }
    return this.out.result(only ? kept : undefined);
  }

  private index(): void {
    for (const f of this.files) {
      const fileScope = f.scopes.find((s) => s.kind === 'file') ?? f.scopes[0];
      const fam = familyOf(f.language);
      const isScript = fam === 'js' && f.imports.length === 0 && (f.exports ?? []).length === 0
        && !f.scopes.some((s) => s.exported);
      const env: FileEnv = {
        file: f, fileScope, fam, imported: new Map(), wildcards: [], reexports: [], usings: [], aliases: new Map(), isScript,
      };
      this.c.envs.set(f.path, env);
    }
    const byFamily = new Map<FamilyResolver, FileEnv[]>();
    for (const env of this.c.envs.values()) {
      const fam = this.c.familyOf(env);
      if (!fam || !env.fileScope) continue;
      fam.indexFile?.(env);
      const list = byFamily.get(fam);
      if (list) list.push(env);
      else byFamily.set(fam, [env]);
    }
    this.byFamily = byFamily;
    for (const [fam, envs] of byFamily) fam.prepare?.(envs);
  }

  /** Every file's environment grouped by its family's resolver (filled by index()). */
  private byFamily = new Map<FamilyResolver, FileEnv[]>();

  private resolveHeritage(r: RawReference): void {
    const written = r.kind === 'IMPLEMENTS' ? 'IMPLEMENTS' : 'EXTENDS';
    const from = this.t.scopes.get(r.fromId);
    if (!from) return;
    const env = this.c.envs.get(from.path)!;
    const fam = this.c.familyOf(env);
    if (!fam) return;
    const parts = r.targetName.split('.');
    // Bases are resolved from the declaring scope's parent (a class cannot inherit its own members).
    const ctx = from.parentId ? this.t.scopes.get(from.parentId) ?? from : from;
    const { out, resolver } = this.decide(r, env, () => fam.resolve(parts, ctx, env, HERITABLE, true));
    if (resolver === 'fast') this.c.fastHeritage.add(from.id);
    if ('reason' in out) {
      this.out.miss(r, out.reason, resolver, out.origin);
      if (written === 'EXTENDS') this.c.unresolvedBase.set(from.id, out.reason === 'not-found' ? 'unknown-receiver' : out.reason);
      return;
    }
    this.out.hit(r, out.targets, resolver);
    for (const t of out.targets) {
      if (t.id === from.id) continue;
      const type: EdgeType = fam.heritageEdge?.(from, t, written) ?? written;
      push(type === 'EXTENDS' ? this.c.extendsOf : this.c.implementsOf, from.id, t);
      this.out.addEdge(from.id, t.id, type, r.line, resolver, out.targets.length > 1);
    }
  }

  /**
   * Which resolver answers a reference. By default the fast resolver goes first and the compiler is
   * asked only about what it could not pin to a scope (measured: where both pin a TS/JS reference they
   * agree, and the checker's type inference is the expensive part); `preciseFirst` asks the compiler
   * about every TS/JS reference (benchmarks measure the fast resolver's precision that way).
   */
  private decide(r: RawReference, env: FileEnv, fast: () => Outcome): { out: Outcome; resolver: ResolverName } {
    const s = this.scip(r, env);
    if (s) return { out: 'targets' in s ? this.constructorConvention(s, fast) : s, resolver: 'scip' };
    if (this.opts.preciseFirst) {
      const p = this.precise(r, env);
      return p ? { out: p, resolver: 'precise' } : { out: fast(), resolver: 'fast' };
    }
    const f = fast();
    if ('targets' in f || f.reason === 'external' || f.reason === 'builtin') return { out: f, resolver: 'fast' };
    if (env.fam === 'py' && !this.worthAskingPyright(r, f.reason)) return { out: f, resolver: 'fast' };
    const p = this.precise(r, env);
    return p ? { out: p, resolver: 'precise' } : { out: f, resolver: 'fast' };
  }

  /**
   * pyright can make a reference an in-repo edge only when some scope (or import) has its last name;
   * otherwise its answer can only trade one reason for another, and that matters only for a call the
   * fast resolver counts as a miss (a declared type lacking the member: `environment.undefined()`
   * where `undefined` is a class attribute holding a class). The rest are not asked (measured: most
   * of pyright's time went on them, bench/graph/README.md).
   */
  private worthAskingPyright(r: RawReference, reason: string): boolean {
    if (this.c.pyDeclares(r.targetName.slice(r.targetName.lastIndexOf('.') + 1))) return true;
    return r.kind === 'CALLS' && (reason === 'not-found' || reason === 'unknown-receiver' || reason === 'ambiguous');
  }

  /** The compiler's (TS/JS) or type checker's (Python) answer, when it has one, as an outcome over scopes. */
  private precise(r: RawReference, env: FileEnv): Outcome | undefined {
    if (!this.opts.precise || !(this.opts.preciseFamilies ?? JS_ONLY).has(env.fam)) return undefined;
    const p: PreciseOutcome | undefined = this.opts.precise.resolve(r, env.file);
    if (!p) return undefined;
    if ('reason' in p) return p;
    const targets = p.targetIds.map((id) => this.t.scopes.get(id)).filter((s): s is ParsedScope => !!s);
    return targets.length ? { targets } : undefined;
  }

  /** An imported SCIP index's answer, as an outcome over scopes (undefined: the index says nothing). */
  private scip(r: RawReference, env: FileEnv): Outcome | undefined {
    const p = this.opts.scip?.resolve(r, env.file);
    if (!p) return undefined;
    if ('reason' in p) return p;
    const targets = p.targetIds.map((id) => this.t.scopes.get(id)).filter((s): s is ParsedScope => !!s);
    return targets.length ? { targets } : undefined;
  }

  /**
   * `new Foo()`: a SCIP index names Foo's constructor. Where the name-based resolver's convention for
   * the same reference is the class (TS/JS, Python), the class it is, so edges agree across resolvers.
   */
  private constructorConvention(s: { targets: ParsedScope[] }, fast: () => Outcome): Outcome {
    if (!s.targets.some((t) => t.kind === 'constructor')) return s;
    const f = fast();
    if (!('targets' in f)) return s;
    const named = new Set(f.targets.map((t) => t.id));
    return { targets: s.targets.map((t) => (t.kind === 'constructor' && t.parentId && named.has(t.parentId) ? this.t.scopes.get(t.parentId)! : t)) };
  }

  /** The SCIP index's implementation relationships: heritage (followed by member lookups) and OVERRIDES. */
  private scipHeritage(kept: (path: string) => boolean): void {
    for (const h of this.opts.scip?.heritage() ?? []) {
      const from = this.t.scopes.get(h.fromId);
      const to = this.t.scopes.get(h.toId);
      if (!from || !to) continue;
      if (h.type === 'OVERRIDES') {
        if (kept(from.path)) this.out.addEdge(from.id, to.id, 'OVERRIDES', h.line, 'scip');
      } else this.c.addHeritage(from, to, h.type, h.line, 'scip');
    }
  }

  /**
   * OVERRIDES: a method to the nearest same-named member of its class's bases (base classes first,
   * then interfaces, breadth first), so "what overrides X" and interface-typed call targets can be
   * followed. Constructors are not overrides.
   */
  private resolveOverrides(kept: (path: string) => boolean): void {
    for (const cls of this.t.scopes.values()) {
      if (!CLASS_LIKE.has(cls.kind) || !kept(cls.path)) continue;
      const bases = [...(this.c.extendsOf.get(cls.id) ?? []), ...(this.c.implementsOf.get(cls.id) ?? [])];
      if (!bases.length) continue;
      // Families without a precise resolver: heritage (also what afterHeritage adds) is fast.
      const resolver: ResolverName = this.c.fastHeritage.has(cls.id) || !(this.opts.preciseFamilies ?? JS_ONLY).has(familyOf(cls.language)) ? 'fast' : 'precise';
      const env = this.c.envs.get(cls.path);
      const fam = env ? this.c.familyOf(env) : undefined;
      for (const list of this.t.children.get(cls.id)?.values() ?? []) {
        for (const m of list) {
          if (m.kind !== 'method' && m.kind !== 'property') continue;
          const found = this.c.findMember(bases, m.name).filter((t) => (t.kind === 'method' || t.kind === 'property') && t.id !== m.id);
          for (const t of fam?.overrides ? fam.overrides(m, found) : found) this.out.addEdge(m.id, t.id, 'OVERRIDES', m.startLine, resolver);
        }
      }
    }
  }

  private resolveRef(r: RawReference): void {
    const from = this.t.scopes.get(r.fromId);
    if (!from) return;
    const env = this.c.envs.get(from.path)!;
    const fam = this.c.familyOf(env);
    if (r.targetLanguage === 'sql' || !fam) {
      this.resolveSql(r);
      return;
    }
    const parts = r.targetName.split('.');
    const kinds = r.kind === 'CALLS' ? CALLABLE : REFERABLE;
    const { out, resolver } = this.decide(r, env, () => fam.resolve(parts, from, env, kinds, r.kind !== 'CALLS'));
    if ('reason' in out) {
      this.out.miss(r, out.reason, resolver, out.origin);
      return;
    }
    this.out.hit(r, out.targets, resolver);
    for (const t of out.targets) {
      // A type mentioning itself (`static of(): Notification`) is not an edge; recursion is.
      if (t.id === from.id && r.kind !== 'CALLS') continue;
      this.out.addEdge(from.id, t.id, r.kind, r.line, resolver, out.targets.length > 1);
    }
  }

  private resolveSql(r: RawReference): void {
    const out = resolveSqlName(this.t, r.targetName);
    if ('reason' in out) {
      this.out.miss(r, out.reason);
      return;
    }
    this.out.hit(r, out.targets, 'fast');
    for (const t of out.targets) if (t.id !== r.fromId) this.out.addEdge(r.fromId, t.id, r.kind, r.line, 'fast');
  }
}
