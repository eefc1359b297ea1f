/**
 * How good the code graph's edges are, per codebase and language: every reference the parser saw
 * (call sites; type references and heritage) resolved to an in-repo scope, to an outside module or
 * the standard library, or left unresolved (by reason), with the fast (tree-sitter) resolver alone
 * and with the precise one (TypeScript's checker first). Plus:
 *  - agreement: of the TS/JS references both resolvers pinned to scopes, how often the fast resolver
 *    named the same targets as the compiler (the fast resolver's precision, the compiler as judge);
 *  - a seeded sample of precise CALLS edges written out for hand-checking (--sample-out FILE);
 *  - time: walk+parse+resolve per resolver, runs alternated in one process (--runs N); with --index,
 *    full indexes (Neo4j writes, no embeddings) fast vs precise, alternated.
 *
 *   npm run build && node dist/bench/graph/graph-bench.js [--repos name=dir,...] [--runs 3]
 *     [--sample 60 --sample-out /tmp/sample.tsv] [--misses-out /tmp/misses.tsv] [--index] [--index-only] [--scip]
 *
 * --index-only: only the full-index timing (fast vs precise alternated, medians, peak memory of the
 * pyright process and of this process, the worker), of every repository given instead of the first.
 *
 * --embed (with --index/--index-only): the full indexes embed too, with the local model and EMBED_REUSE
 * off (every run computes its vectors), what a default index does; --py-phase deferred|inline sets
 * INGEST_PY_PRECISE_PHASE for the precise runs (default: the configured one).
 *
 * --py-checkers ty,pyright (with --index/--index-only): one precise mode per Python checker, all
 * alternated with fast in the same rounds (`precise:ty`, `precise:pyright`), each ratio to fast.
 * --py-phases inline,deferred: each of those once per phase (`precise:ty:inline`, `precise:ty:deferred`),
 * so the phases are compared side by side in one run instead of across runs at different loads.
 *
 * --scip: also each repository with SCIP indexes made by the indexers npm ships (scip-typescript for
 * TS/JS files, scip-python for Python; on a copy of the tree), rows `fast+scip` and `precise+scip`
 * beside the others: each language's figure with and without SCIP.
 *
 * Default repositories: rxjs@7.8.2's src/ (the search dev set's codebase, unpacked into .cache/bench)
 * and scopegraph's own apps/, libs/, bench/, test/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig, projectRoot } from '@scopegraph/config';
import { createEmbeddingProvider } from '@scopegraph/llm';
import { seededRandom } from '@scopegraph/rerank';
import {
  familyOf, fastModuleOptions, IngestService, Language, ParsedFile, ParseCache, ParserService, readManifests, ReferenceResolver, RefOutcome, resolveRepository,
  rootPackageName, TsProjects, tsProjectOptions, walkRepository,
} from '@scopegraph/ingest';
import { IngestHarness } from '../../test/support/ingest-harness';
import { copyToTemp, runScipPython, runScipTypescript } from '../../libs/ingest/src/scip/testing/indexers';
import { readScipIndex, ScipOracles, ScipResolution } from '../../libs/ingest/src/scip';
import { arg, median, npmPackageSources, printTable } from '../support/bench-util';

/** Reasons that mean "an in-repo target was expected but not found". */
const MISSES = ['not-found', 'unknown-receiver', 'ambiguous'] as const;
/** `dynamic` (through a function value or an interface with several implementors) is neither a miss nor a hit. */
const NOT_IN_REPO = ['external', 'builtin', 'local', 'dynamic'] as const;

/** A row per resolution family of the language plugins (TS/TSX/JS together as `ts/js`). */
type Family = string;

function family(language: string): Family {
  const fam = familyOf(language as Language);
  return fam === 'js' ? 'ts/js' : fam === 'py' ? 'python' : fam === 'cs' ? 'csharp' : fam;
}

