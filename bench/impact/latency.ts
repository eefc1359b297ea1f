// Impact latency: p50/p95 over random scopes of an indexed repository at a depth, weighted toward
// well-connected ones (half drawn from the scopes with any dependent, half from the top tenth by
// direct dependents), with the machine's load average beside the figures.
// node dist/bench/impact/latency.js <name> [depth] [samples] [hubs|mixed] [changesWith]
// With a fourth argument `hubs`, every sample is one of the 50 scopes with the most direct dependents
// (where the node cap and the per-level row bounds matter). A fifth asks for that many change
// suggestions too (impact's changesWith, opt-in; default none).
import * as os from 'node:os';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { ImpactService } from '@scopegraph/impact';

async function main(): Promise<void> {
  const [name, depthArg = '3', samplesArg = '100', poolArg = '', withArg] = process.argv.slice(2);
  const extra = withArg ? { changesWith: Number(withArg) } : {};
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  const impact = new ImpactService(neo4j);
  try {
    const rows = await neo4j.runStatement<{ id: string; dependents: number }>(
      `MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method', 'class']
       WITH s, COUNT { (s)<-[:CALLS|REFERENCES|OVERRIDES|EXTENDS|IMPLEMENTS]-(:Scope) } AS dependents
       WHERE dependents > 0 RETURN s.id AS id, dependents ORDER BY dependents DESC, s.id`,
      { r: name },
    );
    const [{ total }] = await neo4j.runStatement<{ total: number }>('MATCH (s:Scope {repoId: $r}) RETURN count(s) AS total', { r: name });
    const connected = rows.map((r) => r.id);
    const top = connected.slice(0, poolArg === 'hubs' ? 50 : Math.max(1, Math.ceil(connected.length / 10)));
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const pick = (i: number) => (i % 2 || poolArg === 'hubs' ? top[next() % top.length] : connected[next() % connected.length]);
    for (let i = 0; i < 5; i++) await impact.impact({ repository: name, scopeIds: [pick(i)], depth: Number(depthArg), ...extra });
    const times: number[] = [];
    let reached = 0;
    let truncated = 0;
    const loadBefore = os.loadavg()[0];
    for (let i = 0; i < Number(samplesArg); i++) {
      const t = performance.now();
      const r = await impact.impact({ repository: name, scopeIds: [pick(i)], depth: Number(depthArg), ...extra });
      times.push(performance.now() - t);
      reached += r.levels.reduce((n, l) => n + l.scopes.length, 0);
      if (r.coverage.truncated) truncated++;
    }
    const loadAfter = os.loadavg()[0];
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
    process.stdout.write(
      `${name}: ${total} scopes, ${connected.length} with dependents; impact depth ${depthArg}${withArg ? ` with changesWith ${withArg}` : ''} over ${times.length} scopes (${poolArg === 'hubs' ? 'all from the 50 with most dependents' : 'half from the top tenth by dependents'}): ` +
        `p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms, mean dependents ${(reached / times.length).toFixed(1)}, cut at the node cap ${truncated}; ` +
        `load average ${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)} on ${os.cpus().length} cores\n`,
    );
  } finally {
    await neo4j.onModuleDestroy();
  }
}

void main();
