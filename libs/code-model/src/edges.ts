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

/**
 * How a reference edge was made, stored as the edge property `provenance`:
 * - `compiler`: a type checker's symbol -> declaration (TypeScript's, in process; pyright's, in a process of its own);
 * - `scip`: an imported SCIP index's occurrence -> definition (any indexer: scip-python, scip-go...);
 * - `name`: the name-based resolver found exactly one declaration the name can mean;
 * - `heuristic`: the name-based resolver chose among several candidates (each gets an edge).
 */
export const PROVENANCES = ['compiler', 'scip', 'name', 'heuristic'] as const;
export type Provenance = (typeof PROVENANCES)[number];

/**
 * Confidence per provenance, stored as the edge property `confidence`. Priors, not measurements per
 * edge: compiler and SCIP answers are the language's own semantics; a unique name match was right
 * in the team's hand-checked samples most of the time (bench/graph); a pick among several less often.
 */
export const PROVENANCE_CONFIDENCE: Readonly<Record<Provenance, number>> = { compiler: 1, scip: 1, name: 0.8, heuristic: 0.5 };

/** The provenance of an edge decided by `resolver`; `guessed`: one of several candidates. */
export function provenanceOf(resolver: ResolverName | null | undefined, guessed = false): Provenance {
  if (resolver === 'precise') return 'compiler';
  if (resolver === 'scip') return 'scip';
  return guessed ? 'heuristic' : 'name';
}

/**
 * Why a reference is unresolved, in three kinds (the stored `reason` is finer):
 * `external` (standard library, platform or a dependency: reasons external, builtin), `dynamic`
 * (decided at run time: a function value, a callback parameter or property, an interface with
 * several implementors: dynamic, local), `not-found` (meant for the repository, nothing matched:
 * not-found, unknown-receiver, ambiguous).
 */
export type UnresolvedKind = 'external' | 'dynamic' | 'not-found';

export function unresolvedKind(reason: string | null | undefined): UnresolvedKind {
  if (reason === 'external' || reason === 'builtin') return 'external';
  if (reason === 'dynamic' || reason === 'local') return 'dynamic';
  return 'not-found';
}

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
  /** How a reference edge to a scope was made, and the confidence that goes with it. */
  provenance?: Provenance;
  confidence?: number;
  /** Unresolved `external` references: the package or library the name comes from, when known. */
  origin?: string;
}

export function edgeKey(e: { from: string; type: string; to: string }): string {
  return `${e.from}\u0000${e.type}\u0000${e.to}`;
}

export function assertEdgeType(type: string): asserts type is GraphEdgeType {
  if (!(EDGE_TYPES as readonly string[]).includes(type)) throw new Error(`edge type "${type}" is not in the allow-list`);
}
