export * from './rate-limit';
