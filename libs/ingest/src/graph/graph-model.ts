import type { ScopeKind } from '../parse/types';

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

/** Relationship types written by ingestion (dynamic types in Cypher are checked against this list). */
export const EDGE_TYPES = ['DECLARES', 'HAS_MEMBER', 'CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'] as const;
export type GraphEdgeType = (typeof EDGE_TYPES)[number];

/** Reference edges (what a reader follows), as opposed to containment (DECLARES, HAS_MEMBER). */
export const REFERENCE_EDGE_TYPES: readonly GraphEdgeType[] = ['CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'];

export type EdgeTarget = 'scope' | 'external' | 'unresolved';

export interface GraphEdge {
  from: string;
  type: GraphEdgeType;
  to: string;
  target: EdgeTarget;
  /** Display name of an external module or unresolved symbol. */
  name?: string;
  line: number | null;
  /** Why an unresolved reference could not be pinned to a scope. */
  reason?: string;
  /** Which resolver decided a reference edge (`precise` | `fast`); unset for containment and IMPORTS. */
  resolver?: string;
}

export function edgeKey(e: { from: string; type: string; to: string }): string {
  return `${e.from}\u0000${e.type}\u0000${e.to}`;
}

export function assertEdgeType(type: string): asserts type is GraphEdgeType {
  if (!(EDGE_TYPES as readonly string[]).includes(type)) throw new Error(`edge type "${type}" is not in the allow-list`);
}

/** Graph ids are namespaced by repository so several repositories share one database. */
export function graphId(repoId: string, localId: string): string {
  return `${repoId}:${localId}`;
}
