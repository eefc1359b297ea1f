import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { dirname, joinPath } from '../../resolve/module-resolver';
import type { FamilyResolver, FileEnv, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { push, TYPE_LIKE } from '../../resolve/symbol-table';
import type { UnresolvedReason } from '../../resolve/types';
import { defaultPackageName, isGoPredeclared, isStdImport } from './builtins';
import { GO_FUNC, GO_PACKAGE, GO_RESULT, GO_UNDERLYING, GO_UNTYPED, GO_VALUE } from './extractor';

/** Named types that can have methods (interfaces are satisfied, they do not satisfy). */
const IMPLEMENTOR = new Set<ScopeKind>(['struct', 'type_alias']);
/** Following result types and aliases through each other: a guard against `x := x.Next()` cycles. */
const MAX_DEPTH = 8;

/** What an import spec brings into a file under its local name. */
type GoImport = { dir: string } | { std: string } | { external: string };

interface GoFile {
  /** The package: the file's directory. */
  dir: string;
  imports: Map<string, GoImport>;
  /** Directories of in-repo packages imported with `.`. */
  dots: string[];
}

/**
 * Go: a package is a directory (its `_test.go` files included); every file sees the package's
 * top-level declarations without an import. An import path maps to a directory through the module
 * path of a go.mod (`module example.com/shop` at `svc/go.mod`: `example.com/shop/store` is
 * `svc/store`), or a `vendor/` copy; a path with no dot in its first element is the standard library
 * (`builtin`), anything else a dependency (`external`). Without any go.mod (a partial checkout), an
 * import path's longest tail that names a unique directory of Go files is taken.
 *
 * IMPORTS edges go from the file to every file of the imported package. Methods attach to their
 * receiver's type wherever in the package it is declared; embedded structs and interfaces are
 * EXTENDS (promoted members are found through them); a named type whose method set (promoted
 * methods included, names compared) covers an interface's methods IMPLEMENTS it. A call through an
 * interface-typed value resolves to the interface's method (what the program names); calls through
 * function values (func-typed locals, parameters, fields) are `dynamic`.
 */
export class GoResolver implements FamilyResolver {
  /** dir -> name -> package-level declarations (functions, types, vars, consts; methods are members). */
  private readonly decls = new Map<string, Map<string, ParsedScope[]>>();
  private readonly filesOf = new Map<string, string[]>();
  private readonly packageName = new Map<string, string>();
  private readonly files = new Map<string, GoFile>();
  private modules: { path: string; root: string }[] | null = null;
  private readonly dirMemo = new Map<string, GoImport>();
  private depth = 0;
  /** The file of the reference being resolved: build variants of members are chosen from it. */
  private fromPath = '';

  constructor(private readonly c: ResolverContext) {}

  indexFile(env: FileEnv): void {
    const dir = dirname(env.file.path);
    const st: GoFile = { dir, imports: new Map(), dots: [] };
    this.files.set(env.file.path, st);
    env.state = st;
    push(this.filesOf, dir, env.file.path);
    const pkg = this.c.t.memberBindings.get(env.fileScope.id)?.get(GO_PACKAGE);
    // `package shop_test` beside `package shop`: the directory's importable name is the latter
    if (pkg && (!this.packageName.has(dir) || !pkg.endsWith('_test'))) this.packageName.set(dir, pkg);
  }

  prepare(envs: FileEnv[]): void {
    for (const env of envs) {
      const dir = this.file(env).dir;
      let table = this.decls.get(dir);
      if (!table) this.decls.set(dir, (table = new Map()));
      for (const s of env.file.scopes) {
        if (s.parentId === env.fileScope.id && s.kind !== 'method') push(table, s.name, s);
      }
    }
    for (const list of this.filesOf.values()) list.sort();
    for (const env of envs) {
      const dir = this.file(env).dir;
      for (const s of env.file.scopes) {
        if (s.kind !== 'method' || !s.owner) continue;
        const owners = (this.decls.get(dir)?.get(s.owner) ?? []).filter((t) => TYPE_LIKE.has(t.kind));
        for (const t of sameBuild(owners, s.path)) this.c.t.addMember(t, s);
      }
    }
  }

  addImport(env: FileEnv, imp: RawImport): void {
    const st = this.file(env);
    const target = this.importTarget(imp.specifier, st.dir);
    const alias = imp.names[0]?.local ?? '';
    const local = alias || ('dir' in target ? this.packageName.get(target.dir) : undefined) || defaultPackageName(imp.specifier);
    if ('dir' in target) {
      const used = this.filesUsed(env, target.dir, alias === '.' ? null : local);
      for (const p of used.length ? used : this.filesOf.get(target.dir) ?? []) {
        if (p !== env.file.path) this.c.link(env, imp, { kind: 'file', path: p });
      }
      if (alias === '.') st.dots.push(target.dir);
    } else {
      const name = 'std' in target ? target.std : target.external;
      this.c.link(env, imp, { kind: 'external', name });
    }
    if (alias === '_' || alias === '.') return;
    st.imports.set(local, target);
    if ('external' in target) env.imported.set(local, { target: { kind: 'external', name: target.external }, imported: '*' });
  }

  /**
   * The files of an imported package that declare what this file uses through it (`store.Open` ->
   * the file declaring Open): the IMPORTS edges. Linking every file of the package instead made
   * O(files x package size) edges (Go's runtime package alone has hundreds of files).
   */
  private filesUsed(env: FileEnv, dir: string, local: string | null): string[] {
    const table = this.decls.get(dir);
    if (!table) return [];
    const out = new Set<string>();
    for (const r of env.file.references) {
      const parts = r.targetName.split('.');
      let name: string | undefined;
      if (local === null) name = parsePart(parts[0]).name;
      else if (parts.length > 1 && parts[0] === local) name = parsePart(parts[1]).name;
      for (const d of (name && table.get(name)) || []) out.add(d.path);
    }
    for (const b of env.file.bindings) {
      if (local === null || !b.typeName.startsWith(`${local}.`)) continue;
      for (const d of table.get(parsePart(b.typeName.slice(local.length + 1).split('.')[0]).name) ?? []) out.add(d.path);
    }
    return [...out].sort();
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const st = this.file(env);
    const [head, ...rest] = parts;
    const step = parsePart(head);
    if (this.depth === 0) this.fromPath = from.path;
    if (kinds.has('function') && parts[parts.length - 1].endsWith('[]')) {
      // `Map[int](xs)` instantiates a generic function; `handlers[k](x)` calls a function value
      const plain = [...parts.slice(0, -1), parts[parts.length - 1].slice(0, -2)];
      const out = this.resolve(plain, from, env, kinds, wantType);
      return 'targets' in out && out.targets.every((t) => t.kind === 'function' || t.kind === 'method') ? out : { reason: 'dynamic' };
    }
    if (!wantType) {
      const local = this.c.localBinding(step.name, from);
      if (local !== null) {
        // calling a local or parameter: a function value
        if (step.call || (!rest.length && !step.elem)) return { reason: 'dynamic' };
        if (!step.elem) return this.walkTyped(local, from, rest, kinds);
        const elems = this.elementTypes(local, from);
        return elems.length ? this.walk(elems, rest, kinds, 'unknown-receiver') : { reason: this.whyNoType(elementOf(local), from) };
      }
    }
    // An import name may not also be declared in the package (a compile error), except in a
    // directory's external test package (`package x_test`), which this resolver reads as the package.
    const imp = st.imports.get(step.name);
    if (imp) {
      if ('std' in imp) return { reason: 'builtin' };
      if ('external' in imp) return { reason: 'external' };
      if (!rest.length) return { reason: 'not-found' };
      const [member, ...more] = rest;
      const mstep = parsePart(member);
      const found = sameBuild(this.decls.get(imp.dir)?.get(mstep.name) ?? [], from.path);
      return found.length ? this.walkFromDecls(found, mstep, more, kinds) : { reason: 'not-found' };
    }
    const decls = sameBuild(this.lookup(st, step.name), from.path);
    if (decls.length) return this.walkFromDecls(decls, step, rest, kinds);
    if (isGoPredeclared(step.name)) return { reason: 'builtin' };
    return { reason: rest.length || step.call ? 'unknown-receiver' : 'not-found' };
  }

  types(typeName: string, ctx: ParsedScope): ParsedScope[] {
    return this.typesOf(typeName, ctx);
  }

  /** Embedding is EXTENDS whatever the target (a struct embedding an interface promotes its methods too). */
  heritageEdge(): 'EXTENDS' {
    return 'EXTENDS';
  }

  /**
   * Implicit interface satisfaction: a struct or defined type whose method names (own and promoted)
   * include every method of an interface (own and embedded) IMPLEMENTS it. Interfaces that embed one
   * from outside the repository, and empty ones, are skipped: their method sets are not known here.
   */
  afterHeritage(envs: FileEnv[]): void {
    const implementors: ParsedScope[] = [];
    const interfaces: ParsedScope[] = [];
    for (const env of envs) {
      for (const s of env.file.scopes) {
        if (IMPLEMENTOR.has(s.kind)) implementors.push(s);
        else if (s.kind === 'interface') interfaces.push(s);
      }
    }
    const byMethod = new Map<string, ParsedScope[]>();
    const methodSets = new Map<string, Set<string>>();
    for (const t of implementors) {
      const set = this.methodNames(t, false);
      if (!set?.size) continue;
      methodSets.set(t.id, set);
      for (const m of set) push(byMethod, m, t);
    }
    for (const i of interfaces) {
      const required = this.methodNames(i, true);
      if (!required?.size) continue;
      const names = [...required];
      const first = names.reduce((a, b) => ((byMethod.get(a)?.length ?? 0) <= (byMethod.get(b)?.length ?? 0) ? a : b));
      for (const t of byMethod.get(first) ?? []) {
        const set = methodSets.get(t.id)!;
        if (names.every((n) => set.has(n))) this.c.addHeritage(t, i, 'IMPLEMENTS', undefined, 'fast');
      }
    }
  }

  // ---------------------------------------------------------------- lookups

  private file(env: FileEnv): GoFile {
    return env.state as GoFile;
  }

  /** A package-level name seen from a file: its package, then packages imported with `.`. */
  private lookup(st: GoFile, name: string): ParsedScope[] {
    const own = this.decls.get(st.dir)?.get(name);
    if (own?.length) return own;
    for (const d of st.dots) {
      const hit = this.decls.get(d)?.get(name);
      if (hit?.length) return hit;
    }
    return [];
  }

  private walkFromDecls(decls: ParsedScope[], step: Part, rest: string[], kinds: ReadonlySet<ScopeKind>): Outcome {
    if (!step.call && !step.elem) {
      if (!rest.length) return this.finish(decls, kinds);
      const vars = decls.filter((d) => d.kind === 'variable');
      if (!vars.length) return this.walk(decls, rest, kinds, 'not-found');
    }
    const types = this.stepTypes(decls, step);
    return types.length ? this.walk(types, rest, kinds, 'unknown-receiver') : { reason: this.whyNoStep(decls, step) };
  }

  private walkTyped(typeName: string, ctx: ParsedScope, rest: string[], kinds: ReadonlySet<ScopeKind>): Outcome {
    if (typeName === GO_FUNC) return { reason: 'dynamic' };
    const types = this.typesOf(typeName, ctx);
    if (!types.length) return { reason: this.whyNoType(typeName, ctx) };
    return this.walk(types, rest, kinds, 'not-found');
  }

  /**
   * Member by member from `owners` (aliases followed): methods (own, promoted through embedding),
   * struct fields by their declared types, call results (`B()`) by their declared result types,
   * elements (`xs[]`) by their container's element type.
   */
  private walk(owners: ParsedScope[], rest: string[], kinds: ReadonlySet<ScopeKind>, empty: UnresolvedReason): Outcome {
    if (!owners.length) return { reason: empty };
    let cur = this.deref(owners);
    for (let i = 0; i < rest.length; i++) {
      const step = parsePart(rest[i]);
      const last = i === rest.length - 1;
      const members = this.c.findMember(cur, step.name);
      if (members.length) {
        cur = preferConcrete(sameBuild(members, this.fromPath), this.c);
        if (step.call || step.elem) {
          const next = this.stepTypes(cur, step);
          if (!next.length) return { reason: this.whyNoStep(cur, step) };
          cur = next;
        }
        continue;
      }
      const field = this.c.memberBinding(cur, step.name);
      if (field !== null) {
        // `s.handler()`: calling a field holds a function value
        if (step.call || field === GO_FUNC || (last && !step.elem)) return { reason: 'dynamic' };
        const types = step.elem ? this.elementTypes(field, cur[0]) : this.typesOf(field, cur[0]);
        if (!types.length) return { reason: this.whyNoType(step.elem ? elementOf(field) : field, cur[0]) };
        cur = this.deref(types);
        continue;
      }
      const outside = cur.map((c) => this.c.unresolvedBase.get(c.id)).find((r) => r !== undefined);
      if (outside) return { reason: outside === 'not-found' || outside === 'unknown-receiver' ? 'not-found' : outside };
      return { reason: last ? 'not-found' : 'unknown-receiver' };
    }
    return this.finish(cur, kinds);
  }

  /**
   * The types a step through declarations gives: `f()` the declared result of functions and methods
   * (a type called is a conversion to it), `v` a package variable's type, `[]` the element type.
   */
  private stepTypes(decls: ParsedScope[], step: Part): ParsedScope[] {
    const out: ParsedScope[] = [];
    for (const d of decls) {
      let typeName: string | undefined;
      if (step.call) {
        if (TYPE_LIKE.has(d.kind)) {
          if (!step.elem) out.push(d);
          continue;
        }
        typeName = this.c.t.memberBindings.get(d.id)?.get(GO_RESULT);
      } else if (d.kind === 'variable') {
        typeName = d.parentId ? this.c.t.localBindings.get(d.parentId)?.get(d.name) : undefined;
      } else if (step.elem && TYPE_LIKE.has(d.kind)) {
        // an element of a value of a named slice or map type (`type nodes []*node`)
        const under = this.c.t.memberBindings.get(d.id)?.get(GO_UNDERLYING);
        if (under?.startsWith('[]')) out.push(...this.typesOf(under.slice(2), d));
        continue;
      }
      if (typeName) out.push(...(step.elem ? this.elementTypes(typeName, d) : this.typesOf(typeName, d)));
    }
    return [...new Set(out)];
  }

  private finish(targets: ParsedScope[], kinds: ReadonlySet<ScopeKind>): Outcome {
    // calling a type is a conversion (`Celsius(x)`, `HandlerFunc(f)`); a function named, not called, is a value
    const calling = kinds.has('function');
    const ok = targets.filter((t) => kinds.has(t.kind) || (calling ? TYPE_LIKE.has(t.kind) : t.kind === 'function' || t.kind === 'method'));
    return ok.length ? { targets: ok } : { reason: 'not-found' };
  }

  /** The scopes a type name written in `ctx`'s file stands for (`T`, `pkg.T`, `f()`: f's result type). */
  private typesOf(typeName: string, ctx: ParsedScope): ParsedScope[] {
    if (typeName === GO_UNTYPED || typeName === GO_FUNC || this.depth >= MAX_DEPTH) return [];
    const env = this.c.envs.get(ctx.path);
    if (!env || !env.state) return [];
    this.depth++;
    try {
      if (typeName.startsWith('[]')) return []; // a slice or map: no members of its own
      if (typeName.startsWith(GO_VALUE)) return this.valueTypes(typeName.slice(GO_VALUE.length).split('.'), ctx, env);
      if (typeName.endsWith('()') || typeName.endsWith('[]')) {
        // a call's result or an element, written as the expression: `NewServer()`, `s.all[]`
        const out = this.resolve(typeName.split('.'), ctx, env, TYPE_LIKE, false);
        return 'targets' in out ? out.targets : [];
      }
      const st = this.file(env);
      const dot = typeName.indexOf('.');
      let found: ParsedScope[];
      if (dot < 0) found = sameBuild(this.lookup(st, typeName), ctx.path);
      else {
        const imp = st.imports.get(typeName.slice(0, dot));
        found = imp && 'dir' in imp ? sameBuild(this.decls.get(imp.dir)?.get(typeName.slice(dot + 1)) ?? [], ctx.path) : [];
      }
      return this.deref(found.filter((s) => TYPE_LIKE.has(s.kind)));
    } finally {
      this.depth--;
    }
  }

  /** What ranging over or indexing a value of this declared type gives (`[]T`, or a named slice or map type). */
  private elementTypes(typeName: string, ctx: ParsedScope): ParsedScope[] {
    if (typeName.startsWith('[]')) return this.typesOf(typeName.slice(2), ctx);
    const out: ParsedScope[] = [];
    for (const t of this.typesOf(typeName, ctx)) {
      const under = this.c.t.memberBindings.get(t.id)?.get(GO_UNDERLYING);
      if (under?.startsWith('[]')) out.push(...this.typesOf(under.slice(2), t));
    }
    return out;
  }

  /** The declared type of a value written `x` or `x.f.g` (a local, parameter or package var, then fields). */
  private valueTypes(parts: string[], ctx: ParsedScope, env: FileEnv): ParsedScope[] {
    if (parts.length === 1) {
      const local = this.c.localBinding(parts[0], ctx);
      if (local !== null) return this.typesOf(local, ctx);
      const vars = sameBuild(this.lookup(this.file(env), parts[0]), ctx.path).filter((d) => d.kind === 'variable');
      return this.stepTypes(vars, { name: parts[0], call: false, elem: false });
    }
    const owners = this.valueTypes(parts.slice(0, -1), ctx, env);
    const field = owners.length ? this.c.memberBinding(owners, parts[parts.length - 1]) : null;
    return field ? this.typesOf(field, owners[0]) : [];
  }

  /** `type A = B`: A's members are B's. */
  private deref(types: ParsedScope[]): ParsedScope[] {
    if (!types.some((t) => t.kind === 'type_alias')) return types;
    return types.flatMap((t) => {
      if (t.kind !== 'type_alias') return [t];
      const u = this.c.t.memberBindings.get(t.id)?.get(GO_UNDERLYING);
      if (!u || u === GO_FUNC || u.startsWith('[]')) return [t];
      const under = this.typesOf(u, t);
      return under.length ? under : [t];
    });
  }

  /** Why a step gives no type: its declared type is from outside the repository, a function value, or unknown. */
  private whyNoStep(decls: ParsedScope[], step: Part): UnresolvedReason {
    for (const d of decls) {
      if (step.call && d.kind === 'variable') return 'dynamic';
      const typeName = step.call
        ? this.c.t.memberBindings.get(d.id)?.get(GO_RESULT)
        : d.kind === 'variable' && d.parentId ? this.c.t.localBindings.get(d.parentId)?.get(d.name) : undefined;
      if (typeName && typeName !== GO_UNTYPED) return this.whyNoType(step.elem ? elementOf(typeName) : typeName, d);
    }
    return 'unknown-receiver';
  }

  /** Why a declared type has no scope: it comes from the standard library or a dependency, or is unknown. */
  private whyNoType(typeName: string, ctx: ParsedScope): UnresolvedReason {
    if (typeName === GO_FUNC) return 'dynamic';
    if ((typeName.endsWith('()') || typeName.endsWith('[]')) && this.depth < MAX_DEPTH) {
      // `err := s.Handle()`: why Handle's declared result (`error`) has no scope
      const env = this.c.envs.get(ctx.path);
      if (!env) return 'unknown-receiver';
      this.depth++;
      try {
        const out = this.resolve(typeName.split('.'), ctx, env, TYPE_LIKE, false);
        return 'reason' in out && out.reason !== 'not-found' ? out.reason : 'unknown-receiver';
      } finally {
        this.depth--;
      }
    }
    const st = this.files.get(ctx.path);
    const head = typeName.split('.')[0].replace(/\(\)$/, '');
    const imp = st?.imports.get(head);
    if (imp && 'std' in imp) return 'builtin';
    if (imp && 'external' in imp) return 'external';
    if (isGoPredeclared(head)) return 'builtin';
    return 'unknown-receiver';
  }

  /** Method names of a type: own ones and those promoted through embedding; null if an embedded type is not in the repository. */
  private methodNames(s: ParsedScope, strict: boolean): Set<string> | null {
    const out = new Set<string>();
    const seen = new Set<string>();
    let level = [s];
    for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
      const next: ParsedScope[] = [];
      for (const t of level) {
        if (seen.has(t.id)) continue;
        seen.add(t.id);
        if (strict && this.c.unresolvedBase.has(t.id)) return null;
        for (const [name, list] of this.c.t.children.get(t.id) ?? []) if (list.some((m) => m.kind === 'method')) out.add(name);
        next.push(...(this.c.extendsOf.get(t.id) ?? []));
      }
      level = next;
    }
    return out;
  }

  // ---------------------------------------------------------------- import paths

  private importTarget(spec: string, fromDir: string): GoImport {
    const key = `${fromDir}\u0000${spec}`;
    let t = this.dirMemo.get(key);
    if (!t) this.dirMemo.set(key, (t = this.findImport(spec, fromDir)));
    return t;
  }

  private findImport(spec: string, fromDir: string): GoImport {
    const modules = this.moduleList();
    for (const m of modules) {
      // Go's own tree: `module std` (src/) and `module cmd` (src/cmd/) hold the standard library's paths
      if (m.path === 'std' || m.path === 'cmd') {
        const dir = joinPath(m.root, m.path === 'cmd' && spec.startsWith('cmd/') ? spec.slice(4) : spec);
        if (this.filesOf.has(dir)) return { dir };
        continue;
      }
      if (spec !== m.path && !spec.startsWith(`${m.path}/`)) continue;
      const dir = joinPath(m.root, spec.slice(m.path.length));
      if (this.filesOf.has(dir)) return { dir };
    }
    for (let d = fromDir; ; d = dirname(d)) {
      const vendored = joinPath(d, 'vendor', spec);
      if (this.filesOf.has(vendored)) return { dir: vendored };
      if (!d) break;
    }
    if (isStdImport(spec)) return { std: spec };
    if (!modules.length) {
      const dir = this.byTail(spec);
      if (dir !== null) return { dir };
    }
    return { external: spec };
  }

  /** No go.mod: the directory sharing the longest tail with the import path, if exactly one does. */
  private byTail(spec: string): string | null {
    const segs = spec.split('/');
    let best: string | null = null;
    let bestLen = 0;
    let tie = false;
    for (const dir of this.filesOf.keys()) {
      const ds = dir.split('/');
      let k = 0;
      while (k < ds.length && k < segs.length && ds[ds.length - 1 - k] === segs[segs.length - 1 - k]) k++;
      if (k === 0) continue;
      if (k > bestLen) {
        best = dir;
        bestLen = k;
        tie = false;
      } else if (k === bestLen) tie = true;
    }
    return tie ? null : best;
  }

  /** `module` lines of the go.mod files handed in, longest module path first. */
  private moduleList(): { path: string; root: string }[] {
    if (this.modules) return this.modules;
    const out: { path: string; root: string }[] = [];
    for (const [p, text] of Object.entries(this.c.manifests)) {
      if (p !== 'go.mod' && !p.endsWith('/go.mod')) continue;
      const m = /^\s*module\s+"?([^\s"]+)"?/m.exec(text);
      if (m) out.push({ path: m[1], root: dirname(p) });
    }
    out.sort((a, b) => b.path.length - a.path.length || (a.root < b.root ? -1 : 1));
    return (this.modules = out);
  }
}

