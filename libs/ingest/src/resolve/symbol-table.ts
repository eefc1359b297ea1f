import { normaliseSqlName } from '../languages/sql/lexer';
import type { ParsedFile, ParsedScope, ScopeKind } from '../parse/types';

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
  readonly children = new Map<string, Map<string, ParsedScope[]>>();
  readonly csTypes = new Map<string, ParsedScope[]>();
  readonly csNamespaceFiles = new Map<string, Set<string>>();
  readonly sqlByKey = new Map<string, ParsedScope[]>();
  readonly sqlByName = new Map<string, ParsedScope[]>();
  readonly memberBindings = new Map<string, Map<string, string>>();
  readonly localBindings = new Map<string, Map<string, string>>();

  constructor(files: ParsedFile[], readonly sqlSchema: string) {
    for (const f of files) {
      for (const s of f.scopes) {
        this.scopes.set(s.id, s);
        if (s.parentId) {
          let m = this.children.get(s.parentId);
          if (!m) this.children.set(s.parentId, (m = new Map()));
          push(m, s.name, s);
        }
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
      for (const b of f.bindings ?? []) {
        const map = b.member ? this.memberBindings : this.localBindings;
        let m = map.get(b.scopeId);
        if (!m) map.set(b.scopeId, (m = new Map()));
        if (!m.has(b.name)) m.set(b.name, b.typeName);
      }
    }
  }

  /**
   * Makes `member` a member of `owner` for lookups (`findMember`, `x.m()` through a typed receiver) when
   * it is declared outside the owner's body: Go methods with a receiver, Rust `impl` blocks, C++
   * out-of-line `A::f` definitions, reopened Ruby classes. The member's `parentId` is left as written.
   */
  addMember(owner: ParsedScope, member: ParsedScope): void {
    let m = this.children.get(owner.id);
    if (!m) this.children.set(owner.id, (m = new Map()));
    const list = m.get(member.name);
    if (!list) m.set(member.name, [member]);
    else if (!list.includes(member)) list.push(member);
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
