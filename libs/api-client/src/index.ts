export * from './rate-limit';
export * from './relationship-text';