/** GOOS and GOARCH values a file name may end with (`os_linux.go`, `defs_netbsd_386.go`, `asm_amd64_test.go`). */
const BUILD_TAGS = new Set([
  'aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'js', 'linux', 'nacl', 'netbsd', 'openbsd',
  'plan9', 'solaris', 'wasip1', 'windows', 'zos', '386', 'amd64', 'amd64p32', 'arm', 'armbe', 'arm64', 'arm64be', 'loong64',
  'mips', 'mipsle', 'mips64', 'mips64le', 'mips64p32', 'mips64p32le', 'ppc', 'ppc64', 'ppc64le', 'riscv', 'riscv64', 's390',
  's390x', 'sparc', 'sparc64', 'wasm',
]);

function buildTags(path: string): string[] {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/(?:_test)?\.go$/, '');
  const segs = base.split('_');
  const tags: string[] = [];
  for (let i = segs.length - 1; i > 0 && tags.length < 2 && BUILD_TAGS.has(segs[i]); i--) tags.push(segs[i]);
  return tags;
}

/**
 * Several package-level declarations of one name are build variants (`osinit` in os_linux.go and
 * os_darwin.go): from a file, the one in that file, else those whose file names share the most
 * GOOS/GOARCH suffixes with it, else those of files without such suffixes; all when nothing decides.
 */
