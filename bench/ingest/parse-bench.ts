// Parse-only throughput of ParserService (no database): files, scopes, references and scopes/s,
// median of N runs after one warm-up run. Prints a table and a JSON line.
//
// Corpus used for the reported numbers (TypeScript sources of rxjs 7.8.2):
//   cd /tmp && npm pack rxjs@7.8.2 && tar xzf rxjs-7.8.2.tgz      # -> /tmp/package/src
//
// Run:
//   node scripts/build.mjs && node dist/bench/ingest/parse-bench.js --root /tmp/package/src --runs 5
//
// Options: --root DIR (default /tmp/package/src), --runs N (default 5), --ext .ts,.tsx (default: every
// extension the parser supports), --resolve (also time resolveRepository over the parsed files).
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ParserService } from '../../libs/ingest/src/parse/parser.service';
import type { ParsedFile } from '../../libs/ingest/src/parse/types';
import { resolveRepository } from '../../libs/ingest/src/resolve/resolver';
import { listFiles } from '../support/bench-util';

interface RunResult {
  ms: number;
  files: number;
  scopes: number;
  references: number;
  errors: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(): Promise<void> {
  const root = arg('root', '/tmp/package/src');
  const runs = Math.max(1, Number(arg('runs', '5')));
  const exts = arg('ext', '').split(',').filter(Boolean);
  try {
    statSync(root);
  } catch {
    console.error(`corpus not found: ${root}\n  cd /tmp && npm pack rxjs@7.8.2 && tar xzf rxjs-7.8.2.tgz`);
    process.exit(2);
  }
  const parser = new ParserService();
  const t0 = performance.now();
  await parser.init();
  const initMs = performance.now() - t0;

  const corpus = listFiles(root)
    .map((abs) => relative(root, abs).split('\\').join('/'))
    .filter((p) => parser.supports(p) && (!exts.length || exts.some((e) => p.endsWith(e))))
    .sort()
    .map((p) => ({ path: p, content: readFileSync(join(root, p), 'utf8') }));
  const bytes = corpus.reduce((n, f) => n + f.content.length, 0);

  let last: ParsedFile[] = [];
  const once = (): RunResult => {
    const r: RunResult = { ms: 0, files: corpus.length, scopes: 0, references: 0, errors: 0 };
    last = [];
    const start = performance.now();
    for (const f of corpus) {
      const parsed = parser.parseFile(f.path, f.content);
      last.push(parsed);
      r.scopes += parsed.scopes.length;
      r.references += parsed.references.length;
      if (parsed.errors.length) r.errors++;
    }
    r.ms = performance.now() - start;
    return r;
  };

  once(); // warm-up (JIT)
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) results.push(once());
  const ms = median(results.map((r) => r.ms));
  let resolve: { ms: number; edges: number; unresolved: number } | undefined;
  if (process.argv.includes('--resolve')) {
    const t = performance.now();
    const res = resolveRepository(last);
    resolve = { ms: Math.round(performance.now() - t), edges: res.edges.length, unresolved: res.unresolved.length };
  }
  const { files, scopes, references, errors } = results[0];
  const summary = {
    corpus: root,
    runs,
    files,
    characters: bytes,
    scopes,
    references,
    filesWithErrors: errors,
    initMs: Math.round(initMs),
    medianMs: Math.round(ms * 10) / 10,
    minMs: Math.round(Math.min(...results.map((r) => r.ms)) * 10) / 10,
    runsMs: results.map((r) => Math.round(r.ms)),
    scopesPerSec: Math.round((scopes / ms) * 1000),
    filesPerSec: Math.round((files / ms) * 1000),
    mbPerSec: Math.round((bytes / 1e6 / (ms / 1000)) * 100) / 100,
    node: process.version,
    ...(resolve ? { resolveMs: resolve.ms, edges: resolve.edges, unresolved: resolve.unresolved } : {}),
  };
  const rows: [string, string][] = [
    ['corpus', root],
    ['files', String(files)],
    ['characters', String(bytes)],
    ['scopes', String(scopes)],
    ['references', String(references)],
    ['files with syntax errors', String(errors)],
    ['grammar init (ms)', String(summary.initMs)],
    [`median of ${runs} runs (ms)`, String(summary.medianMs)],
    ['fastest run (ms)', String(summary.minMs)],
    ['scopes/s', String(summary.scopesPerSec)],
    ['files/s', String(summary.filesPerSec)],
    ['MB/s', String(summary.mbPerSec)],
    ...(resolve ? ([['resolve (ms)', String(resolve.ms)], ['edges / unresolved', `${resolve.edges} / ${resolve.unresolved}`]] as [string, string][]) : []),
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
  console.log(JSON.stringify(summary));
  parser.dispose();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
