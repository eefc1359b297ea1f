export { resolveRepository } from './resolver';
export * from './types';
export { ModuleResolver, packageName } from './module-resolver';
export type { ModuleTarget } from './module-resolver';
