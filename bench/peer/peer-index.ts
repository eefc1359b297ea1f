/**
 * bench:peer-index — the same corpora indexed by GitNexus and by scopegraph (graph only, no
 * embeddings, the compiler-grade resolvers: TypeScript's checker and pyright), in one run,
 * alternating which goes first, and the wall and CPU seconds of each per 1,000 scopes.
 *
 *   npm run build && npm run bench:peer-index -- --gitnexus /tmp/gn [--runs 3] [--corpora rxjs,go-mux,...]
 *
 * GitNexus needs Node 22 and is not a dependency of this repository; install it beside it, once:
 *
 *   mkdir -p /tmp/gn && cd /tmp/gn && npm init -y && npm i node@22 gitnexus@1.6.12
 *   (cd node_modules/@ladybugdb/core && ./../../.bin/node install.js)   # its database's native binding
 *
 * How each side is counted, so that the ratio compares like with like:
 * - GitNexus: `gitnexus analyze --skip-git --index-only --skip-fts` on a fresh copy of the corpus
 *   (it writes .gitnexus/ into the folder), HOME pointed at a scratch folder (its registry). Its
 *   database (LadybugDB) runs inside its process, so the CPU of its process tree is all of its work. `--skip-fts`: its full-text extension is downloaded
 *   at run time, which this machine cannot do; without the flag it tries, waits and goes on without.
 * - scopegraph: one index run in a process of its own (bench/ingest/scale-child.ts: fresh repository,
 *   parse cache cleared, `embed: false`), INGEST_TS_RESOLVER=precise and INGEST_PY_RESOLVER=precise.
 *   Its CPU is that process's (pyright's process included) plus the CPU Neo4j spent meanwhile (read
 *   from /proc before and after, once Neo4j is idle again): the graph database is part of the work.
 *   scopegraph also builds its full-text index, which GitNexus is told to skip here.
 * - Per 1,000 scopes: both divided by the number of scopes scopegraph stored for the corpus (the same
 *   code; GitNexus's own node count, which adds communities and flows, is printed beside it).
 *
 * One uncounted scopegraph run first warms the server (schema, JIT, plan cache), as a running server is.
 * Neo4j's CPU is read from the pid of the services this checkout started (.services/): on a Neo4j
 * shared with other work the figure includes that work, so run it on a quiet database.
 * Prints a table and one JSON line.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEVSET_CORPORA, corpusRoot } from '../search/devset-corpora';
import { LANG_CORPORA, langCorpusRoot } from '../search/lang-corpora';
import { arg, median, neo4jCpuMs, npmPackageSources, printTable, processCpuMs, settleNeo4j } from '../support/bench-util';

interface Corpus {
  name: string;
  language: string;
  root: () => string;
  exclude?: string[];
}

const CORPORA: Corpus[] = [
  // The TypeScript corpus the graph bench measures the compiler-grade resolver on.
  { name: 'rxjs', language: 'TypeScript', root: () => path.join(npmPackageSources('rxjs@7.8.2'), 'src') },
  ...DEVSET_CORPORA.map((c) => ({ name: c.repo, language: c.languages, root: () => corpusRoot(c) })),
  ...LANG_CORPORA.map((c) => ({ name: c.repo, language: c.language, root: () => langCorpusRoot(c), exclude: c.exclude })),
];

const TIME = '/usr/bin/time';
const CHILD = path.join(__dirname, '..', 'ingest', 'scale-child.js');

interface Measure {
  wallS: number;
  cpuS: number;
  maxRssMb: number;
  count: number;
  detail?: string;
}

/**
 * CPU of a process and every process it started, polled from /proc every 100 ms: /usr/bin/time
 * only counts children that were waited for, and a language server killed at exit (pyright) is
 * not, so its work would go uncounted. Each pid's last reading is kept (at most 100 ms short).
 */
function trackTreeCpu(rootPid: number): { stop: () => number } {
  const last = new Map<number, number>();
  const sample = () => {
    const parent = new Map<number, number>();
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // exited meanwhile
      }
    }
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === rootPid) return true;
      return false;
    };
    for (const pid of parent.keys()) {
      if (!inTree(pid)) continue;
      const ms = processCpuMs(pid);
      if (ms !== null) last.set(pid, Math.max(ms, last.get(pid) ?? 0));
    }
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return [...last.values()].reduce((a, b) => a + b, 0) / 1000;
    },
  };
}