function sameBuild(decls: ParsedScope[], fromPath: string): ParsedScope[] {
  if (decls.length < 2) return decls;
  const own = decls.filter((d) => d.path === fromPath);
  if (own.length) return own;
  const mine = buildTags(fromPath);
  let best = 0;
  let kept: ParsedScope[] = [];
  for (const d of decls) {
    const tags = buildTags(d.path);
    const score = mine.length ? tags.filter((t) => mine.includes(t)).length : tags.length === 0 ? 1 : 0;
    if (score > best) {
      best = score;
      kept = [d];
    } else if (score === best && score > 0) kept.push(d);
  }
  return best > 0 ? kept : decls;
}

/** One element of a written chain: `name`, a call `name()`, an element `name[]` (or `name()[]`). */
interface Part {
  name: string;
  call: boolean;
  elem: boolean;
}

function parsePart(part: string): Part {
  let p = part;
  const elem = p.endsWith('[]');
  if (elem) p = p.slice(0, -2);
  const call = p.endsWith('()');
  if (call) p = p.slice(0, -2);
  return { name: p, call, elem };
}

/** The element type of a container binding (`[]Item` -> `Item`); `x[]` (the element of an expression) otherwise. */
function elementOf(typeName: string): string {
  if (typeName.startsWith('[]')) return typeName.slice(2);
  return typeName === GO_UNTYPED || typeName === GO_FUNC ? GO_UNTYPED : `${typeName}[]`;
}

/** Prefer a concrete method over an interface's same-named one found at the same depth (S embeds Base and satisfies I). */
function preferConcrete(members: ParsedScope[], c: ResolverContext): ParsedScope[] {
  if (members.length < 2) return members;
  const concrete = members.filter((m) => c.t.parent(m)?.kind !== 'interface');
  return concrete.length ? concrete : members;
}
