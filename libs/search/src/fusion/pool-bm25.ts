/** BM25 constants (the usual ones). */
const K1 = 1.2;
const B = 0.75;

/** One candidate's term frequencies, every field's tokens counted with that field's weight (BM25F). */
export interface WeightedTerms {
  tf: Map<string, number>;
  length: number;
}

export function weightedTerms(fields: ReadonlyArray<readonly [tokens: readonly string[], weight: number]>): WeightedTerms {
  const tf = new Map<string, number>();
  let length = 0;
  for (const [tokens, weight] of fields) {
    for (const t of tokens) {
      tf.set(t, (tf.get(t) ?? 0) + weight);
      length += weight;
    }
  }
  return { tf, length };
}

/**
 * BM25 of `terms` for each candidate of a small pool, with idf and the average length taken from the
 * pool itself: a word rare among the candidates counts more than one they all share. Used where a
 * few dozen fetched candidates are re-ordered, which a search index cannot do without one of its own.
 */
export function poolBm25(pool: readonly WeightedTerms[], terms: readonly string[], options: { shortAsAverage?: boolean } = {}): number[] {
  const n = pool.length;
  const avgLength = pool.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n) || 1;
  const idf = new Map(
    terms.map((t) => {
      const df = pool.filter((d) => d.tf.has(t)).length;
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  return pool.map((d) => {
    // shortAsAverage: a candidate shorter than the pool's average is scored as if it had the average
    // length. BM25's normalisation would otherwise credit a one-line helper that happens to hold the
    // query's words almost as if each word were repeated, and a pool of very different sizes (a file
    // beside a one-line function) makes that reward large. Longer candidates are still normalised down.
    const length = options.shortAsAverage ? Math.max(d.length, avgLength) : d.length;
    return terms.reduce((sum, t) => {
      const f = d.tf.get(t) ?? 0;
      return f === 0 ? sum : sum + idf.get(t)! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / avgLength)));
    }, 0);
  });
}
