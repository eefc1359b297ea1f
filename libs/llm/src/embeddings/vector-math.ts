/** Below this norm a vector is treated as zero: dividing by it would only amplify rounding noise. */
const MIN_NORM = 1e-12;

export function l2Norm(v: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  return Math.sqrt(sum);
}

/** Returns a new unit-length array; a zero vector stays zero instead of turning into NaNs. */
export function l2Normalize(v: ArrayLike<number>): number[] {
  const norm = Math.max(l2Norm(v), MIN_NORM);
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / norm;
  return out;
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new Error(`cosineSimilarity: length mismatch (${a.length} vs ${b.length})`);
  }
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot / (Math.max(l2Norm(a), MIN_NORM) * Math.max(l2Norm(b), MIN_NORM));
}
