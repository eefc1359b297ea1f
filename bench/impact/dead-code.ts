// Lists dead-code candidates of an indexed repository at the default confidence, for hand-checking:
// node dist/bench/impact/dead-code.js <repository> [limit] [language] [minConfidence]
import { loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';
import { DeadCodeService } from '@scopegraph/impact';

async function main(): Promise<void> {
  const [repository, limit = '40', language, minConfidence] = process.argv.slice(2);
  const neo4j = new Neo4jService(loadConfig(), new CypherFiles());
  try {
    const r = await new DeadCodeService(neo4j).deadCode({ repository, limit: Number(limit), language: language || undefined, minConfidence: minConfidence ? Number(minConfidence) : undefined });
    process.stdout.write(`${r.candidates.length} candidates of ${r.considered} unreferenced; excluded ${JSON.stringify(r.excluded)}\n`);
    for (const c of r.candidates) process.stdout.write(`${c.confidence.toFixed(2)}\t${c.scope.kind}\t${c.scope.qualifiedName}\t${c.scope.path}:${c.scope.startLine}\t${c.reasons.join('; ')}\n`);
  } finally {
    await neo4j.onModuleDestroy();
  }
}

void main();
