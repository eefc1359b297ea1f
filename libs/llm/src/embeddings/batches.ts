/**
 * Embeds `texts` in consecutive batches of at most `batchSize`, with at most `concurrency` batches
 * in flight, and returns the results in input order. `embed` gets a batch and the index of its
 * first text (for error messages).
 */
export async function embedInBatches<T>(
  texts: readonly string[],
  batchSize: number,
  concurrency: number,
  embed: (batch: string[], offset: number) => Promise<T[]>,
): Promise<T[]> {
  const offsets: number[] = [];
  for (let offset = 0; offset < texts.length; offset += batchSize) offsets.push(offset);
  const results = new Array<T[]>(offsets.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < offsets.length) {
      const i = next++;
      results[i] = await embed(texts.slice(offsets[i], offsets[i] + batchSize), offsets[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, offsets.length) }, lane));
  return results.flat();
}
