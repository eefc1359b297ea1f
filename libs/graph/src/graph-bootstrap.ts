import { INestApplicationContext, Logger } from '@nestjs/common';
import { MigrationService } from './migration.service';
import { Neo4jService } from './neo4j.service';

const NEO4J_READY_TIMEOUT_MS = 60_000;

/** Every process that uses the graph waits for Neo4j and applies pending migrations before serving. */
export async function bootstrapGraph(app: INestApplicationContext): Promise<void> {
  await app.get(Neo4jService).waitUntilReady(NEO4J_READY_TIMEOUT_MS);
  const { applied } = await app.get(MigrationService).migrate();
  if (applied.length > 0) new Logger('Migrations').log(`applied ${applied.join(', ')}`);
}
