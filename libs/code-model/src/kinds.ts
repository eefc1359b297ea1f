/** Languages the parser understands, in the order lists show them. */
export const LANGUAGES = [
  'typescript', 'tsx', 'javascript', 'python', 'csharp', 'sql', 'go', 'java', 'rust', 'c', 'cpp', 'ruby', 'php',
] as const;

export type Language = (typeof LANGUAGES)[number];

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
  /** Rust trait (PHP traits are `trait` too). */
  | 'trait'
  /** C/C++ union. */
  | 'union'
  /** Ruby module, Rust `mod`, a Go/Java package where it is a scope of its own. */
  | 'module'
  // SQL objects
  | 'table'
  | 'view'
  | 'procedure'
  | 'sql_function'
  | 'trigger';

export const SCOPE_KINDS: readonly ScopeKind[] = [
  'file', 'class', 'interface', 'enum', 'type_alias', 'function', 'method', 'constructor', 'variable',
  'namespace', 'struct', 'record', 'property', 'trait', 'union', 'module', 'table', 'view', 'procedure', 'sql_function',
  'trigger',
];

/** Scope kinds that declare a type (targets of EXTENDS / IMPLEMENTS / type REFERENCES). */
export const TYPE_KINDS: ReadonlySet<ScopeKind> = new Set<ScopeKind>([
  'class', 'interface', 'enum', 'type_alias', 'struct', 'record', 'trait', 'union',
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
  trait: 'Trait',
  union: 'Union',
  module: 'Module',
  table: 'Table',
  view: 'View',
  procedure: 'Procedure',
  sql_function: 'SqlFunction',
  trigger: 'Trigger',
};
