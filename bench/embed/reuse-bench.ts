/**
 * Content-addressed embedding reuse (EMBED_REUSE) on a real repository's next snapshot, with the
 * local model: the embedding phase of a second snapshot with reuse on and off, side by side.
 *
 *   npm run bench:embed-reuse -- [--first <dir>] [--second <dir>] [--rounds 1]
 *
 * Defaults: two commits of axios (the localize dev set's base snapshots of axios 5338 and 5661,
 * /work/corpora/localize). The first snapshot is indexed once (its vectors computed); then, per round,
 * the second snapshot is indexed under a fresh repository id with reuse on and with reuse off, in
 * alternating order, each after the other's copy was deleted, so "on" can only reuse the first
 * snapshot's vectors. The harness has its own Redis prefix, so the Redis cache starts empty and the
 * figures are the graph's reuse. Reported per run: scopes embedded, computed by the model, reused
 * (graph / Redis cache), identical texts in a round, and the embedding phase's wall time; the load
 * average beside each run. Needs Neo4j and Redis up and a build.
 */
import * as os from 'node:os';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { EmbeddingCache, IngestService, ParseCache, ReferenceResolver } from '@scopegraph/ingest';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, median, printTable } from '../support/bench-util';

async function main(): Promise<void> {
  const first = arg('first', '/work/corpora/localize/axios__axios-5338');
  const second = arg('second', '/work/corpora/localize/axios__axios-5661');
  const rounds = Math.max(1, Number(arg('rounds', '1')));
  const prefix = `bench-reuse-${process.pid}`;
  const ids = { first: `${prefix}-first`, on: `${prefix}-on`, off: `${prefix}-off` };
  const h = new IngestHarness(prefix);
  await h.init(createEmbeddingProvider({ provider: 'local', dimensions: 384 }));
  const service = (reuse: boolean): IngestService => {
    const config = { ...h.config, embedding: { ...h.config.embedding, reuse } };
    return new IngestService(h.repo, h.parser, new ParseCache(h.queues), new ReferenceResolver(config), new EmbeddingCache(h.queues), h.embedder, config);
  };
  const load = () => os.loadavg()[0].toFixed(1);
  const rows: (string | number)[][] = [['run', 'snapshot', 'reuse', 'scopes embedded', 'computed', 'reused (graph / cache)', 'duplicates', 'embed s', 'load before', 'load after']];
  const runs: { reuse: 'on' | 'off'; ms: number; computed: number; reused: number; embedded: number }[] = [];
  try {
    for (const id of Object.values(ids)) await h.repo.deleteRepository(id);
    const index = async (label: string, path: string, name: string, reuse: boolean) => {
      const before = load();
      const r = await service(reuse).index({ path, name });
      const e = r.embedding!;
      const ms = r.timingsMs.embed ?? 0;
      rows.push([label, path.split('/').pop()!, e.reuse, r.embeddedThisRun, e.computed, `${e.reused} (${e.graphReused} / ${e.cacheHits})`, e.duplicates, (ms / 1000).toFixed(1), before, load()]);
      return { ms, computed: e.computed, reused: e.reused, embedded: r.embeddedThisRun };
    };
    await index('first snapshot', first, ids.first, true);
    for (let round = 0; round < rounds; round++) {
      for (const reuse of round % 2 === 0 ? [true, false] : [false, true]) {
        await h.repo.deleteRepository(ids.on);
        await h.repo.deleteRepository(ids.off);
        const r = await index(`round ${round + 1}`, second, reuse ? ids.on : ids.off, reuse);
        runs.push({ reuse: reuse ? 'on' : 'off', ...r });
      }
    }
    printTable(rows);
    const on = runs.filter((r) => r.reuse === 'on');
    const off = runs.filter((r) => r.reuse === 'off');
    const summary = {
      first,
      second,
      rounds,
      embedMsOn: median(on.map((r) => r.ms)),
      embedMsOff: median(off.map((r) => r.ms)),
      computedOn: median(on.map((r) => r.computed)),
      computedOff: median(off.map((r) => r.computed)),
      reusedShareOn: median(on.map((r) => r.reused / Math.max(1, r.embedded))),
    };
    console.log(`\nsecond snapshot, embedding phase: reuse on ${(summary.embedMsOn / 1000).toFixed(1)} s (${summary.computedOn} computed), off ${(summary.embedMsOff / 1000).toFixed(1)} s (${summary.computedOff} computed): ${(summary.embedMsOff / Math.max(1, summary.embedMsOn)).toFixed(1)}x`);
    console.log(JSON.stringify(summary));
  } finally {
    for (const id of Object.values(ids)) await h.repo.deleteRepository(id).catch(() => undefined);
    await h.dispose([]);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
