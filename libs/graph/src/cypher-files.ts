import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';

/**
 * Loads queries from cypher/, one file per query, by name ("health/indexes" → cypher/health/indexes.cypher).
 * Files are read once and cached: queries never change while the process runs.
 */
export class CypherFiles {
  private readonly cache = new Map<string, string>();
  private readonly retryCache = new Map<string, string>();

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

  /**
   * The text to run when a write transaction is tried again: the file named by the query's
   * `// on-retry: <name>` line, else the query itself. A retry may follow an attempt whose commit
   * reached Neo4j (only the acknowledgement was lost), so a query that CREATEs names a twin that
   * MERGEs instead; the first attempt keeps CREATE's speed.
   */
  retrySafe(name: string): string {
    let text = this.retryCache.get(name);
    if (text === undefined) {
      const twin = retryTwinOf(this.get(name));
      text = twin === null ? this.get(name) : this.get(twin);
      this.retryCache.set(name, text);
    }
    return text;
  }

  /** Names of every query file (not migrations), e.g. "ingest/create-scope-edges". */
  names(): string[] {
    const out: string[] = [];
    const walk = (dir: string, prefix: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) {
          if (!(prefix === '' && entry.name === 'migrations')) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
        } else if (entry.name.endsWith('.cypher')) {
          out.push(`${prefix}${entry.name.slice(0, -'.cypher'.length)}`);
        }
      }
    };
    walk(this.dir, '');
    return out.sort();
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

/** The query named by a `// on-retry: <name>` line of a query's text, or null. */
export function retryTwinOf(text: string): string | null {
  return /^\/\/ on-retry: ([a-z0-9-]+(?:\/[a-z0-9-]+)*)\s*$/m.exec(text)?.[1] ?? null;
}

/**
 * Whether a query creates nodes or relationships unconditionally (a CREATE clause; not ON CREATE, and
 * not schema statements): run twice, it writes twice.
 */
export function createsUnconditionally(text: string): boolean {
  const code = text.replace(/\/\/.*$/gm, '');
  return /(?<!\bON\s+)\bCREATE\s*\(/i.test(code);
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
