import { normaliseSqlName } from '../languages/sql/lexer';
import { FileBindings, PackedBindings } from '../parse/packed-bindings';
import type { ParsedFile, ParsedScope, ScopeKind, TypedBinding } from '../parse/types';

export const CLASS_LIKE = new Set<ScopeKind>(['class', 'interface', 'struct', 'record', 'trait', 'union']);
export const TYPE_LIKE = new Set<ScopeKind>(['class', 'interface', 'struct', 'record', 'enum', 'type_alias', 'trait', 'union']);
const SQL_OBJECT = new Set<ScopeKind>(['table', 'view', 'procedure', 'sql_function', 'trigger']);

/**
 * Every scope of a repository, indexed the ways the per-language resolvers look names up: by id, by
 * (parent, name), C# types by qualified name and namespaces by file, SQL objects by `schema.name`
 * and bare name, and the declared types of fields, parameters and locals. Built once per run.
 */
export class SymbolTable {
  readonly scopes = new Map<string, ParsedScope>();
  readonly children = new ChildIndex();
  readonly csTypes = new Map<string, ParsedScope[]>();
  readonly csNamespaceFiles = new Map<string, Set<string>>();
  readonly sqlByKey = new Map<string, ParsedScope[]>();
  readonly sqlByName = new Map<string, ParsedScope[]>();
  readonly memberBindings = new BindingTable();
  readonly localBindings = new BindingTable();

  constructor(files: ParsedFile[], readonly sqlSchema: string) {
    for (const f of files) {
      for (const s of f.scopes) {
        this.scopes.set(s.id, s);
        if (s.parentId) this.children.add(s.parentId, s);
        if (f.language === 'csharp') {
          if (TYPE_LIKE.has(s.kind)) push(this.csTypes, s.qualifiedName, s);
          if (s.kind === 'namespace') {
            let set = this.csNamespaceFiles.get(s.qualifiedName);
            if (!set) this.csNamespaceFiles.set(s.qualifiedName, (set = new Set()));
            set.add(f.path);
          }
        }
        if (SQL_OBJECT.has(s.kind)) {
          push(this.sqlByKey, normaliseSqlName(s.qualifiedName, sqlSchema), s);
          push(this.sqlByName, s.name.toLowerCase(), s);
        }
      }
      BindingTable.addFile(f.bindings ?? [], this.memberBindings, this.localBindings);
    }
  }

  /**
   * Makes `member` a member of `owner` for lookups (`findMember`, `x.m()` through a typed receiver) when
   * it is declared outside the owner's body: Go methods with a receiver, Rust `impl` blocks, C++
   * out-of-line `A::f` definitions, reopened Ruby classes. The member's `parentId` is left as written.
   */
  addMember(owner: ParsedScope, member: ParsedScope): void {
    if (!this.children.get(owner.id)?.get(member.name)?.includes(member)) this.children.add(owner.id, member);
  }

  childrenNamed(s: ParsedScope, name: string): ParsedScope[] {
    return this.children.get(s.id)?.get(name) ?? [];
  }

  parent(s: ParsedScope): ParsedScope | undefined {
    return s.parentId ? this.scopes.get(s.parentId) : undefined;
  }

  /** C# partial types: every scope sharing the qualified name; otherwise the scope itself. */
  partsOf(s: ParsedScope): ParsedScope[] {
    if (s.language === 'csharp' && TYPE_LIKE.has(s.kind)) return this.csTypes.get(s.qualifiedName) ?? [s];
    return [s];
  }
}

export function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/** Parents with more children than this also get a Map by name (a module's or a big class's members). */
const CHILD_SCAN_MAX = 16;

/**
 * Every scope's children, by parent id: a list per parent, scanned by name, and for parents with
 * many children also a Map by name. A Map of names to one-element lists per parent was ~0.1 GiB of
 * what resolution held at a million scopes (most names occur once among a parent's children).
 */
export class ChildIndex {
  private readonly lists = new Map<string, ParsedScope[]>();
  private readonly byName = new Map<string, Map<string, ParsedScope[]>>();

  add(parentId: string, child: ParsedScope): void {
    const list = this.lists.get(parentId);
    if (!list) {
      this.lists.set(parentId, [child]);
      return;
    }
    list.push(child);
    const named = this.byName.get(parentId);
    if (named) push(named, child.name, child);
    else if (list.length > CHILD_SCAN_MAX) {
      const m = new Map<string, ParsedScope[]>();
      for (const c of list) push(m, c.name, c);
      this.byName.set(parentId, m);
    }
  }

  get(parentId: string): Children | undefined {
    const list = this.lists.get(parentId);
    return list ? new Children(list, this.byName.get(parentId)) : undefined;
  }
}

/** One parent's children, read like a Map of name to the children of that name, in the order they were added. */
export class Children implements Iterable<[string, ParsedScope[]]> {
  constructor(private readonly list: readonly ParsedScope[], private readonly named: ReadonlyMap<string, ParsedScope[]> | undefined) {}

