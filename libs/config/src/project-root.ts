import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The folder holding `cypher/`, found by walking up from this file, so the same code works from
 * sources (jest), from dist/ and inside the Docker image. SCOPEGRAPH_ROOT overrides it.
 */
export function projectRoot(): string {
  if (process.env.SCOPEGRAPH_ROOT) return process.env.SCOPEGRAPH_ROOT;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'cypher', 'migrations'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`cannot find the cypher/ folder above ${__dirname}; set SCOPEGRAPH_ROOT`);
  }
}
