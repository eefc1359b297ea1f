import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import type { ParsedFile } from '../parse/types';
import { fastModuleOptions, tsProjectOptions } from './precise/ts-options';
import { PreciseRunStats, TsProjects } from './precise/ts-project';
import { resolveRepository } from './resolver';
import type { ResolveResult, ResolverName } from './types';

export interface ResolveRun {
  result: ResolveResult;
  /** The TS/JS resolver setting this run used. */
  tsResolver: ResolverName;
  /** Set when the precise resolver was asked for. */
  precise?: PreciseRunStats;
}

/**
 * Resolves a repository's references: TypeScript's checker for TS/JS when the setting says
 * `precise` (the tree-sitter resolver answers whatever the checker cannot, and every other
 * language), keeping each repository's compiler state between runs so re-indexing stays incremental.
 */
@Injectable()
export class ReferenceResolver {
  private readonly logger = new Logger(ReferenceResolver.name);
  private readonly projects: TsProjects;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.projects = new TsProjects(config.ingest.tsPreciseMaxFiles);
  }

  resolve(repoId: string, rootPath: string, files: ParsedFile[]): ResolveRun {
    const modules = fastModuleOptions(rootPath, tsProjectOptions(rootPath).options);
    if (this.config.ingest.tsResolver === 'fast') return { result: resolveRepository(files, modules), tsResolver: 'fast' };
    const session = this.projects.open(repoId, rootPath, files);
    if (session.stats.skipped) this.logger.warn(`${repoId}: precise TS resolver skipped (${session.stats.skipped}); fast resolver only`);
    return { result: resolveRepository(files, { ...modules, precise: session.oracle }), tsResolver: 'precise', precise: session.stats };
  }

  /**
   * For the coming run of `repoId`: whether a TS/JS file's text can be left unread because the
   * precise resolver kept its compiler parse of exactly these bytes from an earlier run.
   */
  keptSources(repoId: string, rootPath: string): (path: string, contentHash: string) => boolean {
    return this.config.ingest.tsResolver === 'precise' ? this.projects.keptSources(repoId, rootPath) : () => false;
  }

  forget(repoId: string): void {
    this.projects.forget(repoId);
  }
}
