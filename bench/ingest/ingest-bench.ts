/**
 * Ingestion throughput on a real codebase: the TypeScript sources shipped in rxjs@7.8.2.
 *
 *   npm run bench:ingest -- [--runs 5] [--embed-sample 512]
 *
 * Per run: a fresh index (repository deleted first) with embeddings off, timing walk+parse+resolve+
 * write (scopes/s); then, once, the embedding phase of the same repository with the local model
 * (embeddings/s, end to end through the graph). Prints a table and one JSON line. Needs Neo4j and
 * Redis up (npm run services:up) and a build (npm run build).
 */
import * as path from 'node:path';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, median, npmPackageSources, printTable } from '../support/bench-util';

async function main(): Promise<void> {
  const runs = Math.max(1, Number(arg('runs', '5')));
  const root = path.join(npmPackageSources('rxjs@7.8.2'), 'src');
  const repo = 'bench-rxjs';
  const h = new IngestHarness();
  await h.init(createEmbeddingProvider({ provider: 'local', dimensions: 384 }));
  try {
    const samples: { ms: number; files: number; scopes: number; edges: number; parse: number; write: number }[] = [];
    for (let i = 0; i < runs; i++) {
      await h.repo.deleteRepository(repo);
      const started = performance.now();
      const r = await h.ingest.index({ path: root, name: repo, embed: false });
      const ms = performance.now() - started;
      samples.push({ ms, files: r.files.indexed, scopes: r.scopes.total, edges: r.edges.total, parse: r.timingsMs.parse, write: r.timingsMs.write });
      process.stderr.write(`run ${i + 1}/${runs}: ${r.scopes.total} scopes in ${ms.toFixed(0)} ms ${JSON.stringify(r.timingsMs)}\n`);
    }
    const embedStarted = performance.now();
    const embedded = await h.ingest.index({ path: root, name: repo });
    const embedMs = embedded.timingsMs.embed ?? performance.now() - embedStarted;
    const last = samples[samples.length - 1];
    const scopesPerSec = samples.map((s) => (s.scopes / s.ms) * 1000);
    const result = {
      corpus: 'rxjs@7.8.2/src',
      runs,
      files: last.files,
      scopes: last.scopes,
      edges: last.edges,
      parseWriteMsMedian: median(samples.map((s) => s.ms)),
      parseMsMedian: median(samples.map((s) => s.parse)),
      writeMsMedian: median(samples.map((s) => s.write)),
      scopesPerSecMedian: median(scopesPerSec),
      scopesPerSecRuns: scopesPerSec.map((x) => Math.round(x)),
      embedded: embedded.embeddedThisRun,
      embedMs,
      embeddingsPerSec: (embedded.embeddedThisRun / embedMs) * 1000,
      target: { scopesPerSec: 3000 },
    };
    printTable([
      ['metric', 'value'],
      ['files', result.files],
      ['scopes', result.scopes],
      ['edges (CALLS/EXTENDS/IMPLEMENTS/REFERENCES/IMPORTS)', result.edges],
      [`parse+write ms (median of ${runs})`, result.parseWriteMsMedian],
      ['  of which parse ms', result.parseMsMedian],
      ['  of which write ms', result.writeMsMedian],
      ['parse+write scopes/s (median)', result.scopesPerSecMedian],
      ['local embeddings/s (ingest embed phase)', result.embeddingsPerSec],
    ]);
    process.stdout.write(JSON.stringify(result) + '\n');
    await h.repo.deleteRepository(repo);
  } finally {
    await h.dispose([]);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
