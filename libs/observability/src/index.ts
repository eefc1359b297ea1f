export * from './metrics';
export * from './metrics-share';
export * from './request-context';
export * from './logging';
export * from './scrape';
export * from './log-file';
export * from './phase-timer';
