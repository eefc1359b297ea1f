import type { ListScore } from '../search.types';

/**
 * Weighted Reciprocal Rank Fusion (ranks, not scores, so lists on different scales fuse without normalising): score(d) = Σ_i w_i / (k + rank_i(d)), ranks 1-based,
 * a list that does not hold d adds nothing. Only positions count, so a cosine list and a BM25 list
 * fuse without normalising their scores.
 */

export type ListName = 'semantic' | 'bm25' | 'graph';

export interface RankedList {
  name: ListName;
  weight: number;
  /** Best first; `score` is the list's own score, kept for the breakdown. */
  items: { id: string; score: number }[];
}

export interface FusedItem {
  id: string;
  score: number;
  lists: Partial<Record<ListName, ListScore>>;
}

export function rrfContribution(weight: number, k: number, rank: number): number {
  return weight / (k + rank);
}

/**
 * Fuses ranked lists. Ties on the fused score go to the document with the better best rank, then to
 * the smaller id, so the order is deterministic. A list with weight 0 still reports its rank and
 * score in the breakdown but adds nothing.
 */
export function rrfFuse(lists: RankedList[], k: number): FusedItem[] {
  const byId = new Map<string, FusedItem>();
  for (const list of lists) {
    list.items.forEach((item, index) => {
      const rank = index + 1;
      const contribution = rrfContribution(list.weight, k, rank);
      let fused = byId.get(item.id);
      if (!fused) {
        fused = { id: item.id, score: 0, lists: {} };
        byId.set(item.id, fused);
      }
      // A list repeating an id (it should not) counts once, at its best rank.
      if (fused.lists[list.name]) return;
      fused.lists[list.name] = { score: item.score, rank, contribution };
      fused.score += contribution;
    });
  }
  const bestRank = (f: FusedItem) => Math.min(...Object.values(f.lists).map((l) => l!.rank));
  return [...byId.values()].sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Graph signal as a ranked list: candidates connected to others, most connections first. */
export function connectionList(connections: Map<string, number>, weight: number): RankedList {
  const items = [...connections.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([id, n]) => ({ id, score: n }));
  return { name: 'graph', weight, items };
}