interface Row {
  repo: string;
  resolver: string;
  family: Family;
  refs: 'calls' | 'references';
  total: number;
  resolved: number;
  precise: number;
  /** Resolved by an imported SCIP index. */
  scip: number;
  byReason: Record<string, number>;
  /** resolved / (resolved + misses): the share of in-repo references pinned to a scope. */
  inRepoRate: number;
}

function tally(repo: string, resolver: string, files: ParsedFile[], outcomes: RefOutcome[]): Row[] {
  const lang = new Map(files.map((f) => [f.path, f.language]));
  const rows = new Map<string, Row>();
  for (const o of outcomes) {
    const fam = family(o.ref.targetLanguage ?? lang.get(o.path) ?? 'typescript');
    const refs = o.ref.kind === 'CALLS' ? 'calls' : 'references';
    const k = `${fam} ${refs}`;
    let r = rows.get(k);
    if (!r) rows.set(k, (r = { repo, resolver, family: fam, refs, total: 0, resolved: 0, precise: 0, scip: 0, byReason: {}, inRepoRate: 0 }));
    r.total++;
    if (o.targetIds) {
      r.resolved++;
      if (o.resolver === 'precise') r.precise++;
      if (o.resolver === 'scip') r.scip++;
    } else r.byReason[o.reason!] = (r.byReason[o.reason!] ?? 0) + 1;
  }
  for (const r of rows.values()) {
    const misses = MISSES.reduce((n, m) => n + (r.byReason[m] ?? 0), 0);
    r.inRepoRate = r.resolved / Math.max(1, r.resolved + misses);
  }
  return [...rows.values()].sort((a, b) => `${a.family}${a.refs}`.localeCompare(`${b.family}${b.refs}`));
}

/** Of the TS/JS references both resolvers pinned, the share where the fast one named the compiler's targets. */
function agreement(fast: RefOutcome[], precise: RefOutcome[]): { both: number; same: number; subset: number } {
  const key = (o: RefOutcome) => `${o.ref.fromId}\u0000${o.ref.kind}\u0000${o.ref.targetName}`;
  const byKey = new Map(fast.map((o) => [key(o), o]));
  let both = 0;
  let same = 0;
  let subset = 0;
  for (const p of precise) {
    if (p.resolver !== 'precise' || !p.targetIds) continue;
    const f = byKey.get(key(p));
    if (!f?.targetIds) continue;
    both++;
    const ps = new Set(p.targetIds);
    if (f.targetIds.length === ps.size && f.targetIds.every((t) => ps.has(t))) same++;
    else if (f.targetIds.some((t) => ps.has(t))) subset++;
  }
  return { both, same, subset };
}

function sample(repo: string, files: ParsedFile[], outcomes: RefOutcome[], n: number): string[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const scopes = new Map(files.flatMap((f) => f.scopes.map((s) => [s.id, s] as const)));
  // TS/JS: the compiler's edges; other languages: their (only) resolver's.
  const lang = new Map(files.map((f) => [f.path, f.language]));
  const pool = outcomes.filter((o) => o.ref.kind === 'CALLS' && o.targetIds && (o.resolver === 'precise' || familyOf(lang.get(o.path) ?? 'typescript') !== 'js'));
  const random = seededRandom(13); // seeded, so the hand-checked sample is the same on every run
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n).map((o) => {
    const file = byPath.get(o.path)!;
    const text = (file.scopes[0].source.split('\n')[o.ref.line - 1] ?? '').trim().slice(0, 120);
    const targets = o.targetIds!.map((id) => {
      const s = scopes.get(id)!;
      return `${s.path}:${s.startLine} ${s.qualifiedName} (${s.kind})`;
    });
    return [repo, `${o.path}:${o.ref.line}`, o.ref.targetName, targets.join(' | '), text].join('\t');
  });
}

