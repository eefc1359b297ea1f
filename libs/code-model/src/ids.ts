/** Graph ids are namespaced by repository so several repositories share one database. */
export function graphId(repoId: string, localId: string): string {
  return `${repoId}:${localId}`;
}
