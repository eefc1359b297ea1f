/**
 * SCIP import at scale: a real scip-typescript index of about 50k occurrences (rxjs 7.8.2's src/,
 * three copies side by side in one tree), imported as ingestion does: decode, map documents and
 * definitions onto the parsed files and scopes, resolve every reference with the index first; and
 * (--index) full index runs with and without the index (Neo4j writes, no embeddings).
 *
 *   npm run build && node dist/bench/scip/scip-import-bench.js [--copies 3] [--runs 3] [--index]
 *
 * Prints a table and one JSON line. The index is made once per tree and kept in .cache/bench/scip.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { decodeScipIndex, fastModuleOptions, ParserService, resolveRepository, ScipResolution, tsProjectOptions, walkRepository } from '@scopegraph/ingest';
import { IngestHarness } from '../../test/support/ingest-harness';
import { runScipTypescript } from '../../libs/ingest/src/scip/testing/indexers';
import { arg, median, npmPackageSources, printTable } from '../support/bench-util';

async function main(): Promise<void> {
  const copies = Math.max(1, Number(arg('copies', '3')));
  const runs = Math.max(1, Number(arg('runs', '3')));
  const cache = path.join(projectRoot(), '.cache/bench/scip');
  const tree = path.join(cache, `rxjs-x${copies}`);
  const indexFile = path.join(cache, `rxjs-x${copies}.scip`);
  if (!fs.existsSync(indexFile)) {
    fs.rmSync(tree, { recursive: true, force: true });
    const src = path.join(npmPackageSources('rxjs@7.8.2'), 'src');
    for (let i = 0; i < copies; i++) fs.cpSync(src, path.join(tree, `copy${i}`), { recursive: true });
    const t = performance.now();
    runScipTypescript(tree, indexFile);
    process.stderr.write(`scip-typescript indexed ${tree} in ${Math.round(performance.now() - t)} ms\n`);
  }
  const bytes = fs.readFileSync(indexFile);
  const parser = new ParserService();
  await parser.init();
  const walk = await walkRepository(tree, (p) => parser.supports(p));
  const files = walk.files.map((f) => parser.parseFile(f.path, f.content));
  const modules = fastModuleOptions(tree, tsProjectOptions(tree).options);

  const decodeMs: number[] = [];
  const mapMs: number[] = [];
  const fastMs: number[] = [];
  const scipMs: number[] = [];
  let stats: ScipResolution['stats'] | undefined;
  let occurrences = 0;
  let answered = 0;
  let unanswered = 0;
  for (let i = 0; i <= runs; i++) {
    let t = performance.now();
    const index = decodeScipIndex(bytes);
    const d = performance.now() - t;
    t = performance.now();
    const scip = new ScipResolution(index, files, tree);
    const m = performance.now() - t;
    t = performance.now();
    resolveRepository(files, modules);
    const f = performance.now() - t;
    t = performance.now();
    resolveRepository(files, { ...modules, scip });
    const s = performance.now() - t;
    // Round 0 warms up (JIT, the symbol cache) and is not counted.
    if (i === 0) continue;
    decodeMs.push(d);
    mapMs.push(m);
    fastMs.push(f);
    scipMs.push(s);
    stats = scip.stats;
    occurrences = index.documents.reduce((n, doc) => n + doc.occurrences.length, 0);
    answered = scip.answered;
    unanswered = scip.unanswered;
  }
  const out: Record<string, unknown> = {
    index: { file: path.relative(projectRoot(), indexFile), bytes: bytes.length, documents: stats!.documents, occurrences, used: stats!.used, stale: stats!.stale, unknown: stats!.unknown },
    files: files.length,
    decodeMs: median(decodeMs), mapMs: median(mapMs), resolveFastMs: median(fastMs), resolveWithScipMs: median(scipMs),
    importMs: median(decodeMs) + median(mapMs) + median(scipMs) - median(fastMs),
    answered, unanswered,
  };
  printTable([
    ['SCIP import', 'documents', 'occurrences', 'decode ms', 'map ms', 'resolve ms (names)', 'resolve ms (SCIP first)', 'import cost ms'],
    [path.basename(indexFile), stats!.documents, occurrences, out.decodeMs as number, out.mapMs as number, out.resolveFastMs as number, out.resolveWithScipMs as number, out.importMs as number],
  ]);

  if (process.argv.includes('--index')) {
    const h = new IngestHarness();
    await h.init(createEmbeddingProvider({ provider: 'hash', dimensions: h.config.embedding.dimensions }));
    const ms: Record<'names' | 'scip', number[]> = { names: [], scip: [] };
    try {
      const { ingest } = await h.serviceWith({ tsResolver: 'fast' });
      for (let i = 0; i <= runs; i++) {
        for (const mode of i % 2 === 0 ? (['names', 'scip'] as const) : (['scip', 'names'] as const)) {
          const repo = `bench-scip-${mode}`;
          await h.repo.deleteRepository(repo);
          const t = performance.now();
          await ingest.index({ path: tree, name: repo, embed: false, ...(mode === 'scip' ? { scip: indexFile } : {}) });
          if (i > 0) ms[mode].push(performance.now() - t);
        }
      }
    } finally {
      await h.dispose(['bench-scip-names', 'bench-scip-scip']);
    }
    out.fullIndex = { namesMs: median(ms.names), scipMs: median(ms.scip), runs: ms };
    printTable([['full index (fast resolver, no embeddings)', 'by names ms', 'with SCIP ms'], ['median', median(ms.names), median(ms.scip)]]);
  }
  out.load = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  },
);
