/**
 * The scale test: a big real codebase from a registry package (salt 3007.17's sdist from PyPI, ~3,900
 * Python files, > 50k scopes), indexed by a separate process (the "worker") so its peak RSS is its own.
 *
 *   npm run build && npm run bench:scale -- [--embed-subset 1800] [--touch-percent 1] [--incremental-runs 3] [--skip-embed]
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
 * Prints a table and one JSON line. Needs Neo4j and Redis up (the worktree's own services).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { arg, median, neo4jCpuMs, neo4jPid, printTable } from '../support/bench-util';

const PACKAGE = { spec: 'salt==3007.17', file: 'salt-3007.17.tar.gz', dir: 'salt-3007.17', sha256: '03c85d77ad4e9bc93877977ca68987b4b2a21cc9043e513cb2e40d96bbabd40b' };
const CHILD = path.join(__dirname, 'scale-child.js');

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

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

interface ChildRun {
  result?: any;
  maxRssKb?: number;
  cpuMs?: number;
  neo4jCpuMs: number;
  wallMs: number;
  neo4jPeakRssKb: number;
  killed: boolean;
  embeddedBeforeKill?: number;
}

/**
 * Runs one index in a child process. `killWhen`, given, is polled with the child's progress lines;
 * when it returns true the child is SIGKILLed.
 */
function runChild(opts: Record<string, unknown>, killWhen?: (progress: any) => boolean): Promise<ChildRun> {
  const pid = neo4jPid();
  let neo4jPeak = pid ? rssKb(pid) : 0;
  const neo4jCpu = neo4jCpuMs();
  const sampler = setInterval(() => (neo4jPeak = Math.max(neo4jPeak, pid ? rssKb(pid) : 0)), 250);
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [CHILD, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  let buffer = '';
  let final: { result: any; maxRssKb: number; cpuMs: number } | undefined;
  let killed = false;
  let embeddedBeforeKill: number | undefined;
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      const msg = JSON.parse(line);
      if (msg.final) final = msg;
      else if (msg.progress && killWhen && !killed && killWhen(msg)) {
        killed = true;
        embeddedBeforeKill = msg.progress.embedded;
        child.kill('SIGKILL');
      }
    }
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      clearInterval(sampler);
      if (!killed && code !== 0) return reject(new Error(`index process exited with ${code ?? signal}`));
      resolve({
        result: final?.result, maxRssKb: final?.maxRssKb, cpuMs: final?.cpuMs, neo4jCpuMs: neo4jCpuMs() - neo4jCpu,
        wallMs: performance.now() - started, neo4jPeakRssKb: neo4jPeak, killed, embeddedBeforeKill,
      });
    });
  });
}

/** Appends a comment line to every 1/percent-th file (path order): their bytes change, nothing else does. */
function touchFiles(root: string, files: string[], percent: number): string[] {
  const n = Math.max(1, Math.ceil((files.length * percent) / 100));
  const step = files.length / n;
  const touched = Array.from({ length: n }, (_, i) => files[Math.floor(i * step)]);
  for (const f of touched) fs.appendFileSync(path.join(root, f), '\n# touched by the scale bench\n');
  return touched;
}

function pythonFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...pythonFiles(root, p));
    else if (e.isFile() && e.name.endsWith('.py')) out.push(p);
  }
  return out;
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

const mib = (kb: number | undefined) => (kb ? Math.round(kb / 1024) : 0);

async function main(): Promise<void> {
  const touchPercent = Number(arg('touch-percent', '1'));
  const subsetScopes = Number(arg('embed-subset', '1800'));
  const incrementalRuns = Math.max(1, Number(arg('incremental-runs', '3')));
  const skipEmbed = process.argv.includes('--skip-embed');
  const pristine = packageSources();
  // Work on a copy: the incremental step edits files.
  const root = path.join(projectRoot(), '.cache', 'bench', 'scale-work');
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(pristine, root, { recursive: true });
  const repo = 'bench-scale';
  const load = () => os.loadavg().map((x) => Number(x.toFixed(2)));

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
    loadAverage: { before: loadBefore, afterFull: loadFull, afterIncremental: loadIncr, end: load() },
    target: { minScopes: 50_000, workerPeakRssMiB: 2048, incrementalRatio: 0.05 },
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
    ['embedding resumed exactly', embed ? String(embed.resumedExactly) : 'skipped'],
  ]);
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
