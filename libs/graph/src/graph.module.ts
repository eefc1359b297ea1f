import { Global, Module } from '@nestjs/common';
import { CypherFiles } from './cypher-files';
import { MigrationService } from './migration.service';
import { Neo4jService } from './neo4j.service';

@Global()
@Module({
  providers: [{ provide: CypherFiles, useFactory: () => new CypherFiles() }, Neo4jService, MigrationService],
  exports: [CypherFiles, Neo4jService, MigrationService],
})
export class GraphModule {}
