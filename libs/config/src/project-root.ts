import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The folder holding `cypher/`, found by walking up from this file, so the same code works from
 * sources (jest), from dist/ and inside the Docker image. `override` is SCOPEGRAPH_ROOT as the config
 * loader read it (config.paths.root), for installs where the walk-up cannot work.
 */
export function projectRoot(override?: string): string {
  if (override) return override;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'cypher', 'migrations'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`cannot find the cypher/ folder above ${__dirname}; set SCOPEGRAPH_ROOT`);
  }
}

const CREDENTIALS_IN_URL = /^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i;

/** A service URL fit for logs and messages: `redis://user:secret@host` -> `redis://***@host`. */
export function redactUrl(url: string): string {
  return url.replace(CREDENTIALS_IN_URL, '$1***@');
}
