/**
 * impact's walk on its first call after Neo4j starts, with and without the API's plan warm-up: run
 * once per Neo4j start (a fresh JVM and an empty plan cache), against a Neo4j of your own that holds
 * an indexed repository.
 *
 *   node dist/bench/impact/first-call.js --repo <repository> --target <qualified name> --mode cold|empty|typed
 *
 * `cold`: the walk right after migrations (what the API did); `empty`: EXPLAIN of the walk with no
 * parameters first; `typed`: warmQueryPlans(IMPACT_PLAN_WARMUPS) first; `exact`: EXPLAIN with the
 * measured call's parameter shape (ids empty, names one string); `run`: that shape run, matching nothing. Prints one JSON line: the warm-up's ms, the first and the second real call's ms.
 */
import * as os from 'node:os';
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, cypherInt, MigrationService, Neo4jService, warmQueryPlans } from '@scopegraph/graph';
import { IMPACT_PLAN_WARMUPS } from '@scopegraph/impact';
import { arg } from '../support/bench-util';

async function main(): Promise<void> {
  const mode = arg('mode', 'cold');
  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  await neo4j.waitUntilReady();
  await new MigrationService(neo4j, config).migrate();
  let warmMs: number | null = null;
  const started = performance.now();
  const shaped = { ...IMPACT_PLAN_WARMUPS[0].params, ids: [], names: [''] };
  if (mode === 'empty') await neo4j.explain('impact/walk', {});
  else if (mode === 'typed') await warmQueryPlans(neo4j, IMPACT_PLAN_WARMUPS, { log: () => undefined, warn: (m: string) => console.error(m) }, 120_000);
  else if (mode === 'exact') await neo4j.explain('impact/walk', shaped, 120_000);
  else if (mode === 'run') await neo4j.readRendered(neo4j.text('impact/walk'), shaped);
  if (mode !== 'cold') warmMs = Math.round(performance.now() - started);
  const params = {
    repoId: arg('repo', ''), ids: [], names: [arg('target', '')],
    depth: cypherInt(3), maxNodes: cypherInt(500), rowLimit: cypherInt(500 * 8 + 500), callers: false,
  };
  const call = async () => {
    const t = performance.now();
    const [row] = await neo4j.read<{ targets: unknown[] }>('impact/walk', params);
    if (!row || row.targets.length === 0) throw new Error(`no target ${params.names[0]} in ${params.repoId}`);
    return Math.round(performance.now() - t);
  };
  const firstMs = await call();
  const secondMs = await call();
  console.log(JSON.stringify({ mode, warmMs, firstMs, secondMs, load: os.loadavg()[0] }));
  await neo4j.onModuleDestroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
