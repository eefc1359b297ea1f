/** Seconds left at the rate so far; null until there is a rate to go by. */
export function etaSeconds(done: number, total: number, elapsedMs: number): number | null {
  if (done <= 0 || elapsedMs <= 0 || total <= done) return done >= total && total > 0 ? 0 : null;
  return Math.round(((total - done) * elapsedMs) / done / 1000);
}
