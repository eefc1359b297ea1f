import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';

/**
 * Loads queries from cypher/, one file per query, by name ("health/indexes" → cypher/health/indexes.cypher).
 * Files are read once and cached: queries never change while the process runs.
 */
export class CypherFiles {
  private readonly cache = new Map<string, string>();

  constructor(private readonly dir = path.join(projectRoot(), 'cypher')) {}

  get(name: string): string {
    let text = this.cache.get(name);
    if (text === undefined) {
      if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(name)) throw new Error(`invalid Cypher file name "${name}"`);
      const file = path.join(this.dir, `${name}.cypher`);
      if (!fs.existsSync(file)) throw new Error(`Cypher file not found: ${file}`);
      text = fs.readFileSync(file, 'utf8');
      this.cache.set(name, text);
    }
    return text;
  }

  /** Migration files in order, as {id, text}. */
  migrations(): { id: string; text: string }[] {
    const dir = path.join(this.dir, 'migrations');
    return fs
      .readdirSync(dir)
      .filter((f) => /^\d{3}-[a-z0-9-]+\.cypher$/.test(f))
      .sort()
      .map((f) => ({ id: f.replace(/\.cypher$/, ''), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
  }
}

/** Splits a migration file into statements: `;` at a line end ends one; `//` line comments are dropped. */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*\/\/.*$/, '');
    if (line.trim() === '') continue;
    if (/;\s*$/.test(line)) {
      current.push(line.replace(/;\s*$/, ''));
      statements.push(current.join('\n').trim());
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.join('').trim() !== '') statements.push(current.join('\n').trim());
  return statements;
}
