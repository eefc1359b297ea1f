// Impact latency: p50/p95 over random function/method scopes of an indexed repository at a depth.
// node dist/bench/impact/latency.js <name> [depth] [samples]
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { ImpactService } from '@scopegraph/impact';

async function main(): Promise<void> {
  const [name, depthArg = '3', samplesArg = '100'] = process.argv.slice(2);
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  const impact = new ImpactService(neo4j);
  try {
    const ids = (await neo4j.runStatement<{ id: string }>("MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method'] RETURN s.id AS id ORDER BY s.id", { r: name })).map((r) => r.id);
    let seed = 7;
    const pick = () => ids[(seed = (seed * 48271) % 2147483647) % ids.length];
    for (let i = 0; i < 5; i++) await impact.impact({ repository: name, scopeIds: [pick()], depth: Number(depthArg) });
    const times: number[] = [];
    let reached = 0;
    for (let i = 0; i < Number(samplesArg); i++) {
      const t = performance.now();
      const r = await impact.impact({ repository: name, scopeIds: [pick()], depth: Number(depthArg) });
      times.push(performance.now() - t);
      reached += r.levels.reduce((n, l) => n + l.scopes.length, 0);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
    process.stdout.write(`${name}: ${ids.length} functions/methods; impact depth ${depthArg} over ${times.length} scopes: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms, mean dependents ${(reached / times.length).toFixed(1)}\n`);
  } finally {
    await neo4j.onModuleDestroy();
  }
}

void main();
