export * from './health.service';
export * from './health.module';
