/**
 * The scale test: a big real codebase from a registry package (salt 3007.17's sdist from PyPI, ~3,900
 * Python files, > 50k scopes), indexed by a separate process (the "worker") so its peak RSS is its own.
 *
 *   npm run build && npm run bench:scale -- [--embed-subset 1800] [--touch-percent 1] [--incremental-runs 3] [--skip-embed]
 *        [--skip-searchable] [--only-searchable]
 *
 * 1. Fetch: `pip download salt==3007.17 --no-deps --no-binary :all:` into .cache/bench/pypi, sha256
 *    checked against the pin, unpacked once.
 * 2. Full index without embeddings (fresh repository): files, scopes, edges, wall time per phase,
 *    peak RSS of the indexing process (getrusage, worker threads included) and of Neo4j (VmRSS
 *    sampled every 250 ms while the run lasts).
 * 3. Incremental: 1% of the files get one appended comment line; a re-index (new process, so the
 *    parse cache and the file fingerprints in Redis are what save the work) is timed against the full
 *    index; --incremental-runs times (the same files touched again), median. CPU time of the index
 *    process (all threads) and of Neo4j is reported beside wall time (the machine may be shared).
 * 4. Kill and resume (embedding): a subset of the files holding about --embed-subset scopes is
 *    indexed with embeddings; once Neo4j holds the first round's vectors the process is SIGKILLed;
 *    the re-run must embed exactly the scopes that still lacked a vector (none twice, no cache hits).
 *    Embedding all 50k scopes on 2 shared cores would take 30-90 minutes, so only the subset is embedded.
 *
 * 5. Searchable (`searchableAfterMs`): an API and a worker with the default settings, an index of the
 *    whole corpus started through GraphQL as `scopegraph index` does, and keyword searches for a name
 *    defined only in the first file (path order) and one defined only in the last: the time from the
 *    mutation to the first hit on each (and on `salt`, which most files mention), and to the end of
 *    the graph write; embedding goes on after.
 *
 * Prints a table and one JSON line. Needs Neo4j and Redis up (the worktree's own services).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { arg, median, printTable } from '../support/bench-util';
import { ChildRun, mib, pythonFiles, runChild, touchFiles } from './scale-support';
import { searchableAfter, SearchableRun } from './searchable';

const PACKAGE = { spec: 'salt==3007.17', file: 'salt-3007.17.tar.gz', dir: 'salt-3007.17', sha256: '03c85d77ad4e9bc93877977ca68987b4b2a21cc9043e513cb2e40d96bbabd40b' };

/** Unpacked sources of the pinned sdist (downloaded once with pip, checked by sha256). */
function packageSources(): string {
  const base = path.join(projectRoot(), '.cache', 'bench', 'pypi');
  const dir = path.join(base, PACKAGE.dir);
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  fs.mkdirSync(base, { recursive: true });
  const archive = path.join(base, PACKAGE.file);
  if (!fs.existsSync(archive)) execFileSync('pip', ['download', PACKAGE.spec, '--no-deps', '--no-binary', ':all:', '-d', base, '--quiet'], { stdio: 'inherit' });
  const sha = createHash('sha256').update(fs.readFileSync(archive)).digest('hex');
  if (sha !== PACKAGE.sha256) throw new Error(`${PACKAGE.file}: sha256 ${sha}, expected ${PACKAGE.sha256}`);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync('tar', ['xzf', archive, '-C', base]);
  fs.writeFileSync(path.join(dir, '.complete'), '');
  return dir;
}