/**
 * SCIP indexes of a repository by the indexers npm ships, on a copy of it (scip-typescript writes a
 * tsconfig.json where it has none): TS/JS when it has such files, Python when it has .py files.
 */
function scipFor(root: string, files: ParsedFile[]): ScipOracles {
  const copy = copyToTemp(root);
  const out: ScipResolution[] = [];
  const has = (fam: string) => files.some((f) => familyOf(f.language) === fam);
  if (has('js')) out.push(new ScipResolution(readScipIndex(runScipTypescript(copy, path.join(copy, '..', `${path.basename(copy)}-ts.scip`))), files, copy));
  if (has('py')) out.push(new ScipResolution(readScipIndex(runScipPython(copy, path.join(copy, '..', `${path.basename(copy)}-py.scip`))), files, copy));
  return new ScipOracles(out);
}

/** Every call site left a miss (not-found, unknown-receiver, ambiguous), to see what a resolver lacks. */
function misses(repo: string, files: ParsedFile[], outcomes: RefOutcome[]): string[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  return outcomes
    .filter((o) => o.ref.kind === 'CALLS' && !o.targetIds && (MISSES as readonly string[]).includes(o.reason!))
    .map((o) => {
      const text = (byPath.get(o.path)!.scopes[0].source.split('\n')[o.ref.line - 1] ?? '').trim().slice(0, 120);
      return [repo, `${o.path}:${o.ref.line}`, o.ref.targetName, o.reason, text].join('\t');
    });
}

async function parseRepo(parser: ParserService, root: string): Promise<ParsedFile[]> {
  const walk = await walkRepository(root, (p) => parser.supports(p));
  return walk.files.map((f) => parser.parseFile(f.path, f.content));
}

function repos(): { name: string; root: string }[] {
  const given = arg('repos', '');
  if (given) {
    return given.split(',').map((s) => {
      const [name, dir] = s.split('=');
      return { name, root: path.resolve(dir) };
    });
  }
  return [
    { name: 'rxjs', root: path.join(npmPackageSources('rxjs@7.8.2'), 'src') },
    { name: 'scopegraph', root: projectRoot() },
  ];
}

