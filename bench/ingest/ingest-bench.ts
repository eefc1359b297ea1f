/**
 * Ingestion throughput on a real codebase: the TypeScript sources shipped in rxjs@7.8.2.
 *
 *   npm run bench:ingest -- [--runs 5] [--threads 1] [--embed-sample 1500] [--embed-rounds 2] [--skip-embed]
 *
 * Parse + write: per run a fresh index (repository deleted first) with embeddings off, timing
 * walk+parse+resolve+write (scopes/s). Runs alternate between reading+parsing on worker threads
 * (--threads, default: the configured INGEST_PARSE_THREADS) and in-process, so both figures come
 * from one sitting; the headline is the threaded one. The resolver is the configured one
 * (INGEST_TS_RESOLVER, default precise) and is named in the JSON.
 * Embedding: a subset of rxjs's files holding about --embed-sample scopes is indexed without
 * embeddings; then, side by side and alternating, (a) the bare model embeds exactly the texts the
 * phase will embed, in one call (tokenisation, length-sorted batches, ONNX: the model's full speed)
 * and (b) the ingest embedding phase runs on the graph (read → embed → write, cold embedding cache).
 * The ratio (b)/(a) is in the JSON. Needs Neo4j and Redis up and a build (npm run build).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { identifierSubTokens } from '@scopegraph/code-model';
import { EMBED_SOURCE_CHARS, embeddingText, ParsePool, walkRepository } from '@scopegraph/ingest';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { IngestHarness } from '../../test/support/ingest-harness';
import { arg, median, npmPackageSources, printTable } from '../support/bench-util';

const TARGET = { scopesPerSec: 3000, embedRatio: 0.9 };
const PAGE = 5_000;

async function main(): Promise<void> {
  const runs = Math.max(1, Number(arg('runs', '5')));
  const sample = Math.max(1, Number(arg('embed-sample', '1500')));
  const embedRounds = Math.max(1, Number(arg('embed-rounds', '2')));
  const root = path.join(npmPackageSources('rxjs@7.8.2'), 'src');
  const repo = 'bench-rxjs';
  const prefix = `bench-ingest-${process.pid}`;
  const h = new IngestHarness(prefix);
  let resolver = '';
  await h.init(createEmbeddingProvider({ provider: 'local', dimensions: 384 }));
  try {
    type Sample = { ms: number; files: number; scopes: number; edges: number; parse: number; write: number; resolve: number };
    const threads = Math.max(1, Number(arg('threads', String(h.config.ingest.parseThreads || 1))));
    const pools = { threaded: new ParsePool(h.parser, threads), inProcess: new ParsePool(h.parser, 0) };
    if (!pools.threaded.threaded) throw new Error('no compiled parse thread entry: run npm run build first');
    const samples: Record<keyof typeof pools, Sample[]> = { threaded: [], inProcess: [] };
    for (let i = 0; i < runs * 2; i++) {
      // Alternate (threaded first on even rounds) so neither mode always inherits a warm or throttled CPU.
      const mode: keyof typeof pools = (i % 2 === 0) === (Math.floor(i / 2) % 2 === 0) ? 'threaded' : 'inProcess';
      await h.ingest.useParsePool(pools[mode]);
      await h.repo.deleteRepository(repo);
      await h.deleteKeys(`${prefix}:*`);
      const started = performance.now();
      const r = await h.ingest.index({ path: root, name: repo, embed: false });
      const ms = performance.now() - started;
      samples[mode].push({ ms, files: r.files.indexed, scopes: r.scopes.total, edges: r.edges.total, parse: r.timingsMs.parse, write: r.timingsMs.write, resolve: r.timingsMs.resolve });
      resolver = r.resolver.ts;
      process.stderr.write(`run ${i + 1}/${runs * 2} (${mode}): ${r.scopes.total} scopes in ${ms.toFixed(0)} ms ${JSON.stringify(r.timingsMs)}\n`);
    }
    await pools.inProcess.close();
    await h.repo.deleteRepository(repo);

    const embed = process.argv.includes('--skip-embed') ? undefined : await embeddingSideBySide(h, root, sample, embedRounds, prefix);
    const last = samples.threaded[samples.threaded.length - 1];
    const summary = (xs: Sample[]) => {
      const rates = xs.map((s) => (s.scopes / s.ms) * 1000);
      return {
        parseWriteMsMedian: Math.round(median(xs.map((s) => s.ms))),
        parseMsMedian: median(xs.map((s) => s.parse)),
        resolveMsMedian: median(xs.map((s) => s.resolve)),
        writeMsMedian: median(xs.map((s) => s.write)),
        scopesPerSecMedian: Math.round(median(rates)),
        scopesPerSecRuns: rates.map((x) => Math.round(x)),
      };
    };
    const threaded = summary(samples.threaded);
    const inProcess = summary(samples.inProcess);
    const result = {
      corpus: 'rxjs@7.8.2/src',
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
      runs,
      tsResolver: resolver,
      parseThreads: threads,
      files: last.files,
      scopes: last.scopes,
      edges: last.edges,
      ...threaded,
      inProcess,
      ...(embed ?? {}),
      target: TARGET,
    };
    printTable([
      ['metric', 'value'],
      ['files', result.files],
      ['scopes', result.scopes],
      ['edges (all types)', result.edges],
      ['resolver (TS/JS)', resolver],
      [`parse+write ms, ${threads} parse thread(s) (median of ${runs})`, result.parseWriteMsMedian],
      ['  of which parse ms', result.parseMsMedian],
      ['  of which resolve ms', result.resolveMsMedian],
      ['  of which write ms', result.writeMsMedian],
      ['parse+write scopes/s (median)', result.scopesPerSecMedian],
      ['parse+write scopes/s in-process (median)', inProcess.scopesPerSecMedian],
      ...(embed
        ? [
            [`embedding texts (subset)`, embed.embedTexts],
            ['bare model embeddings/s (median)', embed.bareEmbeddingsPerSec],
            ['ingest embed phase embeddings/s (median)', embed.phaseEmbeddingsPerSec],
            ['ratio phase / bare', embed.embedRatio],
          ]
        : []),
    ]);
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await h.dispose([repo, `${repo}-embed`]);
  }
}

/** A copy of the first files (in path order) that together hold at least `sample` scopes. */
async function subsetOf(h: IngestHarness, root: string, sample: number): Promise<string> {
  const walk = await walkRepository(root, (p) => h.parser.supports(p), { maxFileBytes: h.config.ingest.maxFileBytes, maxFiles: h.config.ingest.maxFiles });
  const dir = h.emptyDir();
  let scopes = 0;
  for (const file of [...walk.files].sort((a, b) => a.path.localeCompare(b.path))) {
    if (scopes >= sample) break;
    scopes += h.parser.parseFile(file.path, file.content).scopes.length;
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.copyFileSync(path.join(root, file.path), path.join(dir, file.path));
  }
  return dir;
}