  get(name: string): ParsedScope[] | undefined {
    if (this.named) return this.named.get(name);
    let out: ParsedScope[] | undefined;
    for (const c of this.list) if (c.name === name) (out ??= []).push(c);
    return out;
  }

  values(): IterableIterator<ParsedScope[]> {
    return this.groups().values();
  }

  [Symbol.iterator](): IterableIterator<[string, ParsedScope[]]> {
    return this.groups().entries();
  }

  private groups(): ReadonlyMap<string, ParsedScope[]> {
    if (this.named) return this.named;
    const m = new Map<string, ParsedScope[]>();
    for (const c of this.list) push(m, c.name, c);
    return m;
  }
}

/** One scope's bindings in a {@link BindingTable}: name → declared type (the first binding of a name). */
export class ScopeBindings {
  constructor(private readonly table: BindingTable, private readonly start: number, private readonly end: number) {}

  get(name: string): string | undefined {
    return this.table.lookup(this.start, this.end, name);
  }

  has(name: string): boolean {
    return this.table.lookup(this.start, this.end, name) !== undefined;
  }

  *[Symbol.iterator](): IterableIterator<[string, string]> {
    for (let k = this.start; k < this.end; k++) yield [this.table.names[k], this.table.types[k]];
  }
}

/** Scopes with more bindings than this also get a Map for their lookups (a module's many assignments). */
const SCAN_MAX = 16;

/**
 * The typed bindings of every scope, in two columns shared by all scopes (a scope's bindings are one
 * contiguous run) instead of a Map per scope: at a million scopes the Maps and their tables were the
 * largest thing resolution held (~40 MiB per 100k Python scopes, most scopes having a few parameter
 * marks). `get(scopeId)` hands out a small view with the Map-like lookups the resolvers use.
 */
export class BindingTable {
  readonly names: string[] = [];
  readonly types: string[] = [];
  /** Per scope id its run's number (a small integer: no boxed number per entry); runs' bounds in typed arrays. */
  private readonly runOf = new Map<string, number>();
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private readonly indexed = new Map<number, Map<string, string>>();

  /**
   * Adds one file's bindings, members to `member` and the rest to `local`, in one pass over them (a
   * scope's bindings all come in one file).
   */
  static addFile(bindings: FileBindings, member: BindingTable, local: BindingTable): void {
    const packed = bindings instanceof PackedBindings ? bindings : undefined;
    const rows = packed ? undefined : (bindings as TypedBinding[]);
    const names = packed ? packed.names : rows!.map((b) => b.name);
    const types = packed ? packed.types : rows!.map((b) => b.typeName);
    let byScope: [Map<string, number[]>, Map<string, number[]>] | undefined;
    for (let k = 0; k < bindings.length; k++) {
      const isMember = !!(packed ? packed.member(k) : rows![k].member);
      byScope ??= [new Map(), new Map()];
      push(byScope[isMember ? 1 : 0], packed ? packed.scopeIds[k] : rows![k].scopeId, k);
    }
    if (!byScope) return;
    local.addRuns(byScope[0], names, types);
    member.addRuns(byScope[1], names, types);
  }

  /** One run per scope of the given bindings (indices into `names` / `types`), the first binding of a name winning. */
  private addRuns(byScope: ReadonlyMap<string, number[]>, names: readonly string[], types: readonly string[]): void {
    for (const [scopeId, list] of byScope) {
      if (this.runOf.has(scopeId)) continue;
      const start = this.names.length;
      const seen = list.length > SCAN_MAX ? new Map<string, string>() : undefined;
      for (const k of list) {
        const name = names[k];
        if (seen ? seen.has(name) : this.lookup(start, this.names.length, name) !== undefined) continue;
        seen?.set(name, types[k]);
        this.names.push(name);
        this.types.push(types[k]);
      }
      if (seen) this.indexed.set(start, seen);
      const run = this.runOf.size;
      if (run === this.starts.length) {
        this.starts = grown(this.starts);
        this.ends = grown(this.ends);
      }
      this.starts[run] = start;
      this.ends[run] = this.names.length;
      this.runOf.set(scopeId, run);
    }
  }

  get(scopeId: string): ScopeBindings | undefined {
    const run = this.runOf.get(scopeId);
    return run === undefined ? undefined : new ScopeBindings(this, this.starts[run], this.ends[run]);
  }

  *[Symbol.iterator](): IterableIterator<[string, ScopeBindings]> {
    for (const [id, run] of this.runOf) yield [id, new ScopeBindings(this, this.starts[run], this.ends[run])];
  }

  /** The type bound to `name` in the run [start, end). */
  lookup(start: number, end: number, name: string): string | undefined {
    const index = end - start > SCAN_MAX ? this.indexed.get(start) : undefined;
    if (index) return index.get(name);
    for (let k = start; k < end; k++) if (this.names[k] === name) return this.types[k];
    return undefined;
  }
}

function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
