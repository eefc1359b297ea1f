import type { ParsedScope, RawImport, ScopeKind } from '../../parse/types';
import { dirname, joinPath } from '../../resolve/module-resolver';
import type { FamilyResolver, FileEnv, Outcome, ResolverContext } from '../../resolve/resolver-context';
import { push } from '../../resolve/symbol-table';
import type { UnresolvedReason } from '../../resolve/types';
import { isPhpBuiltin, isPhpBuiltinClass, isPhpBuiltinFunction, PHP_DYNAMIC_FUNCTIONS } from './builtins';
import { RETURNS } from './extractor';

const TYPES = new Set<ScopeKind>(['class', 'interface', 'trait', 'enum']);

/** What a PHP file's `use` statements bring in: local name -> fully qualified dotted name. */
interface PhpUses {
  classes: Map<string, string>;
  functions: Map<string, string>;
  consts: Map<string, string>;
}

/** composer.json `autoload`/`autoload-dev` PSR-4 entry: namespace prefix (dotted, with trailing dot) -> directories. */
interface Psr4 {
  prefix: string;
  dirs: string[];
}

/**
 * PHP names.
 *
 * - Types and functions are global by fully qualified name (`App.Models.Invoice`): a class name
 *   resolves like PHP does, `\A\B` as written, `A\B` and `B` through the file's `use` aliases first,
 *   then the current namespace (then the global namespace, leniently, for classes). An unqualified
 *   function: `use function` aliases, the current namespace, then the global one.
 * - IMPORTS: `use A\B\C;` links to the file declaring `A\B\C`; when the repository does not, PSR-4
 *   (composer.json `autoload`/`autoload-dev` `psr-4`, read from `ctx.manifests`) maps the namespace
 *   prefix to a directory: a mapped prefix whose file is absent is `missing`, an unmapped one is a
 *   dependency (`external`, named by its first two segments, `Psr\Log`). `require`/`include` of a
 *   literal path resolve from the file's directory, then the repository root.
 * - Calls: `$this->m()`, `self::`/`static::` through the enclosing class and its ancestors (parent
 *   class, interfaces, traits), `parent::m()` from the parent, `A::m()`, `new A()` -> `__construct`
 *   (inherited ones too; the class itself when none), `$x->m()` through typed parameters, `$x = new
 *   A()`, PHPDoc `@param`/`@var`, `$this->prop->m()` through typed (or promoted, or `new`-assigned)
 *   properties, `f()->m()` through declared return types.
 * - Not in the repository: PHP's classes and functions `builtin`; a name imported from a namespace the
 *   repository does not declare `external`; `$f()`, `call_user_func(...)`, `$obj->$name()` `dynamic`.
 */
export class PhpResolver implements FamilyResolver {
  private readonly byFqn = new Map<string, ParsedScope[]>();
  private readonly functions = new Map<string, ParsedScope[]>();
  private readonly constants = new Map<string, ParsedScope[]>();
  private readonly namespaces = new Set<string>();
  private readonly phpPaths = new Set<string>();
  private psr4: Psr4[] = [];
  /** Why the last chain typed by `types` stopped (a step's class from outside the repository...). */
  private lastMiss: UnresolvedReason | null = null;
  /** Direct subtypes (extending or implementing classes) by the base's id. */
  private readonly subtypes = new Map<string, ParsedScope[]>();

  constructor(private readonly c: ResolverContext) {}