async function main(): Promise<void> {
  // --runs 0: the quality pass only (each checker's own time is in its stats line on stderr).
  const runs = Math.max(0, Number(arg('runs', '3')));
  const sampleSize = Number(arg('sample', '0'));
  const sampleOut = arg('sample-out', '');
  const missesOut = arg('misses-out', '');
  const missed: string[] = [];
  const parser = new ParserService();
  await parser.init();
  const rows: Row[] = [];
  const agree: Record<string, ReturnType<typeof agreement>> = {};
  const timing: Record<string, { parseMs: number; fastMs: number; preciseMs: number; ratio: number; pyMs?: number; pyRatio?: number; pyPeakMb?: number }> = {};
  const samples: string[] = [];
  // --index-only: just the full-index timing, of every repository given.
  const indexOnly = process.argv.includes('--index-only');
  for (const { name, root } of indexOnly ? [] : repos()) {
    // Resolution quality (one run each).
    const files = await parseRepo(parser, root);
    // go.mod, composer.json...: what the language plugins' module systems read (as an index run does)
    const rootPackage = rootPackageName(root, files.map((f) => f.path));
    const modules = { ...fastModuleOptions(root, tsProjectOptions(root).options), manifests: readManifests(root, files.map((f) => f.path)), ...(rootPackage ? { pythonRootPackage: rootPackage } : {}) };
    const fast = resolveRepository(files, { ...modules, collectOutcomes: true });
    const session = new TsProjects(Number.MAX_SAFE_INTEGER).open(name, root, files);
    const hasPython = files.some((f) => familyOf(f.language) === 'py');
    // Python: pyright answers what the fast resolver cannot pin (a fresh process per repository).
    const pyRun = hasPython ? await withPyResolver(name, (r) => r.resolve(`bench-graph-${name}`, root, files, undefined, { collectOutcomes: true })) : undefined;
    if (pyRun?.pyPrecise) process.stderr.write(`${name}: ${pyRun.pyPrecise.checker ?? 'pyright'} ${JSON.stringify(pyRun.pyPrecise)}\n`);
    const tsPrecise = resolveRepository(files, { ...modules, precise: session.oracle, collectOutcomes: true });
    const precise = pyRun
      ? { ...tsPrecise, outcomes: [...tsPrecise.outcomes!.filter((o) => !isPy(files, o)), ...pyRun.result.outcomes!.filter((o) => isPy(files, o))] }
      : tsPrecise;
    const compilerFirst = resolveRepository(files, { ...modules, precise: session.oracle, preciseFirst: true, collectOutcomes: true });
    rows.push(
      ...tally(name, 'fast', files, fast.outcomes!),
      ...tally(name, 'precise', files, precise.outcomes!),
      ...tally(name, 'compiler-first', files, compilerFirst.outcomes!),
    );
    if (process.argv.includes('--scip')) {
      const scip = scipFor(root, files);
      process.stderr.write(`${name}: SCIP ${JSON.stringify(scip.all.map((s) => (s as ScipResolution).stats))}\n`);
      rows.push(
        ...tally(name, 'fast+scip', files, resolveRepository(files, { ...modules, scip, collectOutcomes: true }).outcomes!),
        ...tally(name, 'precise+scip', files, resolveRepository(files, { ...modules, scip, precise: session.oracle, collectOutcomes: true }).outcomes!),
      );
    }
    agree[name] = agreement(fast.outcomes!, compilerFirst.outcomes!);
    if (sampleSize) samples.push(...sample(name, files, precise.outcomes!, sampleSize));
    if (missesOut) missed.push(...misses(name, files, precise.outcomes!));
    process.stderr.write(`${name}: ${files.length} files, compiler options ${session.stats.options}\n`);

    if (runs === 0) continue;
    // Time: walk+parse, then fast resolve vs a fresh precise project + resolve, alternated.
    const parseMs: number[] = [];
    const fastMs: number[] = [];
    const preciseMs: number[] = [];
    const pyMs: number[] = [];
    let pyPeakMb = 0;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const again = await parseRepo(parser, root);
      parseMs.push(performance.now() - t);
      t = performance.now();
      resolveRepository(again, { ...fastModuleOptions(root, tsProjectOptions(root).options), ...(rootPackage ? { pythonRootPackage: rootPackage } : {}) });
      fastMs.push(performance.now() - t);
      t = performance.now();
      resolveRepository(again, { ...fastModuleOptions(root, tsProjectOptions(root).options), ...(rootPackage ? { pythonRootPackage: rootPackage } : {}), precise: new TsProjects(Number.MAX_SAFE_INTEGER).open(name, root, again).oracle });
      preciseMs.push(performance.now() - t);
      if (hasPython) {
        // A fresh pyright process each run: start, list the files, answer, stop (a first index).
        t = performance.now();
        const run = await withPyResolver(name, (r) => r.resolve(`bench-graph-${name}`, root, again));
        pyMs.push(performance.now() - t);
        pyPeakMb = Math.max(pyPeakMb, run.pyPrecise?.peakMb ?? 0);
      }
    }
    const p = median(parseMs);
    timing[name] = {
      parseMs: p, fastMs: median(fastMs), preciseMs: median(preciseMs), ratio: (p + median(preciseMs)) / (p + median(fastMs)),
      ...(hasPython ? { pyMs: median(pyMs), pyRatio: (p + median(pyMs)) / (p + median(fastMs)), pyPeakMb } : {}),
    };
  }

  printTable([
    ['repo', 'resolver', 'family', 'refs', 'total', 'resolved', 'by compiler', 'by scip', 'in-repo %', ...MISSES, ...NOT_IN_REPO],
    ...rows.map((r) => [
      r.repo, r.resolver, r.family, r.refs, r.total, r.resolved, r.precise, r.scip, (r.inRepoRate * 100).toFixed(1),
      ...MISSES.map((m) => r.byReason[m] ?? 0), ...NOT_IN_REPO.map((m) => r.byReason[m] ?? 0),
    ]),
  ]);
  process.stdout.write('\n');
  printTable([
    ['repo', 'both pinned (ts/js)', 'fast = compiler', 'fast overlaps', 'fast precision %'],
    ...Object.entries(agree).map(([repo, a]) => [repo, a.both, a.same, a.subset, ((a.same / Math.max(1, a.both)) * 100).toFixed(1)]),
  ]);
  process.stdout.write('\n');
  // The Python columns name the checker configured (INGEST_PY_CHECKER), which is the one that answered unless it is not installed (stderr says so).
  const py = loadConfig().ingest.pyChecker;
  printTable([
    ['repo', 'walk+parse ms', 'fast resolve ms', 'precise resolve ms', 'parse+precise / parse+fast', `${py} resolve ms`, `parse+${py} / parse+fast`, `${py} peak MB`],
    ...Object.entries(timing).map(([repo, t]) => [
      repo, t.parseMs, t.fastMs, t.preciseMs, t.ratio.toFixed(2), t.pyMs ?? '', t.pyRatio?.toFixed(2) ?? '', t.pyPeakMb ?? '',
    ]),
  ]);
  if (missesOut) fs.writeFileSync(missesOut, ['repo\tsite\tcallee\treason\tline', ...missed].join('\n') + '\n');
  if (sampleOut) fs.writeFileSync(sampleOut, ['repo\tsite\tcallee\ttargets\tline', ...samples].join('\n') + '\n');

  let index: Record<string, unknown> | undefined;
  if (indexOnly) {
    index = {};
    // --warmup N: uncounted rounds before the first repository's (default 1); later ones run warm.
    const warmup = Number(arg('warmup', '1'));
    for (const [i, { name, root }] of repos().entries()) index[name] = await indexTiming(root, Math.max(1, runs), i === 0 ? warmup : 0);
    printTable([
      ['repo', 'fast ms (median)', 'precise ms (median)', 'precise / fast', 'fast CPU ms', 'precise CPU ms (with pyright)', 'CPU precise / fast', 'pyright peak MB', 'worker peak MB'],
      ...Object.entries(index).map(([repo, o]) => {
        const t = o as { fastMs: number; preciseMs: number; ratio: number; fastCpuMs: number; preciseCpuMs: number; cpuRatio: number; py: { peakMb?: number }[]; workerPeakMb: number };
        return [
          repo, Math.round(t.fastMs), Math.round(t.preciseMs), t.ratio.toFixed(2), Math.round(t.fastCpuMs), Math.round(t.preciseCpuMs), t.cpuRatio.toFixed(2),
          Math.max(0, ...t.py.map((p) => p.peakMb ?? 0)), t.workerPeakMb,
        ];
      }),
    ]);
  } else if (process.argv.includes('--index')) index = await indexTiming(repos()[0].root, Math.max(1, runs));
  process.stdout.write(`${JSON.stringify({ rows, agreement: agree, timing, index, load: fs.readFileSync('/proc/loadavg', 'utf8').trim() })}\n`);
}

