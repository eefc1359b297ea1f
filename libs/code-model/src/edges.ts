/** Relationship types written by ingestion (dynamic types in Cypher are checked against this list). */
export const EDGE_TYPES = ['DECLARES', 'HAS_MEMBER', 'CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'] as const;
export type GraphEdgeType = (typeof EDGE_TYPES)[number];

/** Reference edges (what a reader follows), as opposed to containment (DECLARES, HAS_MEMBER). */
export const REFERENCE_EDGE_TYPES: readonly GraphEdgeType[] = ['CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS', 'OVERRIDES'];

export type EdgeTarget = 'scope' | 'external' | 'unresolved';

/**
 * Which resolver produced a reference edge: `precise` (TypeScript's checker: symbol -> declaration),
 * `fast` (the name-based resolver over tree-sitter facts, every language; also the fallback when
 * the checker has no answer) or `scip` (an imported SCIP index's occurrence -> definition). Stored as
 * the edge property `resolver`.
 */
export const RESOLVERS = ['precise', 'fast', 'scip'] as const;
export type ResolverName = (typeof RESOLVERS)[number];

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
  /** Which resolver decided a reference edge; unset for containment and IMPORTS. */
  resolver?: ResolverName;
}

export function edgeKey(e: { from: string; type: string; to: string }): string {
  return `${e.from}\u0000${e.type}\u0000${e.to}`;
}

export function assertEdgeType(type: string): asserts type is GraphEdgeType {
  if (!(EDGE_TYPES as readonly string[]).includes(type)) throw new Error(`edge type "${type}" is not in the allow-list`);
}