async function embeddingSideBySide(h: IngestHarness, root: string, sample: number, rounds: number, prefix: string) {
  const repo = 'bench-rxjs-embed';
  const dir = await subsetOf(h, root, sample);
  const bare: number[] = [];
  const phase: number[] = [];
  const profiles: Record<string, number>[] = [];
  let texts: string[] = [];
  for (let round = 0; round < rounds; round++) {
    await h.repo.deleteRepository(repo);
    await h.deleteKeys(`${prefix}:*`);
    await h.ingest.index({ path: dir, name: repo, embed: false });
    texts = await pendingTexts(h, repo);
    // Alternate who goes first so neither side always inherits a warm or throttled CPU.
    const runBare = async () => {
      const started = performance.now();
      const vectors = await h.embedder.embedDocuments(texts);
      bare.push((vectors.length / (performance.now() - started)) * 1000);
    };
    const runPhase = async () => {
      const r = await h.ingest.index({ path: dir, name: repo });
      if (r.embeddingError || r.embedding?.cacheHits) throw new Error(`embedding phase not clean: ${r.embeddingError ?? `${r.embedding?.cacheHits} cache hits`}`);
      phase.push((r.embeddedThisRun / r.timingsMs.embed) * 1000);
      profiles.push(Object.fromEntries(Object.entries(r.timingsMs).filter(([k]) => k.startsWith('embed'))));
      process.stderr.write(`embed round ${round + 1}/${rounds}: ${r.embeddedThisRun} embedded ${JSON.stringify(profiles[profiles.length - 1])}\n`);
    };
    if (round % 2 === 0) {
      await runBare();
      await runPhase();
    } else {
      await runPhase();
      await runBare();
    }
  }
  const bareMedian = median(bare);
  const phaseMedian = median(phase);
  return {
    embedTexts: texts.length,
    embedRounds: rounds,
    bareEmbeddingsPerSec: Number(bareMedian.toFixed(2)),
    bareRuns: bare.map((x) => Number(x.toFixed(2))),
    phaseEmbeddingsPerSec: Number(phaseMedian.toFixed(2)),
    phaseRuns: phase.map((x) => Number(x.toFixed(2))),
    embedRatio: Number((phaseMedian / bareMedian).toFixed(3)),
    embedPhaseProfileMs: profiles,
  };
}

/** The texts the embedding phase will embed, read the way the phase reads them. */
async function pendingTexts(h: IngestHarness, repoId: string): Promise<string[]> {
  const texts: string[] = [];
  let after = '';
  for (;;) {
    const page = await h.repo.scopesToEmbed(repoId, h.embedder.model, after, PAGE, EMBED_SOURCE_CHARS);
    if (page.length === 0) return texts;
    texts.push(...page.map((s) => embeddingText(s, identifierSubTokens)));
    after = page[page.length - 1].id;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
