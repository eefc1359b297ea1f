import type { ParsedScope, RawImport, ScopeKind } from '../parse/types';
import { callsThroughParameter, callToNoInRepoName } from './python/py-unresolved';
import { dirname, joinPath } from '../resolve/module-resolver';
import { Denotation, FamilyResolver, FileEnv, ImportedName, Outcome, ResolverContext } from '../resolve/resolver-context';
import { CLASS_LIKE, push, TYPE_LIKE } from '../resolve/symbol-table';
import { PyModuleResolver } from './python/modules';
import { TsModuleResolver } from './typescript/modules';

/** Type lookups nested in one another at most (bindings typed through bindings): a cycle the key misses still ends. */
const MAX_TYPE_DEPTH = 32;

/**
 * TS/JS and Python: names come from lexical scopes, then from modules through imports, exports,
 * re-exports (`export *` barrels, circular ones included), Python re-imports and `import *`, then from
 * the file's own declarations; `x.m()` follows a declared or `new`-initialised type of `x`. A bare
 * name in a TS/JS script file (no import or export) may resolve to a unique script-global declaration.
 */
export class DynamicResolver implements FamilyResolver {
  private readonly scriptGlobals = new Map<string, ParsedScope[]>();
  private readonly exportMemo = new Map<string, Denotation | null>();
  /** Type names being resolved now, per scope: a binding typed through itself is not walked again. */
  private readonly typesInProgress = new Set<string>();

  /** Module rules per family: languages/typescript/modules.ts, languages/python/modules.ts. */
  private readonly tsModules: TsModuleResolver;
  private readonly pyModules: PyModuleResolver;

  constructor(private readonly c: ResolverContext) {
    this.tsModules = new TsModuleResolver(c.paths, c.options);
    this.pyModules = new PyModuleResolver(c.paths, c.options);
  }

  indexFile(env: FileEnv): void {
    if (env.isScript) this.addScriptGlobals(env);
  }

  /** A TS/JS script file's top-level declarations, visible to other script files by name. */
  private addScriptGlobals(env: FileEnv): void {
    for (const list of this.c.t.children.get(env.fileScope.id)?.values() ?? []) for (const s of list) push(this.scriptGlobals, s.name, s);
  }

  addImport(env: FileEnv, imp: RawImport): void {
    if (env.fam === 'py') this.pyImport(env, imp);
    else this.jsImport(env, imp);
  }

  private jsImport(env: FileEnv, imp: RawImport): void {
    const target = this.tsModules.resolve(env.file.path, imp.specifier);
    this.c.link(env, imp, target);
    if (imp.reexport) {
      env.reexports.push({ target, names: imp.names });
      return;
    }
    for (const n of imp.names) env.imported.set(n.local, { target, imported: n.imported });
  }

