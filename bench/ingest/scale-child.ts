/**
 * One index run for scale-bench.ts, in its own process so its peak RSS is measured alone (worker
 * threads included). Argument: JSON {path, name, embed, fresh?, clearCaches?, watchEmbedded?, prefix?,
 * configEmbedder?} (configEmbedder: the embedding provider the environment configures, e.g. a fake
 * OpenAI-compatible server, instead of the local model).
 * Prints JSON lines: {progress, graphEmbedded?} while running, then {final, result, maxRssKb, cpuMs}.
 */
import { loadConfig } from '@scopegraph/config';
import { embeddingProviderFromConfig } from '@scopegraph/llm';
import { IngestHarness } from '../../test/support/ingest-harness';

async function main(): Promise<void> {
  const opts = JSON.parse(process.argv[2]) as { path: string; name: string; embed: boolean; fresh?: boolean; clearCaches?: boolean; watchEmbedded?: boolean; prefix?: string; configEmbedder?: boolean };
  // A fixed prefix: the parse cache carries over to the incremental run in the next process.
  const prefix = opts.prefix ?? 'bench-scale';
  const h = new IngestHarness(prefix);
  await h.init(opts.configEmbedder ? embeddingProviderFromConfig(loadConfig()) : undefined);
  if (opts.fresh) await h.repo.deleteRepository(opts.name);
  if (opts.clearCaches) await h.deleteKeys(`${prefix}:*`);
  let graphEmbedded = 0;
  let watcher: NodeJS.Timeout | undefined;
  if (opts.watchEmbedded) {
    // Vectors actually in Neo4j (a round's write is one transaction): what a kill leaves behind.
    const poll = async () => {
      const [row] = await h.neo4j.runStatement<{ n: number }>('MATCH (s:Scope) WHERE s.repoId = $repoId AND s.embedding IS NOT NULL RETURN count(s) AS n', { repoId: opts.name });
      graphEmbedded = Number(row?.n ?? 0);
      process.stdout.write(JSON.stringify({ progress: { phase: 'embedding' }, graphEmbedded }) + '\n');
      watcher = setTimeout(() => void poll().catch(() => undefined), 500);
    };
    watcher = setTimeout(() => void poll().catch(() => undefined), 500);
  }
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const result = await h.ingest.index({ path: opts.path, name: opts.name, embed: opts.embed }, (progress) => {
    process.stdout.write(JSON.stringify({ progress, graphEmbedded }) + '\n');
  });
  const indexMs = Math.round(performance.now() - started);
  if (watcher) clearTimeout(watcher);
  const parseThreads = h.ingest.parseThreads;
  await h.pool.close();
  await h.checker.close();
  // Caches stay (the next run reuses parses); only the harness's connections close.
  await h.embedder?.close?.();
  await h.queues.onModuleDestroy();
  await h.neo4j.onModuleDestroy();
  const { errors, ...rest } = result;
  // CPU of the index itself (all threads), without the process's start-up.
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(JSON.stringify({ final: true, result: { ...rest, errorCount: errors.length, indexMs, parseThreads }, maxRssKb: process.resourceUsage().maxRSS, cpuMs }) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
