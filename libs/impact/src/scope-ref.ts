/** A scope as impact, review and their suggestions name it. */
export interface ScopeRef {
  id: string;
  name: string;
  qualifiedName: string;
  kind: string;
  path: string;
  startLine: number | null;
  endLine: number | null;
}
