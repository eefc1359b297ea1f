import { IngestHarness } from './ingest-harness';

/** Deletes the repository test/support/shared-vectors.ts indexed for the e2e run. */
export default async function sharedVectorsTeardown(): Promise<void> {
  const seeded = (globalThis as { sharedVectors?: { prefix: string; name: string } }).sharedVectors;
  if (!seeded) return;
  // The same queue prefix: the repository's symbol-index file is named by it.
  await new IngestHarness(seeded.prefix).dispose([seeded.name]);
}
