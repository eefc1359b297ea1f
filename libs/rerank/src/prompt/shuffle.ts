/** mulberry32: a tiny seeded PRNG, so a shuffled batch is the same on every run and every worker. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const GOLDEN = 0x9e3779b1;

/** Fisher–Yates with a seed per (rerank seed, batch): every batch gets its own, repeatable order. */
export function seededShuffle<T>(items: readonly T[], seed: number, batch: number): T[] {
  const out = [...items];
  const random = seededRandom((seed ^ Math.imul(batch + 1, GOLDEN)) >>> 0);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
