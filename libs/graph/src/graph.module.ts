import * as path from 'node:path';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { CypherFiles } from './cypher-files';
import { MigrationService } from './migration.service';
import { Neo4jService } from './neo4j.service';

@Global()
@Module({
  providers: [{ provide: CypherFiles, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CypherFiles(path.join(config.paths.root, 'cypher')) }, Neo4jService, MigrationService],
  exports: [CypherFiles, Neo4jService, MigrationService],
})
export class GraphModule {}
