export * from './config.schema';
export * from './config.loader';
export * from './config.module';
export * from './boot';
export * from './project-root';
export * from './clock';