  prepare(envs: FileEnv[]): void {
    for (const env of envs) {
      this.phpPaths.add(env.file.path);
      env.state = { classes: new Map(), functions: new Map(), consts: new Map() } satisfies PhpUses;
      for (const s of env.file.scopes) {
        if (TYPES.has(s.kind)) push(this.byFqn, s.qualifiedName, s);
        else if (s.kind === 'function') push(this.functions, s.qualifiedName, s);
        else if (s.kind === 'namespace') {
          const segs = s.qualifiedName.split('.');
          for (let i = 1; i <= segs.length; i++) this.namespaces.add(segs.slice(0, i).join('.'));
        }
      }
    }
    for (const [path, content] of Object.entries(this.c.manifests)) {
      if (!path.endsWith('composer.json')) continue;
      let json: { autoload?: { 'psr-4'?: Record<string, string | string[]> }; 'autoload-dev'?: { 'psr-4'?: Record<string, string | string[]> } };
      try {
        json = JSON.parse(content);
      } catch {
        continue; // a broken manifest maps nothing
      }
      const base = dirname(path);
      for (const section of [json.autoload, json['autoload-dev']]) {
        for (const [prefix, dirs] of Object.entries(section?.['psr-4'] ?? {})) {
          const list = (Array.isArray(dirs) ? dirs : [dirs]).map((d) => joinPath(base, d));
          this.psr4.push({ prefix: prefix.replace(/\\+$/, '').replace(/\\/g, '.') + (prefix ? '.' : ''), dirs: list });
        }
      }
    }
    this.psr4.sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1));
  }

  addImport(env: FileEnv, imp: RawImport): void {
    const uses = env.state as PhpUses;
    if (!imp.names.length) {
      this.includeFile(env, imp);
      return;
    }
    const { imported: what, local } = imp.names[0];
    const fq = imp.specifier;
    (what === 'function' ? uses.functions : what === 'const' ? uses.consts : uses.classes).set(local, fq);
    const declared = what === 'function' ? this.functions.get(fq) : this.byFqn.get(fq);
    if (declared?.length) {
      for (const p of new Set(declared.map((d) => d.path))) if (p !== env.file.path) this.c.link(env, imp, { kind: 'file', path: p });
      return;
    }
    if (what === 'class') {
      const mapped = this.psr4.find((m) => fq.startsWith(m.prefix));
      if (mapped) {
        const rel = `${fq.slice(mapped.prefix.length).replace(/\./g, '/')}.php`;
        const file = mapped.dirs.map((d) => joinPath(d, rel)).find((p) => this.phpPaths.has(p));
        this.c.link(env, imp, file ? { kind: 'file', path: file } : { kind: 'missing' });
        return;
      }
      if (this.namespaces.has(fq.slice(0, fq.lastIndexOf('.')))) {
        this.c.link(env, imp, { kind: 'missing' }); // a namespace of the repository without that class
        return;
      }
    }
    const segs = fq.split('.');
    this.c.link(env, imp, { kind: 'external', name: segs.slice(0, Math.min(2, segs.length - 1) || 1).join('\\') });
  }

  private includeFile(env: FileEnv, imp: RawImport): void {
    const spec = imp.specifier;
    const here = dirname(env.file.path);
    const candidates = spec.startsWith('./') || spec.startsWith('../') ? [joinPath(here, spec)] : [joinPath(here, spec), joinPath(spec)];
    const hit = candidates.find((p) => this.phpPaths.has(p));
    this.c.link(env, imp, hit ? { kind: 'file', path: hit } : { kind: 'missing' });
  }

  types(typeName: string, ctx: ParsedScope, env: FileEnv, depth = 0): ParsedScope[] {
    if (typeName === 'self' || typeName === 'static' || typeName === 'this') {
      const t = this.enclosingType(ctx);
      return t ? [t] : [];
    }
    const direct = this.classes(typeName, ctx, env);
    if (direct) return direct;
    // A local bound to a chain (`$x = $this->repo`, `$x = $y->make()`, `$x = A::create()`): its class.
    const parts = typeName.split('.');
    if (parts.length < 2 || depth > 4) return [];
    let cur: ParsedScope[];
    if (parts[0].startsWith('$')) {
      const t = this.c.localBinding(parts[0], ctx) ?? (this.inFunction(ctx) ? null : this.c.fileBinding(parts[0], env));
      cur = t && t !== typeName ? this.types(t, ctx, env, depth + 1) : [];
    } else cur = this.types(parts.slice(0, parts[0] === 'this' || parts[0] === 'self' || parts[0] === 'static' || parts[0] === 'parent' ? 1 : -1).join('.'), ctx, env, depth + 1);
    if (parts[0] === 'parent') cur = cur.flatMap((t) => this.c.extendsOf.get(t.id) ?? []);
    const steps = parts[0].startsWith('$') || ['this', 'self', 'static', 'parent'].includes(parts[0]) ? parts.slice(1) : parts.slice(-1);
    for (const name of steps) {
      if (!cur.length) return [];
      const found = this.c.findMember(cur, name);
      const t = this.c.memberBinding(cur, name) ?? this.returnType(found);
      if (!t) return [];
      const at = found[0] ?? cur[0];
      const atEnv = this.c.envs.get(at.path) ?? env;
      cur = this.types(t, at, atEnv, depth + 1);
      if (!cur.length && !t.includes('.')) this.lastMiss = this.outside(t, atEnv);
    }
    return cur;
  }

  resolve(parts: string[], from: ParsedScope, env: FileEnv, kinds: ReadonlySet<ScopeKind>, wantType: boolean): Outcome {
    const accept = wantType ? new Set<ScopeKind>([...kinds, ...TYPES]) : kinds;
    const head = parts[0];
    const rest = parts.slice(1);
    if (head === 'this' || head === 'self' || head === 'static') {
      const t = this.enclosingType(from);
      if (!t) return { reason: 'unknown-receiver' };
      return rest.length ? this.members([t], rest, env, accept) : this.c.finish([t], accept, 'not-found');
    }
    if (head === 'parent') {
      const t = this.enclosingType(from);
      const bases = t ? this.c.extendsOf.get(t.id) ?? [] : [];
      if (!bases.length) return { reason: t && this.c.unresolvedBase.has(t.id) ? this.c.unresolvedBase.get(t.id)! : 'not-found' };
      return this.members(bases, rest, env, accept);
    }
    if (head.startsWith('$')) {
      if (!rest.length) return { reason: 'dynamic' }; // `$f()`: a closure or callable string
      const typeName = this.c.localBinding(head, from) ?? (this.inFunction(from) ? null : this.c.fileBinding(head, env));
      if (!typeName) return { reason: 'unknown-receiver' };
      this.lastMiss = null;
      const types = this.types(typeName, from, env);
      if (!types.length) {
        const r = this.lastMiss ?? this.outside(typeName, env);
        return { reason: r === 'not-found' && typeName.includes('.') ? 'unknown-receiver' : r };
      }
      return this.members(types, rest, env, accept);
    }
    if (!rest.length && !wantType) return this.func(head, from, env, accept);
    // `A\B::m()`, `new A\B()` (`A.B.__construct`), a type name, `\A\f()`
    const name = parts.join('.');
    if (!wantType && !accept.has('namespace')) {
      const types = this.classes(parts.slice(0, -1).join('.'), from, env);
      if (types) return this.members(types, parts.slice(-1), env, accept);
      const fn = this.func(name, from, env, accept);
      if ('targets' in fn) return fn;
      return { reason: this.outside(parts.slice(0, -1).join('.'), env) };
    }
    const types = this.classes(name, from, env);
    if (types) return this.c.finish(types, accept, 'not-found');
    // `A::CONST`, enum cases
    if (parts.length > 1) {
      const owner = this.classes(parts.slice(0, -1).join('.'), from, env);
      if (owner) return this.members(owner, parts.slice(-1), env, accept);
    }
    return { reason: this.outside(name, env) };
  }

  /** Follow members from `types`: properties through their declared type, methods through their return type. */
  private members(types: ParsedScope[], rest: string[], env: FileEnv, accept: ReadonlySet<ScopeKind>): Outcome {
    let cur = types;
    for (let i = 0; i < rest.length; i++) {
      const name = rest[i];
      const last = i === rest.length - 1;
      if (name === '__construct' && last) {
        const ctors = this.c.findMember(cur, '__construct').filter((s) => s.kind === 'constructor');
        return this.c.finish(ctors.length ? ctors : cur, accept, 'not-found');
      }
      const found = this.concrete(this.c.findMember(cur, name));
      if (last) {
        // methods and properties are separate namespaces: `->price()` is the method, not `$price`
        const methods = found.filter((f) => f.kind === 'method' || f.kind === 'function');
        if (methods.length && accept.has('method')) return this.c.finish(methods, accept, 'not-found');
        if (found.length) return this.c.finish(found, accept, 'not-found');
        if (cur.some((t) => this.c.inheritsFromOutside(t))) return { reason: 'external' };
        // `if ($h instanceof Formattable) $h->setFormatter()`: declared on subtypes of the declared type
        const below = this.onSubtypes(cur, name);
        if (below.length === 1) return this.c.finish(below, accept, 'not-found');
        return { reason: below.length ? 'dynamic' : 'not-found' };
      }
      // `$this->repo->save()`: the property's (or a method's return) declared type
      const typeName = this.c.memberBinding(cur, name) ?? this.returnType(found);
      if (!typeName) return { reason: cur.some((t) => this.c.inheritsFromOutside(t)) ? 'external' : 'unknown-receiver' };
      const ctx = found[0] ?? cur[0];
      const next = this.types(typeName, ctx, this.c.envs.get(ctx.path) ?? env);
      if (!next.length) {
        const r = this.outside(typeName, this.c.envs.get(ctx.path) ?? env);
        return { reason: r === 'not-found' ? 'unknown-receiver' : r };
      }
      cur = next;
    }
    return this.c.finish(cur, accept, 'not-found');
  }

  afterHeritage(): void {
    for (const map of [this.c.extendsOf, this.c.implementsOf]) {
      for (const [id, bases] of map) {
        const sub = this.c.t.scopes.get(id);
        if (sub?.language === 'php') for (const b of bases) push(this.subtypes, b.id, sub);
      }
    }
  }

  /** Members named `name` declared by (transitive) subtypes of `types`, de-duplicated. */
  private onSubtypes(types: ParsedScope[], name: string): ParsedScope[] {
    const out = new Map<string, ParsedScope>();
    const seen = new Set<string>();
    const stack = [...types];
    while (stack.length && seen.size < 500) {
      const t = stack.pop()!;
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      for (const sub of this.subtypes.get(t.id) ?? []) {
        for (const m of this.c.t.childrenNamed(sub, name)) out.set(m.id, m);
        stack.push(sub);
      }
    }
    return [...out.values()].filter((m) => m.kind === 'method' || m.kind === 'property');
  }

  /**
   * A class that implements an interface and uses a trait declaring the same method finds both at one
   * depth; the trait's (or a class's) body is what runs, so the interface's declaration is dropped.
   */
  private concrete(found: ParsedScope[]): ParsedScope[] {
    const inInterface = (m: ParsedScope) => this.c.t.parent(m)?.kind === 'interface';
    return found.some(inInterface) && found.some((m) => !inInterface(m)) ? found.filter((m) => !inInterface(m)) : found;
  }

  private returnType(methods: ParsedScope[]): string | null {
    const types = new Set<string>();
    for (const m of methods) {
      const r = this.c.t.localBindings.get(m.id)?.get(RETURNS);
      if (!r) return null;
      types.add(r);
    }
    return types.size === 1 ? [...types][0] : null;
  }

  /** An unqualified or qualified function name, PHP's way. */
  private func(name: string, from: ParsedScope, env: FileEnv, accept: ReadonlySet<ScopeKind>): Outcome {
    if (PHP_DYNAMIC_FUNCTIONS.has(name)) return { reason: 'dynamic' };
    const uses = env.state as PhpUses;
    const abs = name.startsWith('\\');
    const bare = name.replace(/^\\/, '');
    const candidates: string[] = [];
    if (abs) candidates.push(bare);
    else if (!bare.includes('.')) {
      const used = uses.functions.get(bare);
      if (used) candidates.push(used);
      candidates.push(`${this.namespaceOf(from)}${bare}`, bare);
    } else {
      const [first, ...more] = bare.split('.');
      const alias = uses.classes.get(first); // `use A\B;` then `B\f()`
      if (alias) candidates.push([alias, ...more].join('.'));
      candidates.push(`${this.namespaceOf(from)}${bare}`, bare);
    }
    for (const q of candidates) {
      const hit = this.functions.get(q);
      if (hit?.length) return this.c.finish(hit, accept, 'not-found');
    }
    const last = bare.slice(bare.lastIndexOf('.') + 1);
    if (isPhpBuiltinFunction(last)) return { reason: 'builtin' };
    if (uses.functions.has(bare)) return { reason: 'external' };
    // nothing in the repository declares a function of that name: an extension's or a dependency's
    return { reason: [...this.functions.keys()].some((k) => k === last || k.endsWith(`.${last}`)) ? 'not-found' : 'external' };
  }

  /** A class name as PHP resolves it from `from`'s namespace and the file's `use` aliases; null when the repository has none. */
  private classes(name: string, from: ParsedScope, env: FileEnv): ParsedScope[] | null {
    if (!name) return null;
    if (name === 'self' || name === 'static') {
      const t = this.enclosingType(from);
      return t ? [t] : null;
    }
    const uses = env.state as PhpUses | undefined;
    const candidates: string[] = [];
    if (name.startsWith('\\')) candidates.push(name.slice(1));
    else {
      const [first, ...more] = name.split('.');
      const alias = uses?.classes.get(first);
      if (alias) candidates.push([alias, ...more].join('.'));
      candidates.push(`${this.namespaceOf(from)}${name}`, name);
    }
    for (const q of candidates) {
      const hit = this.byFqn.get(q);
      if (hit?.length) return hit;
    }
    return null;
  }

  /** Why a class (or its namespace) that the repository does not declare was not resolved. */
  private outside(name: string, env: FileEnv): UnresolvedReason {
    const bare = name.replace(/^\\/, '');
    const first = bare.split('.')[0];
    const uses = env.state as PhpUses;
    if (!bare.includes('.') && isPhpBuiltinClass(bare)) return 'builtin';
    if (name.startsWith('\\') && !bare.includes('.') && isPhpBuiltin(bare)) return 'builtin';
    const alias = uses.classes.get(first);
    const fq = alias ? [alias, ...bare.split('.').slice(1)].join('.') : bare;
    const ns = fq.slice(0, Math.max(0, fq.lastIndexOf('.')));
    if (alias && !this.namespaces.has(ns) && !this.psr4.some((m) => fq.startsWith(m.prefix))) return 'external';
    if (!alias && name.startsWith('\\') && !this.namespaces.has(ns)) return 'external';
    return 'not-found';
  }


  /** Inside a function or method (whose variables are its own, not the script's). */
  private inFunction(from: ParsedScope): boolean {
    for (let s: ParsedScope | undefined = from; s; s = this.c.t.parent(s)) if (s.kind === 'function' || s.kind === 'method' || s.kind === 'constructor') return true;
    return false;
  }

  private enclosingType(from: ParsedScope): ParsedScope | null {
    for (let s: ParsedScope | undefined = from; s; s = this.c.t.parent(s)) if (TYPES.has(s.kind)) return s;
    return null;
  }

  /** The dotted namespace around a scope, with a trailing dot ('' for the global namespace). */
  private namespaceOf(from: ParsedScope): string {
    for (let s: ParsedScope | undefined = from; s; s = this.c.t.parent(s)) if (s.kind === 'namespace') return `${s.qualifiedName}.`;
    return '';
  }
}