function isPy(files: ParsedFile[], o: RefOutcome): boolean {
  const f = files.find((x) => x.path === o.path);
  return !!f && familyOf(f.language) === 'py';
}

/** A ReferenceResolver with pyright on (TS fast: its rows come from TsProjects above), stopped after `fn`. */
async function withPyResolver<T>(name: string, fn: (r: ReferenceResolver) => Promise<T>): Promise<T> {
  const base = loadConfig();
  const r = new ReferenceResolver({ ...base, ingest: { ...base.ingest, tsResolver: 'fast', pyResolver: 'precise' } });
  try {
    return await fn(r);
  } finally {
    r.forget(`bench-graph-${name}`);
    await r.onModuleDestroy();
  }
}

/** Full indexes of the first repository (Neo4j writes, embeddings off), fast and precise alternated. */
async function indexTiming(root: string, runs: number, warmup = 1): Promise<Record<string, unknown>> {
  let reindex: Record<string, unknown> = {};
  const embed = process.argv.includes('--embed');
  const pyPhase = (arg('py-phase', '') || undefined) as 'deferred' | 'inline' | undefined;
  const h = new IngestHarness();
  // Without --embed, embeddings are off: the hash provider only satisfies the constructor. With it,
  // the local model, and no vector copied from an earlier run (the other mode indexes the same texts).
  if (embed) h.config.embedding = { ...h.config.embedding, reuse: false };
  await h.init(embed ? undefined : createEmbeddingProvider({ provider: 'hash', dimensions: h.config.embedding.dimensions }));
  // One parse pool and one checker thread for every run, as in a long-lived worker; each run gets a
  // fresh service whose repository has no compiler state (a first index).
  // Python too: `precise` is pyright as well (INGEST_PY_RESOLVER), a fresh process per run.
  // Modes: `fast`, and `precise` (the configured checker) or one `precise:<checker>` per --py-checkers entry.
  // --py-phases inline,deferred: each checker once per phase (`precise:ty:inline`...), side by side.
  const checkers = arg('py-checkers', '').split(',').filter(Boolean) as ('ty' | 'pyright')[];
  const phaseList = arg('py-phases', '').split(',').filter(Boolean) as ('deferred' | 'inline')[];
  const precise = (checkers.length ? checkers : ['']).flatMap((c) => (phaseList.length ? phaseList.map((p) => `precise:${c}:${p}`) : [c ? `precise:${c}` : 'precise']));
  const modes = ['fast', ...precise];
  const service = async (mode: string, repo: string) => {
    h.checker.forget(repo);
    const [resolver, checker, phase] = mode.split(':') as ['fast' | 'precise', ('ty' | 'pyright' | '')?, ('deferred' | 'inline')?];
    const inPhase = phase ?? pyPhase;
    return h.serviceWith({ tsResolver: resolver, pyResolver: resolver, ...(checker ? { pyChecker: checker } : {}), ...(inPhase ? { pyPrecisePhase: inPhase } : {}) });
  };
  const loads: string[] = [];
  const each = <T>(): Record<string, T[]> => Object.fromEntries(modes.map((m) => [m, [] as T[]]));
  const phases = each<{ embedMs?: number; pyPhaseMs?: number; pyWaitMs?: number; edges: number; unresolved: number; load: string }>();
  // Per process: other runs of this bench on the same Neo4j keep their own repositories.
  const names: Record<string, string> = Object.fromEntries(modes.map((m) => [m, `bench-graph-${m.replace(/:+/g, '-')}-${process.pid}`]));
  const ms = each<number>();
  const cpu = each<number>();
  const peakMb = each<number>();
  const rechecked: number[] = [];
  const py: unknown[] = [];
  try {
    // Round 0 warms up (threads, the compiler's lib files, query plans) and is not counted.
    for (let i = 1 - warmup; i <= runs; i++) {
      // Alternate who goes first so neither mode always inherits a warm or throttled CPU.
      const k = ((i % modes.length) + modes.length) % modes.length;
      for (const mode of [...modes.slice(k), ...modes.slice(0, k)]) {
        const repo = names[mode];
        await h.repo.deleteRepository(repo);
        const { ingest: indexer, resolver } = await service(mode, repo);
        const t = performance.now();
        const c = process.cpuUsage();
        const r = await indexer.index({ path: root, name: repo, embed });
        const took = performance.now() - t;
        const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
        process.stderr.write(`${path.basename(path.dirname(root))} round ${i} ${mode}: ${Math.round(took)} ms (embed ${r.timingsMs.embed ?? '-'} ms, pyright phase ${r.resolver.pyPrecise?.phaseMs ?? '-'} ms, waited for it ${r.timingsMs.pyPhaseWait ?? '-'} ms, edges ${r.edges.total}) load ${load}\n`);
        // CPU of this process (the worker: walk, parse threads, resolve, driver) plus pyright's: what a
        // loaded machine does not distort the way it does wall time (Neo4j's, the same for both, is not counted)
        const used = process.cpuUsage(c);
        await resolver.onModuleDestroy();
        if (i <= 0) continue;
        ms[mode].push(took);
        loads.push(load);
        phases[mode].push({ embedMs: r.timingsMs.embed, pyPhaseMs: r.resolver.pyPrecise?.phaseMs, pyWaitMs: r.timingsMs.pyPhaseWait, edges: r.edges.total, unresolved: r.edges.unresolved, load });
        cpu[mode].push((used.user + used.system) / 1000 + (r.resolver.pyPrecise?.cpuMs ?? 0));
        if (r.resolver.precise) rechecked.push(r.resolver.precise.rechecked);
        if (r.resolver.pyPrecise) py.push(r.resolver.pyPrecise);
        if (r.resolver.pyPrecise?.peakMb) peakMb[mode].push(r.resolver.pyPrecise.peakMb);
      }
    }
    // A re-index with nothing changed, precise resolver state kept: how incremental runs behave.
    const keptMode = modes[1];
    const { ingest: kept, resolver } = await service(keptMode, names[keptMode]);
    await kept.index({ path: root, name: names[keptMode], embed });
    const t = performance.now();
    const again = await kept.index({ path: root, name: names[keptMode], embed });
    reindex = { ms: performance.now() - t, rechecked: again.resolver.precise?.rechecked, resolveMs: again.timingsMs.resolve, py: again.resolver.pyPrecise };
    await resolver.onModuleDestroy();
  } finally {
    await h.dispose(Object.values(names));
  }
  // The bench's own process is the worker here (walk, parse, resolve, writes): its peak over all runs so far.
  const workerPeakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const [, first] = modes;
  const byMode = Object.fromEntries(modes.slice(1).map((m) => [m, { ms: median(ms[m]), ratio: median(ms[m]) / median(ms.fast), cpuMs: median(cpu[m]), cpuRatio: median(cpu[m]) / median(cpu.fast), peakMb: Math.max(0, ...peakMb[m]) }]));
  const out = {
    fastMs: median(ms.fast), preciseMs: median(ms[first]), ratio: median(ms[first]) / median(ms.fast), runs: ms,
    fastCpuMs: median(cpu.fast), preciseCpuMs: median(cpu[first]), cpuRatio: median(cpu[first]) / median(cpu.fast), cpu, byMode,
    rechecked, py, reindex, workerPeakMb, embed, pyPhase: pyPhase ?? h.config.ingest.pyPrecisePhase ?? 'by checker', phases, loads,
  };
  printTable([
    [`full index of ${path.basename(path.dirname(root))}/${path.basename(root)} (${embed ? 'embeddings by the local model' : 'no embeddings'})`, 'median ms', 'runs ms', '/ fast', 'CPU / fast', 'checker peak MB', 'load (1-min) per run'],
    ['fast', out.fastMs, ms.fast.map(Math.round).join(' '), '1.00', '1.00', '', phases.fast.map((p) => p.load.split(' ')[0]).join(' ')],
    ...modes.slice(1).map((m) => [m, byMode[m].ms, ms[m].map(Math.round).join(' '), byMode[m].ratio.toFixed(2), byMode[m].cpuRatio.toFixed(2), byMode[m].peakMb, phases[m].map((p) => p.load.split(' ')[0]).join(' ')]),
  ]);
  return out;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
