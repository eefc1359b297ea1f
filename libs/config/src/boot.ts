import { LogLevel } from '@nestjs/common';
import { AppConfig } from './config.schema';
import { ConfigError } from './config.loader';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Nest logger levels up to and including the configured LOG_LEVEL. */
export function logLevels(config: AppConfig): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1);
}

/** A process that cannot boot says why in one readable message (no stack for config errors) and exits 1. */
export function exitOnBootError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`scopegraph: ${error.message}\nSet these in the environment or in .env.\n`);
  } else {
    process.stderr.write(`scopegraph: failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
}