/** Runs a command under /usr/bin/time (for its peak RSS) and counts its process tree's CPU. */
function runMeasured(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; cpuS: number; maxRssMb: number; wallS: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(TIME, ['-f', 'TIME %U %S %M', cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const tracker = trackTreeCpu(child.pid!);
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => {
      const cpuS = tracker.stop();
      const time = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(out);
      // The tree's CPU, or what time counted if the process was too short-lived to be sampled.
      resolve({ code, out, cpuS: Math.max(cpuS, time ? Number(time[1]) + Number(time[2]) : 0), maxRssMb: time ? Number(time[3]) / 1024 : 0, wallS: (performance.now() - started) / 1000 });
    });
  });
}

/** Copies a corpus without its excluded folders, so both tools read the same files. */
function copyCorpus(src: string, dest: string, exclude: string[] = []): void {
  const skipped = exclude.map((g) => g.replace(/\/\*\*$/, '').replace(/\/$/, ''));
  fs.cpSync(src, dest, {
    recursive: true,
    filter: (p) => {
      const rel = path.relative(src, p);
      return !skipped.some((s) => rel === s || rel.startsWith(`${s}${path.sep}`));
    },
  });
}

async function runGitnexus(gitnexusDir: string, corpus: Corpus, scratch: string): Promise<Measure> {
  const dir = path.join(scratch, `gn-${corpus.name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  copyCorpus(corpus.root(), dir, corpus.exclude);
  const home = path.join(scratch, 'gn-home');
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const node = path.join(gitnexusDir, 'node_modules', '.bin', 'node');
  const cli = path.join(gitnexusDir, 'node_modules', 'gitnexus', 'dist', 'cli', 'index.js');
  const r = await runMeasured(node, [cli, 'analyze', '--skip-git', '--index-only', '--skip-fts', dir], {
    ...process.env,
    HOME: home,
    PATH: `${path.dirname(node)}:${process.env.PATH}`,
    // A parse worker that is slow to start on a loaded machine is not a crash.
    GITNEXUS_WORKER_READY_TIMEOUT_MS: '120000',
  });
  const nodes = /([\d,]+) nodes \| ([\d,]+) edges/.exec(r.out);
  if (r.code !== 0 || !nodes) throw new Error(`gitnexus analyze ${corpus.name} failed (exit ${r.code}):\n${r.out.slice(-3000)}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return { wallS: r.wallS, cpuS: r.cpuS, maxRssMb: r.maxRssMb, count: Number(nodes[1].replace(/,/g, '')), detail: `${nodes[2]} edges` };
}

async function runScopegraph(corpus: Corpus, scratch: string): Promise<Measure & { neo4jCpuS: number }> {
  const dir = path.join(scratch, `sg-${corpus.name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  copyCorpus(corpus.root(), dir, corpus.exclude);
  await settleNeo4j();
  const neo0 = neo4jCpuMs();
  const opts = { path: dir, name: `peer-index-${corpus.name}`, embed: false, fresh: true, clearCaches: true };
  const r = await runMeasured(process.execPath, [CHILD, JSON.stringify(opts)], { ...process.env, INGEST_TS_RESOLVER: 'precise', INGEST_PY_RESOLVER: 'precise' });
  if (r.code !== 0) throw new Error(`scopegraph index ${corpus.name} failed (exit ${r.code}):\n${r.out.slice(-3000)}`);
  const out = r.out;
  // Work Neo4j does after the commit (index population, Lucene merges) belongs to the run.
  await settleNeo4j(10_000);
  const neo4jCpuS = (neo4jCpuMs() - neo0) / 1000;
  const final = out
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes('"final"'))
    .map((l) => JSON.parse(l) as { result: { scopes: { total: number }; edges: { total: number }; errorCount: number; resolver: { ts: string; py?: string } } })[0];
  if (!final) throw new Error(`scopegraph index ${corpus.name}: no result in its output:\n${out.slice(-3000)}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    wallS: r.wallS,
    cpuS: r.cpuS + neo4jCpuS,
    neo4jCpuS,
    maxRssMb: r.maxRssMb,
    count: final.result.scopes.total,
    detail: `${final.result.edges.total} edges, ${final.result.errorCount} errors, resolvers ts ${final.result.resolver.ts} py ${final.result.resolver.py ?? '-'}`,
  };
}

async function main(): Promise<void> {
  const gitnexusDir = arg('gitnexus', process.env.GITNEXUS_DIR ?? '');
  const runs = Number(arg('runs', '3'));
  const wanted = arg('corpora', CORPORA.map((c) => c.name).join(',')).split(',');
  if (!gitnexusDir || !fs.existsSync(path.join(gitnexusDir, 'node_modules', 'gitnexus'))) {
    throw new Error('GitNexus is not installed: pass --gitnexus <dir> (or GITNEXUS_DIR) where `npm i node@22 gitnexus@1.6.12` was run (see the head of bench/peer/peer-index.ts)');
  }
  if (!fs.existsSync(TIME)) throw new Error(`${TIME} is needed to count a process's CPU with its children (Debian package "time")`);
  const unknown = wanted.filter((w) => !CORPORA.some((c) => c.name === w));
  if (unknown.length) throw new Error(`unknown corpus ${unknown.join(', ')}; known: ${CORPORA.map((c) => c.name).join(', ')}`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'peer-index-'));

  // A running server is how scopegraph is used: the first index into a fresh database also pays for
  // the schema, Neo4j's JIT and query-plan cache; one uncounted run takes that out of the figures.
  await runScopegraph(CORPORA.find((c) => c.name === wanted[0])!, scratch);

  const rows: (string | number)[][] = [['corpus', 'language', 'scopes', 'tool', 'wall s', 'CPU s', 'CPU s / 1k scopes', 'wall s / 1k scopes', 'peak RSS MB', 'notes']];
  const json: Record<string, unknown>[] = [];
  for (const name of wanted) {
    const corpus = CORPORA.find((c) => c.name === name)!;
    const gn: Measure[] = [];
    const sg: (Measure & { neo4jCpuS: number })[] = [];
    for (let r = 0; r < runs; r++) {
      // Alternate which tool goes first: a machine that slows down during a run charges both alike.
      if (r % 2 === 0) {
        sg.push(await runScopegraph(corpus, scratch));
        gn.push(await runGitnexus(gitnexusDir, corpus, scratch));
      } else {
        gn.push(await runGitnexus(gitnexusDir, corpus, scratch));
        sg.push(await runScopegraph(corpus, scratch));
      }
      process.stderr.write(`${name} run ${r + 1}/${runs}: scopegraph ${sg[r].cpuS.toFixed(1)} CPU s, GitNexus ${gn[r].cpuS.toFixed(1)} CPU s\n`);
    }
    const scopes = median(sg.map((m) => m.count));
    const per1k = (s: number) => (scopes ? (s / scopes) * 1000 : NaN);
    const sgCpu = median(sg.map((m) => m.cpuS));
    const gnCpu = median(gn.map((m) => m.cpuS));
    const sgWall = median(sg.map((m) => m.wallS));
    const gnWall = median(gn.map((m) => m.wallS));
    rows.push([name, corpus.language, scopes, 'scopegraph', sgWall.toFixed(1), sgCpu.toFixed(1), per1k(sgCpu).toFixed(2), per1k(sgWall).toFixed(2), median(sg.map((m) => m.maxRssMb)).toFixed(0), `incl. Neo4j ${median(sg.map((m) => m.neo4jCpuS)).toFixed(1)} CPU s; ${sg[0].detail}`]);
    rows.push([name, corpus.language, scopes, 'GitNexus', gnWall.toFixed(1), gnCpu.toFixed(1), per1k(gnCpu).toFixed(2), per1k(gnWall).toFixed(2), median(gn.map((m) => m.maxRssMb)).toFixed(0), `${median(gn.map((m) => m.count))} nodes, ${gn[0].detail}`]);
    json.push({
      corpus: name,
      language: corpus.language,
      scopes,
      runs,
      scopegraph: { cpuS: sgCpu, wallS: sgWall, neo4jCpuS: median(sg.map((m) => m.neo4jCpuS)), cpuPer1kScopes: per1k(sgCpu), peakRssMb: median(sg.map((m) => m.maxRssMb)) },
      gitnexus: { cpuS: gnCpu, wallS: gnWall, cpuPer1kScopes: per1k(gnCpu), peakRssMb: median(gn.map((m) => m.maxRssMb)), nodes: median(gn.map((m) => m.count)) },
      cpuRatio: sgCpu / gnCpu,
    });
  }
  fs.rmSync(scratch, { recursive: true, force: true });
  printTable(rows);
  const met = json.every((j) => (j.cpuRatio as number) <= 1);
  process.stdout.write(`\nscopegraph CPU per 1,000 scopes ≤ GitNexus's on every corpus: ${met ? 'met' : 'NOT met'} (load average ${os.loadavg()[0].toFixed(1)})\n`);
  process.stdout.write(JSON.stringify({ bench: 'peer-index', met, loadAvg: os.loadavg()[0], corpora: json }) + '\n');
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
