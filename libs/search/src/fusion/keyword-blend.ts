import { querySubTokens, queryWords, tokenSet } from '../query/query-text';

/**
 * semantic_rerank: a widened vector pool re-ordered by a keyword score computed on
 * the candidates themselves (no second index):
 *   final = (1 - w) · cosine + w · keyword / max(keyword over the pool)
 */

export interface KeywordDoc {
  id: string;
  name: string;
  qualifiedName: string;
  signature: string | null;
  docComment: string | null;
  source: string | null;
  /** The enclosing scope's id (null for a file); read by the second stage's container evidence. */
  parentId?: string | null;
  /** Other candidates it has a code edge with (calls, references, extends, implements, overrides), either way; read by the second stage's link evidence. */
  linked?: string[];
}

/** A name hit counts double: naming what you look for is the strongest keyword evidence in code. */
const NAME_HIT = 2;
const TEXT_HIT = 1;

/** The query's keyword terms: its words split into identifier sub-tokens, lower-cased, de-duplicated. */
export function keywordTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const w of queryWords(text)) for (const t of tokenSet(w)) terms.add(t);
  for (const t of querySubTokens(text)) terms.add(t);
  return [...terms];
}

/** In [0, 1]: share of terms found, a term in the name or qualified name counting double. */
export function keywordScore(terms: string[], doc: KeywordDoc): number {
  if (terms.length === 0) return 0;
  const nameTokens = tokenSet(doc.name, doc.qualifiedName);
  const textTokens = tokenSet(doc.signature, doc.docComment, doc.source);
  let hits = 0;
  for (const t of terms) hits += nameTokens.has(t) ? NAME_HIT : textTokens.has(t) ? TEXT_HIT : 0;
  return hits / (NAME_HIT * terms.length);
}

export interface BlendInput {
  id: string;
  semantic: number;
  keyword: number;
}

export interface BlendedItem {
  id: string;
  score: number;
  semantic: { score: number; rank: number; contribution: number };
  keyword: { raw: number; score: number; rank: number; contribution: number };
}

/** Blends and sorts (ties: better semantic rank, then id). Ranks are 1-based within the pool. */
export function blendScores(pool: BlendInput[], keywordWeight: number): BlendedItem[] {
  const maxKeyword = Math.max(0, ...pool.map((p) => p.keyword));
  const keywordRank = rankOf(pool, (p) => p.keyword);
  const items = pool.map((p, index) => {
    const norm = maxKeyword > 0 ? p.keyword / maxKeyword : 0;
    const semanticPart = (1 - keywordWeight) * p.semantic;
    const keywordPart = keywordWeight * norm;
    return {
      id: p.id,
      score: semanticPart + keywordPart,
      semantic: { score: p.semantic, rank: index + 1, contribution: semanticPart },
      keyword: { raw: p.keyword, score: norm, rank: keywordRank.get(p.id)!, contribution: keywordPart },
    };
  });
  return items.sort((a, b) => b.score - a.score || a.semantic.rank - b.semantic.rank || (a.id < b.id ? -1 : 1));
}

function rankOf<T extends { id: string }>(items: T[], score: (t: T) => number): Map<string, number> {
  const sorted = items.map((t, i) => ({ id: t.id, s: score(t), i })).sort((a, b) => b.s - a.s || a.i - b.i);
  return new Map(sorted.map((x, r) => [x.id, r + 1]));
}
