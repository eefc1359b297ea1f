/**
 * Where a V8 CPU profile's time went, as a table: self time by package (node_modules package, our
 * lib/app, Node internals, GC, idle), self time by function, and inclusive time of the functions
 * named with --inclusive, and with --callers NAME the call chains that reach NAME. With --requests N every figure is also divided per request.
 *
 *   node dist/bench/support/cpu-profile-summary.js FILE.cpuprofile --requests 3600 [--top 40] [--inclusive executeQuery,rescore]
 *
 * Prints the tables and one JSON line.
 */
import * as fs from 'node:fs';
import { arg, printTable } from './bench-util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The package a frame belongs to: a node_modules package, one of our apps/libs, node: internals, or V8's own. */
export function packageOf(frame: ProfileNode['callFrame']): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node:internals';
  const ours = /\/dist\/((?:apps|libs|bench)\/[^/]+)\//.exec(url);
  return ours ? ours[1] : url;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cpu-profile-summary FILE.cpuprofile [--requests N] [--top N] [--inclusive a,b]');
  const requests = Number(arg('requests', '0'));
  const top = Number(arg('top', '40'));
  const inclusiveNames = arg('inclusive', '').split(',').filter(Boolean);
  const callersOf = arg('callers', '');
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const totalUs = profile.endTime - profile.startTime;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>(inclusiveNames.map((n) => [n, 0]));
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const pkg = packageOf(frame);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${pkg}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    if (inclusiveNames.length > 0) {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const name = byId.get(at)!.callFrame.functionName;
        if (inclusive.has(name) && !seen.has(name)) {
          seen.add(name);
          inclusive.set(name, inclusive.get(name)! + us);
        }
      }
    }
  }
  // --callers NAME: the call chains (nearest 8 frames) that spent time in NAME, most time first.
  const chains = new Map<string, number>();
  if (callersOf) {
    for (const [id, us] of selfUs) {
      const stack: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame.functionName || '(anonymous)');
      const i = stack.indexOf(callersOf);
      if (i === -1) continue;
      const chain = stack.slice(i, i + Number(arg("depth", "8"))).join(' < ');
      chains.set(chain, (chains.get(chain) ?? 0) + us);
    }
  }
  const idleUs = byPackage.get('(idle)') ?? 0;
  const busyUs = totalUs - idleUs;
  const row = (name: string, us: number) => [name, us / 1000, (100 * us) / busyUs, requests > 0 ? us / 1000 / requests : ''];
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);

  process.stdout.write(`profile ${(totalUs / 1e6).toFixed(1)} s, busy ${(busyUs / 1e6).toFixed(1)} s${requests ? `, ${requests} requests: ${(busyUs / 1000 / requests).toFixed(2)} ms busy per request` : ''}\n\n`);
  printTable([['package (self)', 'ms', '% busy', 'ms/request'], ...sorted(byPackage).filter(([p]) => p !== '(idle)').slice(0, top).map(([p, us]) => row(p, us))]);
  process.stdout.write('\n');
  printTable([['function (self)', 'ms', '% busy', 'ms/request'], ...sorted(byFunction).filter(([f]) => !f.startsWith('(idle)')).slice(0, top).map(([f, us]) => row(f, us))]);
  if (inclusiveNames.length > 0) {
    process.stdout.write('\n');
    printTable([['function (inclusive)', 'ms', '% busy', 'ms/request'], ...[...inclusive.entries()].map(([f, us]) => row(f, us))]);
  }
  if (callersOf) {
    process.stdout.write('\n');
    printTable([[`callers of ${callersOf}`, 'ms', '% busy', 'ms/request'], ...sorted(chains).slice(0, top).map(([c, us]) => row(c, us))]);
  }
  const perRequest = (us: number) => (requests > 0 ? Math.round((us / 1000 / requests) * 1000) / 1000 : null);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'cpu-profile',
      file,
      seconds: totalUs / 1e6,
      busySeconds: busyUs / 1e6,
      requests,
      busyMsPerRequest: perRequest(busyUs),
      packagesMsPerRequest: Object.fromEntries(sorted(byPackage).filter(([p]) => p !== '(idle)').slice(0, top).map(([p, us]) => [p, perRequest(us)])),
      inclusiveMsPerRequest: Object.fromEntries([...inclusive.entries()].map(([f, us]) => [f, perRequest(us)])),
    })}\n`,
  );
}

if (require.main === module) main();
