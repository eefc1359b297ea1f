/**
 * What loading grammars lazily saves a parse thread on a TypeScript-only repository: parser start-up
 * time and RSS with every grammar loaded in init() (`preload: 'all'`, how ParserService worked before)
 * beside grammars loaded on first use (the default), side by side in one run. Each measurement is a
 * fresh Node process (grammars are cached per thread, RSS is per process), the two modes alternate,
 * and the table shows the median of --runs runs per mode. Every parse thread of an index run (and the
 * in-process parser) pays the start-up once.
 *
 *   node scripts/build.mjs && node dist/bench/ingest/grammar-bench.js [--runs 5] [--root DIR]
 *
 * Corpus: the TypeScript sources of rxjs 7.8.2 (`npm pack`, unpacked once into .cache/bench), or
 * --root DIR. Columns: init ms (new ParserService + init()), RSS after init, time to parse every
 * file the parser supports, RSS after parsing, grammars loaded at the end. Prints a table and one JSON line.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ParserService } from '../../libs/ingest/src/parse/parser.service';
import { arg, listFiles, median, npmPackageSources, printTable } from '../support/bench-util';

type Mode = 'eager' | 'lazy';

interface Sample {
  mode: Mode;
  baseRssMb: number;
  initMs: number;
  initRssMb: number;
  parseMs: number;
  parsedRssMb: number;
  files: number;
  scopes: number;
  grammars: string[];
}

const MB = 1024 * 1024;

/** One measurement, in this (fresh) process. */
async function child(mode: Mode, root: string): Promise<Sample> {
  const files = listFiles(root).map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }));
  const baseRssMb = process.memoryUsage().rss / MB;
  const t0 = performance.now();
  const parser = new ParserService(mode === 'eager' ? { preload: 'all' } : {});
  await parser.init();
  const initMs = performance.now() - t0;
  const initRssMb = process.memoryUsage().rss / MB;
  let parsed = 0;
  let scopes = 0;
  const t1 = performance.now();
  for (const f of files) {
    if (!parser.supports(f.path)) continue;
    scopes += parser.parseFile(f.path, f.text).scopes.length;
    parsed++;
  }
  const parseMs = performance.now() - t1;
  return { mode, baseRssMb, initMs, initRssMb, parseMs, parsedRssMb: process.memoryUsage().rss / MB, files: parsed, scopes, grammars: parser.loadedGrammars };
}

function main(): void {
  const runs = Math.max(1, Number(arg('runs', '5')));
  const root = arg('root', '') || join(npmPackageSources('rxjs@7.8.2'), 'src');
  const samples: Record<Mode, Sample[]> = { eager: [], lazy: [] };
  for (let i = 0; i < runs; i++) {
    for (const mode of (i % 2 ? ['lazy', 'eager'] : ['eager', 'lazy']) as Mode[]) {
      const out = execFileSync(process.execPath, [__filename, '--child', mode, '--root', root], { encoding: 'utf8', maxBuffer: 16 * MB });
      samples[mode].push(JSON.parse(out.trim().split('\n').pop()!) as Sample);
    }
  }
  const summary = (mode: Mode) => {
    const s = samples[mode];
    const m = (f: (x: Sample) => number) => median(s.map(f));
    return {
      initMs: m((x) => x.initMs),
      initRssMb: m((x) => x.initRssMb),
      initRssDeltaMb: m((x) => x.initRssMb - x.baseRssMb),
      parseMs: m((x) => x.parseMs),
      parsedRssMb: m((x) => x.parsedRssMb),
      grammars: s[0].grammars.length,
      files: s[0].files,
      scopes: s[0].scopes,
    };
  };
  const eager = summary('eager');
  const lazy = summary('lazy');
  if (eager.scopes !== lazy.scopes) throw new Error(`the two modes parsed differently: ${eager.scopes} vs ${lazy.scopes} scopes`);
  console.log(`corpus ${root}: ${lazy.files} files, ${lazy.scopes} scopes; median of ${runs} fresh processes per mode`);
  printTable([
    ['grammars', 'init ms', 'RSS after init MB', 'init RSS delta MB', 'parse ms', 'RSS after parse MB', 'grammars loaded'],
    ['all at init (before)', eager.initMs, eager.initRssMb, eager.initRssDeltaMb, eager.parseMs, eager.parsedRssMb, eager.grammars],
    ['on first use (after)', lazy.initMs, lazy.initRssMb, lazy.initRssDeltaMb, lazy.parseMs, lazy.parsedRssMb, lazy.grammars],
  ]);
  console.log(JSON.stringify({ bench: 'grammar-load', root, runs, files: lazy.files, scopes: lazy.scopes, eager, lazy, loadedLazily: samples.lazy[0].grammars }));
}

const childMode = arg('child', '');
if (childMode === 'eager' || childMode === 'lazy') {
  void child(childMode, arg('root', '')).then((s) => console.log(JSON.stringify(s)));
} else {
  main();
}
