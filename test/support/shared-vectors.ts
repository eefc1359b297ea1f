import { IngestHarness, FIXTURE } from './ingest-harness';
import { runId } from './processes';

/**
 * Global set-up of the e2e run (scripts/test.sh sets E2E_SHARED_VECTORS=1): the polyglot fixture indexed
 * once with the local model, so that the ~25 specs indexing it (or a copy) copy its vectors from the
 * graph, as the product does for any repository whose texts another already holds, instead of each
 * computing the same ~360 vectors on the same two cores. Specs that test the embedding itself use models
 * of their own, so nothing they assert depends on this; a spec run alone computes its vectors as before.
 */
export default async function sharedVectors(): Promise<void> {
  if (process.env.E2E_SHARED_VECTORS !== '1') return;
  const prefix = runId('seed');
  const h = await new IngestHarness(prefix).init();
  const name = runId('sharedvectors');
  try {
    const result = await h.ingest.index({ path: FIXTURE, name });
    process.stdout.write(`\n[e2e] shared vectors: the polyglot fixture indexed as ${name} (${result.embedding?.computed ?? 0} vectors computed)\n`);
    (globalThis as { sharedVectors?: { prefix: string; name: string } }).sharedVectors = { prefix, name };
  } finally {
    // The repository stays for the run; the harness's caches and connections go.
    await h.dispose([]);
  }
}
