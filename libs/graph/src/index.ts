export * from './bolt-writes';
export * from './cypher-files';
export * from './neo4j.service';
export * from './migration.service';
export * from './graph.module';
export * from './graph-bootstrap';
export * from './plan-warmup';
