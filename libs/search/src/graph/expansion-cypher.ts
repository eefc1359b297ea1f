import { EDGE_TYPES, type GraphEdgeType } from '@scopegraph/code-model';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { type Direction, DIRECTIONS, SEARCH_LIMITS } from '../search.types';

/**
 * The one place where search builds Cypher text (the documented exception to "always $parameters").
 *
 * Relationship types and the length bound of a quantified path cannot be parameters, so
 * cypher/search/expand.cypher holds a placeholder that is replaced by a pattern made only of
 * constants: each edge type is looked up in the EDGE_TYPES allow-list and the constant from that
 * list is used (never the caller's string), the depth is an integer checked to be 1..3, and the
 * direction picks one of three fixed arrow forms. Every node on the path is a :Scope, so a walk never
 * passes through an :Unresolved or :ExternalModule node to unrelated code.
 */

export const EXPAND_PLACEHOLDER = '{{PATTERN}}';
export const EXPAND_CYPHER = 'search/expand';

const ARROWS: Record<Direction, [string, string]> = {
  out: ['-', '->'],
  in: ['<-', '-'],
  both: ['-', '-'],
};

export interface ExpansionShape {
  depth: number;
  edges: readonly string[];
  direction: string;
}

/** Validated, allow-listed copies of the edge types (in EDGE_TYPES order, de-duplicated). */
export function allowedEdgeTypes(edges: readonly string[], field = 'expand.edges'): GraphEdgeType[] {
  if (edges.length === 0) throw new DomainError(DomainErrorCode.InvalidExpansion, 'at least one edge type is needed', field);
  for (const e of edges) {
    if (!(EDGE_TYPES as readonly string[]).includes(e)) {
      throw new DomainError(DomainErrorCode.InvalidExpansion, `unknown edge type ${JSON.stringify(e)}; allowed: ${EDGE_TYPES.join(', ')}`, field);
    }
  }
  return EDGE_TYPES.filter((t) => edges.includes(t));
}

/** `(seed)((:Scope)-[:CALLS|REFERENCES]->(:Scope)){1,2}(n)` for depth 2, out, [CALLS, REFERENCES]. */
export function expansionPattern(shape: ExpansionShape): string {
  const { depth, direction } = shape;
  if (!Number.isInteger(depth) || depth < 1 || depth > SEARCH_LIMITS.maxDepth) {
    throw new DomainError(DomainErrorCode.InvalidExpansion, `depth must be an integer from 1 to ${SEARCH_LIMITS.maxDepth}`, 'expand.depth');
  }
  if (!(DIRECTIONS as readonly string[]).includes(direction)) {
    throw new DomainError(DomainErrorCode.InvalidExpansion, `direction must be one of ${DIRECTIONS.join(', ')}`, 'expand.direction');
  }
  const types = allowedEdgeTypes(shape.edges).join('|');
  const [left, right] = ARROWS[direction as Direction];
  return `(seed)((:Scope)${left}[:${types}]${right}(:Scope)){1,${depth}}(n)`;
}

/** The template with its placeholder filled; refuses a template that does not have exactly one. */
export function renderExpansionQuery(template: string, shape: ExpansionShape): string {
  const parts = template.split(EXPAND_PLACEHOLDER);
  if (parts.length !== 2) throw new Error(`${EXPAND_CYPHER}.cypher must contain ${EXPAND_PLACEHOLDER} exactly once`);
  return parts[0] + expansionPattern(shape) + parts[1];
}
