import type { GraphAnchorRow, GraphRelatedRow } from '../search.repository';
import { RELATION_SPECS, type StructuralQuestion } from './structural';

/** Anchors kept for an ambiguous name ("all candidates, best first"). */
export const MAX_ANCHORS = 8;

export interface RankedAnchor extends GraphAnchorRow {
  /** Edges of the question's types in the direction it walks. */
  degree: number;
}

/**
 * Orders the scopes a question's target may mean: spelled exactly as typed first, then those of a
 * kind the relation is about (classes for "extends", callables for "calls"), then those with more
 * edges of the asked kind. Candidates without any such edge are dropped when another one has some:
 * a same-named local variable is not what "who calls X" means.
 */
export function rankAnchors(question: StructuralQuestion, rows: GraphAnchorRow[]): RankedAnchor[] {
  const spec = RELATION_SPECS[question.relation];
  const kindFits = (kind: string) => spec.targetKinds.length === 0 || spec.targetKinds.includes(kind);
  // Overriders walk the anchor's class hierarchy, not the anchor's own edges.
  const degreeOf = (r: GraphAnchorRow) => (question.relation === 'overriders' ? 1 : spec.direction === 'in' ? r.inDegree : r.outDegree);
  const exact = (r: GraphAnchorRow) => r.name === question.target || r.qualifiedName === question.target;
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  const ranked = unique
    .map((r) => ({ ...r, degree: degreeOf(r) }))
    .sort(
      (a, b) =>
        Number(exact(b)) - Number(exact(a)) ||
        Number(kindFits(b.kind)) - Number(kindFits(a.kind)) ||
        Number(b.degree > 0) - Number(a.degree > 0) ||
        b.degree - a.degree ||
        a.path.length - b.path.length ||
        a.id.localeCompare(b.id),
    );
  // A qualified target (Animal.speak) means that scope, not every member named speak.
  const qualified = /[.:#]/.test(question.target) && ranked.some(exact) ? ranked.filter(exact) : ranked;
  const connected = qualified.filter((r) => r.degree > 0);
  return (connected.length > 0 ? connected : qualified).slice(0, MAX_ANCHORS);
}

/**
 * Related scopes in answer order: by anchor (best first), then nearest, then along the relation's
 * most telling edge type (EXTENDS before IMPLEMENTS for "extends"), then declarations before files
 * (a file "calls" only through its top-level code). Each scope once, by its first path.
 */
export function orderRelated(question: StructuralQuestion, rows: GraphRelatedRow[], anchorIds: string[]): GraphRelatedRow[] {
  const edgeOrder = RELATION_SPECS[question.relation].edges;
  const firstEdge = (r: GraphRelatedRow) => {
    const i = edgeOrder.indexOf(r.edgeTypes[r.edgeTypes.length - 1]);
    return i < 0 ? edgeOrder.length : i;
  };
  const isFile = (r: GraphRelatedRow) => Number(r.kind === 'file');
  const anchorRank = (r: GraphRelatedRow) => anchorIds.indexOf(r.anchorId);
  // An answer may itself be a candidate anchor (Dog.speak overrides Animal.speak, both named speak).
  const sorted = [...rows]
    .sort((a, b) => anchorRank(a) - anchorRank(b) || a.depth - b.depth || firstEdge(a) - firstEdge(b) || isFile(a) - isFile(b));
  const seen = new Set<string>();
  return sorted.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}
