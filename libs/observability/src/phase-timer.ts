/**
 * Wall-clock milliseconds per named phase of one run (index, history read...), reported with its
 * result: `time(label, work)` runs the work and records how long it took, also when it throws.
 */
export function phaseTimer(): { timings: Record<string, number>; time: <T>(label: string, work: () => Promise<T>) => Promise<T> } {
  const timings: Record<string, number> = {};
  const time = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[label] = Math.round(performance.now() - started);
    }
  };
  return { timings, time };
}
