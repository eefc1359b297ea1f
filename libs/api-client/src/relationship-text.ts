/** A walked graph path as the API returns it: node ids, and per hop the edge type and whether it was followed along ('out') or against ('in') its direction. */
export interface WalkedPath {
  nodeIds: string[];
  edgeTypes: string[];
  directions: string[];
  /** Per hop, how the edge was made (compiler, scip, name, heuristic), when the server says. */
  provenances?: (string | null)[] | null;
}

/** `repo:path#Qualified.Name|kind` -> `Qualified.Name` (scope ids carry their name). */
export function nameFromScopeId(id: string): string {
  const hash = id.indexOf('#');
  const bar = id.lastIndexOf('|');
  if (hash < 0) return id;
  return id.slice(hash + 1, bar > hash ? bar : undefined);
}

const against = (direction: string | undefined) => direction?.toLowerCase() === 'in';

/**
 * A path as text with every arrow pointing the way its edge points. A path walked wholly against
 * its edges (implementers, callers, subtypes of the named scope) is read from its far end, so the
 * answer to "what implements LanguageExtractor" reads `CSharpExtractor -IMPLEMENTS-> LanguageExtractor`
 * rather than starting at the anchor; a mixed path keeps the walked order with both kinds of arrow.
 */
export function relationshipText(path: WalkedPath, name: (id: string) => string = nameFromScopeId): string {
  const names = path.nodeIds.map(name);
  // CALLS[scip], EXTENDS[name]...: the edge and how it was made.
  const types = path.edgeTypes.map((t, i) => (path.provenances?.[i] ? `${t}[${path.provenances[i]}]` : t));
  if (types.length > 0 && types.every((_, i) => against(path.directions[i]))) {
    const reversedTypes = [...types].reverse();
    return [...names].reverse().reduce((text, n, i) => (i === 0 ? n : `${text} -${reversedTypes[i - 1]}-> ${n}`), '');
  }
  return names.reduce((text, n, i) => (i === 0 ? n : `${text} ${against(path.directions[i - 1]) ? `<-${types[i - 1]}-` : `-${types[i - 1]}->`} ${n}`), '');
}