  private pyImport(env: FileEnv, imp: RawImport): void {
    const target = this.pyModules.resolve(env.file.path, imp.specifier);
    // A namespace-package directory is not a file: link the submodules named by the import instead.
    if (target.kind !== 'dir') this.c.link(env, imp, target);
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
          this.c.link(env, imp, { kind: 'file', path: d.module });
          linkedSub = true;
        }
      }
    }
    if (target.kind === 'dir' && !linkedSub) this.c.link(env, imp, { kind: 'missing' });
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
      const sub = this.pyModules.tryPyModule(joinPath(dir, b.imported));
      if (sub?.kind === 'file') return { module: sub.path };
    }
    return null;
  }

  /**
   * The declaration(s) a module exports under `name` (following re-exports and re-imports). Only a
   * search's outermost lookup is memoised and reused: inside a cycle of `export *` barrels a module
   * visited earlier is cut short, so a nested lookup's answer (hit or miss) depends on where the
   * search started. Reusing it elsewhere would make a reference's target depend on which references
   * were resolved before it, and resolving only some files (ResolveOptions.only) could then differ
   * from resolving all of them.
   */
  private exportLookup(path: string, name: string, seen: Set<string>): Denotation | null {
    const key = `${path}\u0000${name}`;
    const outermost = seen.size === 0;
    if (outermost && this.exportMemo.has(key)) return this.exportMemo.get(key)!;
    if (seen.has(key)) return null;
    seen.add(key);
    const env = this.c.envs.get(path);
    let result: Denotation | null = null;
    if (env) {
      const top = this.c.t.childrenNamed(env.fileScope, name);
      if (top.length) {
        const exported = top.filter((s) => s.exported !== false);
        result = { scopes: exported.length ? exported : top };
      }
      if (!result) {
        for (const e of env.file.exports ?? []) {
          if (e.exported !== name) continue;
          const local = this.c.t.childrenNamed(env.fileScope, e.local);
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
    if (outermost) this.exportMemo.set(key, result);
    return result;
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const out = this.resolveName(parts, from, env, kinds);
    if (env.fam === 'py' && 'reason' in out && (out.reason === 'not-found' || out.reason === 'unknown-receiver')) {
      if (callsThroughParameter(this.c, parts, from)) return { reason: 'dynamic' };
      // a declared type lacking the member (`self.model.missing()` with `model: Model`) stays a miss
      const ownAttribute = parts.length === 2 && (parts[0] === 'self' || parts[0] === 'cls');
      if (kinds.has('function') && (out.reason === 'unknown-receiver' || parts.length === 1 || ownAttribute)) {
        const nowhere = callToNoInRepoName(this.c, parts, from);
        if (nowhere) return { reason: nowhere };
      }
    }
    return out;
  }

  private resolveName(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>): Outcome {
    const head = parts[0];
    const rest = parts.slice(1);
    const py = env.fam === 'py';
    if (head === 'this' || (py && (head === 'self' || head === 'cls'))) return this.c.thisRef(from, rest, env, kinds);
    if (head === 'super') return this.c.superRef(from, rest, env, kinds);
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
      return this.c.walk(d.scopes, rest, env, kinds);
    }
    // Statically typed receiver: typed parameter / local / `const x = new Foo()`.
    if (rest.length) {
      const typeName = this.c.localBinding(head, from) ?? this.c.fileBinding(head, env);
      if (typeName) return this.c.typedWalk(typeName, from, rest, env, kinds);
    }
    const reason = this.c.reasonFor(head, env);
    return { reason: reason === 'not-found' && rest.length ? 'unknown-receiver' : reason };
  }

  types(typeName: string, ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    // `a = a.spawn()` binds `a` to the type of `a.spawn`, which is looked up through `a`'s binding:
    // a name already being resolved for this scope has no type (instead of recursing without end).
    const key = `${ctx.id}\0${typeName}`;
    if (this.typesInProgress.has(key) || this.typesInProgress.size >= MAX_TYPE_DEPTH) return [];
    this.typesInProgress.add(key);
    try {
      const out = this.resolve(typeName.split('.'), ctx, env, TYPE_LIKE);
      return 'targets' in out ? out.targets : [];
    } finally {
      this.typesInProgress.delete(key);
    }
  }

  /** Lexical scopes (not class bodies), imports, same-file declarations, script globals. */
  private denoteHead(name: string, from: ParsedScope, env: FileEnv): Denotation | null {
    for (let s: ParsedScope | undefined = from; s && s.kind !== 'file'; s = this.c.t.parent(s)) {
      // Class bodies are not lexical scopes: a method's name is reached through `this`, not bare.
      if (CLASS_LIKE.has(s.kind)) continue;
      const found = this.c.t.childrenNamed(s, name);
      if (found.length) return { scopes: found };
    }
    const imp = env.imported.get(name);
    if (imp) {
      const d = this.denoteImported(imp, new Set());
      if (d) return d;
    }
    const top = this.c.t.childrenNamed(env.fileScope, name);
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
      const fs = this.c.envs.get(path)?.fileScope;
      return fs ? this.c.finish([fs], kinds, 'not-found') : { reason: 'not-found' };
    }
    const d = this.exportLookup(path, rest[0], new Set());
    if (!d) return { reason: 'not-found' };
    if ('external' in d) return { reason: 'external' };
    if ('module' in d) return this.moduleWalk(d.module, rest.slice(1), env, kinds);
    return this.c.walk(d.scopes, rest.slice(1), env, kinds);
  }
}

/**
 * The factory both dynamic-language plugins (./typescript, ./python) register: TS/JS and Python share one
 * resolver (their module systems differ, their name lookup does not), and plugins with the same factory
 * function get one instance per resolution run.
 */
export const dynamicResolver = (ctx: ResolverContext): FamilyResolver => new DynamicResolver(ctx);
