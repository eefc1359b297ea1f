export { resolveRepository } from './resolver';
export * from './types';
export { ModuleResolver, packageName } from './module-resolver';
export type { ModuleTarget } from './module-resolver';
export { ReferenceResolver } from './reference-resolver';
export type { ResolveRun } from './reference-resolver';
export { TsProjects } from './precise/ts-project';
export type { PreciseRunStats, PreciseSession } from './precise/ts-project';
export { fastModuleOptions, tsProjectOptions } from './precise/ts-options';
