/**
 * What the web console adds to a fresh set-up (npm start / npm test on a clean clone):
 *   - installing its packages: a cold `npm install` (empty npm cache, no node_modules) of package.json
 *     and its lock as they are, against the same without the console's packages (React, React DOM
 *     and their types, Vite and its React plugin, Cytoscape, highlight.js, and playwright-core, the
 *     browser e2e's driver) with a lock made to match (untimed, once), alternated A/B run by run;
 *   - building it: the Vite build scripts/build.mjs runs after swc.
 * Each install downloads from the package registry the machine is configured for.
 *
 * Needs a build (npm run build) for the script itself. Run:
 *   node dist/bench/console/setup-cost.js [--runs 3] [--builds 5]
 * Prints a table and one JSON line (medians; load average beside them).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { arg, median, printTable } from '../support/bench-util';

const CONSOLE_PACKAGES = ['react', 'react-dom', '@types/react', '@types/react-dom', 'vite', '@vitejs/plugin-react', 'cytoscape', 'highlight.js', 'playwright-core'];
const MS_PER_S = 1000;

function seconds(ms: number): number {
  return Math.round(ms / 10) / 100;
}

interface Project {
  pkg: Record<string, unknown>;
  lock: string;
}

function npm(dir: string, args: string[]): void {
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--cache', path.join(dir, '.npm-cache')], {
    cwd: dir,
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function inFreshFolder<T>(root: string, project: Project, work: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-setup-cost-'));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(project.pkg, null, 2));
    fs.writeFileSync(path.join(dir, 'package-lock.json'), project.lock);
    fs.copyFileSync(path.join(root, '.npmrc'), path.join(dir, '.npmrc'));
    return work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A cold install: fresh folder, empty npm cache, the project's .npmrc. */
function coldInstall(root: string, project: Project): number {
  return inFreshFolder(root, project, (dir) => {
    const started = performance.now();
    npm(dir, ['install']);
    return performance.now() - started;
  });
}

/** The lock npm itself makes for package.json without the console's packages (so npm need not re-resolve while timed). */
function prunedLock(root: string, project: Project): string {
  return inFreshFolder(root, project, (dir) => {
    npm(dir, ['install', '--package-lock-only']);
    return fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
  });
}

async function main(): Promise<void> {
  const runs = Number(arg('runs', '3'));
  const builds = Number(arg('builds', '5'));
  const root = projectRoot();
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const full: Project = { pkg, lock: fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8') };
  const withoutPkg = { ...pkg, devDependencies: Object.fromEntries(Object.entries(pkg.devDependencies as Record<string, string>).filter(([name]) => !CONSOLE_PACKAGES.includes(name))) };
  const without: Project = { pkg: withoutPkg, lock: prunedLock(root, { pkg: withoutPkg, lock: full.lock }) };

  const withMs: number[] = [];
  const withoutMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Alternated, so a change in the machine's load hits both sides alike.
    const order: Array<[Project, number[]]> = i % 2 === 0 ? [[full, withMs], [without, withoutMs]] : [[without, withoutMs], [full, withMs]];
    for (const [project, into] of order) into.push(coldInstall(root, project));
  }

  // vite's types come only through package "exports", which this tsconfig's `node` resolution skips.
  const { build } = (await import('vite' as string)) as { build: (config: { configFile: string; logLevel: 'silent' }) => Promise<unknown> };
  const buildMs: number[] = [];
  for (let i = 0; i < builds; i++) {
    const started = performance.now();
    await build({ configFile: path.join(root, 'apps/web/vite.config.mts'), logLevel: 'silent' });
    buildMs.push(performance.now() - started);
  }

  const installDelta = median(withMs) - median(withoutMs);
  const total = installDelta + median(buildMs);
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  printTable([
    ['measure', 'median s', 'runs (s)'],
    ['cold npm install, all packages', seconds(median(withMs)), withMs.map(seconds).join(' ')],
    ['cold npm install, without the console packages', seconds(median(withoutMs)), withoutMs.map(seconds).join(' ')],
    ['  difference (console packages)', seconds(installDelta), ''],
    ['vite build of apps/web', seconds(median(buildMs)), buildMs.map(seconds).join(' ')],
    ['added to a fresh set-up', seconds(total), `load average ${load}`],
  ]);
  console.log(
    JSON.stringify({
      bench: 'console-setup-cost',
      runs,
      builds,
      installWithS: seconds(median(withMs)),
      installWithoutS: seconds(median(withoutMs)),
      installDeltaS: seconds(installDelta),
      viteBuildS: seconds(median(buildMs)),
      addedS: seconds(total),
      budgetS: 60,
      loadavg: os.loadavg(),
      packages: CONSOLE_PACKAGES,
    }),
  );
  if (total > 60 * MS_PER_S) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
