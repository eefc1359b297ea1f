/** Languages the parser understands. */
export type Language = 'typescript' | 'tsx' | 'javascript' | 'python' | 'csharp' | 'sql';

export type ScopeKind =
  | 'file'
  | 'class'
  | 'interface'
  | 'enum'
  | 'type_alias'
  | 'function'
  | 'method'
  | 'constructor'
  | 'variable'
  | 'namespace'
  | 'struct'
  | 'record'
  | 'property'
  // SQL objects
  | 'table'
  | 'view'
  | 'procedure'
  | 'sql_function'
  | 'trigger';

export const SCOPE_KINDS: readonly ScopeKind[] = [
  'file', 'class', 'interface', 'enum', 'type_alias', 'function', 'method', 'constructor', 'variable',
  'namespace', 'struct', 'record', 'property', 'table', 'view', 'procedure', 'sql_function', 'trigger',
];

/** Scope kinds that declare a type (targets of EXTENDS / IMPLEMENTS / type REFERENCES). */
export const TYPE_KINDS: ReadonlySet<ScopeKind> = new Set<ScopeKind>([
  'class', 'interface', 'enum', 'type_alias', 'struct', 'record',
]);

/** Scope kinds that are SQL database objects. */
export const SQL_KINDS: ReadonlySet<ScopeKind> = new Set<ScopeKind>([
  'table', 'view', 'procedure', 'sql_function', 'trigger',
]);

/**
 * Neo4j labels per scope kind: the allow-list that dynamic labels in cypher/ingest/upsert-scopes.cypher
 * draw from. Every scope also carries :Scope. Documented in docs/graph-model.md.
 */
export const KIND_LABEL: Record<ScopeKind, string> = {
  file: 'File',
  class: 'Class',
  interface: 'Interface',
  enum: 'Enum',
  type_alias: 'TypeAlias',
  function: 'Function',
  method: 'Method',
  constructor: 'Constructor',
  variable: 'Variable',
  namespace: 'Namespace',
  struct: 'Struct',
  record: 'Record',
  property: 'Property',
  table: 'Table',
  view: 'View',
  procedure: 'Procedure',
  sql_function: 'SqlFunction',
  trigger: 'Trigger',
};
