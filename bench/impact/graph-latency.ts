// GRAPH search latency on an indexed repository: "who calls X" / "what does X call" for scopes spread
// over the repository (as bench/ingest/million.ts draws them) plus the ten most-called names (hubs:
// where graph-related-in/out's tail was), p50/p95 after warm-up, load average beside them.
//   node dist/bench/impact/graph-latency.js <name> [queries]
import * as os from 'node:os';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, cypherInt, Neo4jService } from '@scopegraph/graph';
import { HashEmbeddingProvider } from '@scopegraph/llm';
import { defaultPlan, SearchRepository, SearchService } from '@scopegraph/search';

async function main(): Promise<void> {
  const [name, countArg = '100'] = process.argv.slice(2);
  const count = Number(countArg);
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  try {
    const [{ n }] = await neo4j.runStatement<{ n: number }>('MATCH (s:Scope {repoId: $r}) RETURN count(s) AS n', { r: name });
    const spread = async (cypher: string, per: number): Promise<string[]> => {
      const out: string[] = [];
      for (let i = 0; i < 10; i++) out.push(...(await neo4j.runStatement<{ name: string }>(cypher, { r: name, skip: cypherInt(Math.floor((i * Number(n)) / 12)), n: cypherInt(per) })).map((x) => x.name));
      return out;
    };
    const per = Math.ceil(count / 20);
    const callers = await spread("MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method'] WITH s SKIP $skip MATCH (s) WHERE EXISTS { (:Scope)-[:CALLS]->(s) } RETURN s.name AS name LIMIT $n", per);
    const callees = await spread("MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method'] WITH s SKIP $skip MATCH (s) WHERE EXISTS { (s)-[:CALLS]->(:Scope) } RETURN s.name AS name LIMIT $n", per);
    const hubs = (
      await neo4j.runStatement<{ name: string }>(
        "MATCH (s:Scope {repoId: $r}) WHERE s.kind IN ['function', 'method'] RETURN s.name AS name, COUNT { (s)<-[:CALLS]-() } AS d ORDER BY d DESC LIMIT 10",
        { r: name },
      )
    ).map((x) => x.name);
    const texts = [...callers.map((c) => `who calls ${c}`), ...callees.map((c) => `what does ${c} call`), ...hubs.map((c) => `who calls ${c}`)];
    const service = new SearchService(new SearchRepository(neo4j), new HashEmbeddingProvider(384));
    const plan = (t: string) => ({ ...defaultPlan('graph', t), filters: { repository: name }, sourceChars: 2000 });
    for (const t of texts.slice(0, 5)) await service.execute(plan(t));
    const load0 = os.loadavg()[0];
    const ms: { t: string; ms: number }[] = [];
    for (const t of texts) {
      const t0 = performance.now();
      await service.execute(plan(t));
      ms.push({ t, ms: performance.now() - t0 });
    }
    const load1 = os.loadavg()[0];
    const sorted = ms.map((x) => x.ms).sort((a, b) => a - b);
    const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
    const hubMs = ms.filter((x) => hubs.some((h) => x.t === `who calls ${h}`)).map((x) => x.ms).sort((a, b) => a - b);
    const slowest = ms.reduce((a, b) => (b.ms > a.ms ? b : a));
    process.stdout.write(
      `${name}: ${n} scopes; GRAPH over ${ms.length} questions (${hubs.length} on the most-called names): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms ` +
        `(slowest: "${slowest.t}"); hub questions median ${hubMs[Math.floor(hubMs.length / 2)].toFixed(1)} ms; load average ${load0.toFixed(1)} -> ${load1.toFixed(1)} on ${os.cpus().length} cores\n`,
    );
  } finally {
    await neo4j.onModuleDestroy();
  }
}

void main();
