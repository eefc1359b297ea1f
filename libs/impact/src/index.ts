export * from './impact.service';
export * from './dead-code.service';
export * from './review.service';
export * from './change-mapper';
export * from './change-suggestions';
export * from './test-paths';
export * from './impact.module';