/** A copy of the first files (path order) holding about `scopes` scopes (grep of def/class lines + 1 per file). */
function subsetCopy(root: string, files: string[], scopes: number, into: string): string {
  fs.rmSync(into, { recursive: true, force: true });
  let count = 0;
  for (const f of files) {
    if (count >= scopes) break;
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    count += 1 + (text.match(/^\s*(async\s+def|def|class)\s/gm)?.length ?? 0);
    fs.mkdirSync(path.dirname(path.join(into, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(into, f));
  }
  return into;
}

/** Names (def/class) defined in exactly one file: one from the first such file and one from the last, in path order. */
function uniqueNames(root: string, files: string[]): [string, string] {
  const definedIn = new Map<string, Set<string>>();
  const byFile = new Map<string, string[]>();
  for (const f of files) {
    const names = [...fs.readFileSync(path.join(root, f), 'utf8').matchAll(/^\s*(?:async\s+def|def|class)\s+([A-Za-z_][A-Za-z0-9_]{5,})/gm)].map((m) => m[1]);
    byFile.set(f, names);
    for (const n of names) (definedIn.get(n) ?? definedIn.set(n, new Set()).get(n)!).add(f);
  }
  const pick = (order: string[]) => {
    for (const f of order) {
      const n = byFile.get(f)!.find((x) => definedIn.get(x)!.size === 1 && !x.startsWith('_'));
      if (n) return n;
    }
    throw new Error('no name defined in only one file');
  };
  return [pick(files), pick([...files].reverse())];
}


async function main(): Promise<void> {
  const touchPercent = Number(arg('touch-percent', '1'));
  const subsetScopes = Number(arg('embed-subset', '1800'));
  const incrementalRuns = Math.max(1, Number(arg('incremental-runs', '3')));
  const skipEmbed = process.argv.includes('--skip-embed');
  const pristine = packageSources();
  const load = () => os.loadavg().map((x) => Number(x.toFixed(2)));
  let searchable: (SearchableRun & { terms: string[]; load: number[] }) | undefined;
  if (!process.argv.includes('--skip-searchable')) {
    const terms = [...uniqueNames(pristine, pythonFiles(pristine)), 'salt'];
    const run = await searchableAfter(pristine, terms);
    searchable = { ...run, terms, load: load() };
    console.log(`searchable: ${JSON.stringify(searchable)}`);
    if (process.argv.includes('--only-searchable')) {
      process.stdout.write(JSON.stringify({ corpus: PACKAGE.spec, searchable, target: { searchableAfterMs: 30_000 } }) + '\n');
      process.exit(0);
    }
  }
  // Work on a copy: the incremental step edits files.
  const root = path.join(projectRoot(), '.cache', 'bench', 'scale-work');
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(pristine, root, { recursive: true });
  const repo = 'bench-scale';

  const loadBefore = load();
  const full = await runChild({ path: root, name: repo, embed: false, fresh: true });
  const loadFull = load();
  const files = pythonFiles(root);
  const incrs: ChildRun[] = [];
  let touched: string[] = [];
  for (let k = 0; k < incrementalRuns; k++) {
    touched = touchFiles(root, files, touchPercent);
    incrs.push(await runChild({ path: root, name: repo, embed: false }));
  }
  // The run of median index time stands for the incremental figures.
  const incr = [...incrs].sort((a, b) => a.result.indexMs - b.result.indexMs)[incrs.length >> 1];
  const loadIncr = load();

  let embed: Record<string, unknown> | undefined;
  if (!skipEmbed) {
    const dir = subsetCopy(pristine, files, subsetScopes, path.join(projectRoot(), '.cache', 'bench', 'scale-embed'));
    const erepo = 'bench-scale-embed';
    // Round one of the embedding phase is written before the kill (vectors in Neo4j), round two is lost mid-model.
    const first = await runChild({ path: dir, name: erepo, embed: true, fresh: true, clearCaches: true, watchEmbedded: true }, (m) => m.graphEmbedded >= 1);
    const second = await runChild({ path: dir, name: erepo, embed: true });
    const r = second.result;
    const before = r.embedded - r.embeddedThisRun;
    embed = {
      subsetFiles: r.files.indexed,
      subsetScopes: r.scopes.total,
      killedAfterEmbedded: first.embeddedBeforeKill,
      killed: first.killed,
      embeddedInGraphAtRestart: before,
      embeddedByRerun: r.embeddedThisRun,
      // Hits are other scopes whose text is identical to one embedded before the kill (copies), not re-embeddings.
      rerunCacheHits: r.embedding?.cacheHits ?? null,
      rerunModelCalls: r.embeddedThisRun - (r.embedding?.cacheHits ?? 0) - (r.embedding?.duplicates ?? 0),
      // The re-run wrote vectors only for scopes that lacked one, and left none without.
      resumedExactly: r.embeddedThisRun === r.scopes.total - before && r.embedded === r.scopes.total,
      rerunEmbedMs: r.timingsMs.embed,
      rerunEmbeddingsPerSec: Number(((r.embeddedThisRun / r.timingsMs.embed) * 1000).toFixed(2)),
      workerPeakRssMiB: mib(second.maxRssKb),
    };
  }

  const f = full.result;
  const i = incr.result;
  const result = {
    corpus: `${PACKAGE.spec} sdist (sha256 ${PACKAGE.sha256.slice(0, 12)}…)`,
    parseThreads: f.parseThreads,
    tsResolver: f.resolver.ts,
    files: f.files.indexed,
    scopes: f.scopes.total,
    edges: f.edges.total,
    full: {
      wallMs: Math.round(full.wallMs), indexMs: f.indexMs, phasesMs: f.timingsMs, scopesPerSec: Math.round((f.scopes.total / f.indexMs) * 1000),
      cpuMs: Math.round(full.cpuMs ?? 0), neo4jCpuMs: Math.round(full.neo4jCpuMs), workerPeakRssMiB: mib(full.maxRssKb), neo4jPeakRssMiB: mib(full.neo4jPeakRssKb),
    },
    incremental: {
      touchedFiles: touched.length,
      runs: incrs.map((r) => r.result.indexMs),
      parsed: i.files.parsed,
      reused: i.files.reused,
      unread: i.files.unread,
      scopesChanged: i.scopes.changed + i.scopes.added + i.scopes.deleted,
      wallMs: Math.round(incr.wallMs),
      indexMs: i.indexMs,
      phasesMs: i.timingsMs,
      ratioOfFull: Number((median(incrs.map((r) => r.result.indexMs)) / f.indexMs).toFixed(3)),
      cpuMs: Math.round(incr.cpuMs ?? 0),
      neo4jCpuMs: Math.round(incr.neo4jCpuMs),
      cpuRatioOfFull: Number(((median(incrs.map((r) => (r.cpuMs ?? 0) + r.neo4jCpuMs))) / ((full.cpuMs ?? 0) + full.neo4jCpuMs)).toFixed(3)),
      workerPeakRssMiB: mib(incr.maxRssKb),
      neo4jPeakRssMiB: mib(incr.neo4jPeakRssKb),
    },
    embedding: embed ?? 'skipped',
    searchable: searchable ?? 'skipped',
    loadAverage: { before: loadBefore, afterFull: loadFull, afterIncremental: loadIncr, end: load() },
    target: { minScopes: 50_000, workerPeakRssMiB: 2048, incrementalRatio: 0.05, searchableAfterMs: 30_000 },
  };
  printTable([
    ['metric', 'value'],
    ['files / scopes / edges', `${result.files} / ${result.scopes} / ${result.edges}`],
    [`full index ms (${f.parseThreads} parse thread(s), walk → write)`, f.indexMs],
    ['full index CPU ms (index process / Neo4j)', `${result.full.cpuMs} / ${result.full.neo4jCpuMs}`],
    ['full index scopes/s', result.full.scopesPerSec],
    ['worker peak RSS MiB (full)', result.full.workerPeakRssMiB],
    ['Neo4j peak RSS MiB (full)', result.full.neo4jPeakRssMiB],
    [`incremental ms (${touched.length} files touched, median of ${incrs.length})`, median(incrs.map((r) => r.result.indexMs))],
    ['incremental / full (wall)', result.incremental.ratioOfFull],
    ['incremental / full (CPU of index process + Neo4j)', result.incremental.cpuRatioOfFull],
    ['searchableAfterMs (first file\'s name / last file\'s name / `salt` / graph written)', searchable ? `${searchable.searchableAfterMs} / ${searchable.termsAfterMs[searchable.terms[1]]} / ${searchable.termsAfterMs.salt} / ${searchable.graphWrittenAfterMs ?? '-'}` : 'skipped'],
    ['embedding resumed exactly', embed ? String(embed.resumedExactly) : 'skipped'],
  ]);
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
