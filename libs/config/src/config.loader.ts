import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { AppConfig, envRules, SECRET_VARIABLES, toAppConfig } from './config.schema';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Finds the project's .env: SCOPEGRAPH_ENV_FILE, else the nearest .env from cwd upwards. */
export function findEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  if (env.SCOPEGRAPH_ENV_FILE) return env.SCOPEGRAPH_ENV_FILE;
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.env');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Builds the one typed config from the environment, with .env filling only what the environment
 * leaves unset. Problems are reported all at once, each naming its variable; secret values never
 * appear in the message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, envFile = findEnvFile(env)): AppConfig {
  const fromFile = envFile && fs.existsSync(envFile) ? parseDotenv(fs.readFileSync(envFile)) : {};
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  const parsed = envRules.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      const secret = (SECRET_VARIABLES as readonly string[]).includes(name);
      const shown = !secret && merged[name] !== undefined ? ` (got "${merged[name]}")` : '';
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  return toAppConfig(parsed.data);
}
