import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { familyOf } from '../languages';
import type { ParsedFile, RawReference } from '../parse/types';
import type { ReferenceBatches } from '../resolve/types';

/** Files whose references go to one spill file (read back together: what resolution holds at once). */
export const SPILL_BATCH_FILES = 512;

/**
 * Families whose resolvers read a file's references before references are resolved (Go's imports
 * link the files a package's names are used from; C/C++ reads type aliases' REFERENCES in prepare):
 * their files keep their references in memory.
 */
const READ_BEFORE_RESOLUTION = new Set(['go', 'c']);

/** Spill folders are named by the process that made them: `scopegraph-refs-<pid>-<random>`. */
const PREFIX = 'scopegraph-refs-';

/**
 * Removes spill folders left by processes that are gone (a worker killed mid-run cannot remove its
 * own): a `finally` covers every failure but the process's end.
 */
export function removeOrphans(dir = os.tmpdir()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isHeritage = (r: RawReference) => r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS';
const KINDS = ['CALLS', 'REFERENCES'] as const;

/**
 * One file's non-heritage references in columns: the source scope as its index among the file's
 * scopes, the target name as an index into the batch's name table. Objects would be serialised (and
 * read back) with a string copy each; columns keep the file small and the names shared.
 */
interface SpilledFile {
  from: Int32Array;
  kind: Uint8Array;
  line: Int32Array;
  name: Int32Array;
  /** Positions with a targetLanguage (SQL names in C# strings), rare. */
  languages: [number, string][];
}

interface SpilledBatch {
  names: string[];
  /** Per file of the batch (in run order): its columns, or null when its references stayed in memory. */
  files: (SpilledFile | null)[];
}

/**
 * Every parsed file's references other than EXTENDS / IMPLEMENTS, moved out of memory into temporary
 * files (v8.serialize, one per batch of SPILL_BATCH_FILES files, in a 0700 folder of the OS temp dir)
 * and read back a batch at a time for resolution: at a million scopes they are ~3.4 million objects
 * held from the parse until resolution ends. Heritage references stay on the parses (every file's are
 * resolved first). `close()` removes the folder; callers close it in a `finally`.
 */
export class ReferenceSpill implements ReferenceBatches {
  /** The spill's own folder (tests check its mode and that close() removes it). */
  readonly dir: string;
  private readonly batchFiles: string[] = [];
  /** The files' paths in run order, and the references of files not spilled (kept in memory). */
  private readonly paths: string[] = [];
  private readonly inMemory = new Map<number, RawReference[]>();
  /** Each file's scope ids in run order (the columns name scopes by index). */
  private readonly scopeIds: string[][] = [];
  private closed = false;
  /** References moved out of memory. */
  spilled = 0;

  /** Files added since the last batch was written. */
  private pending: ParsedFile[] = [];

  constructor(private readonly batchSize = SPILL_BATCH_FILES) {
    removeOrphans();
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
    fs.chmodSync(this.dir, 0o700);
  }

  /**
   * Moves the references of `files` (in this order: the order resolution reads them in) to disk; each
   * file keeps its heritage references. Files whose family reads references before resolution, or
   * with a reference from a scope not among their own, keep theirs.
   */
  static spill(files: ParsedFile[], batchSize = SPILL_BATCH_FILES): ReferenceSpill {
    const spill = new ReferenceSpill(batchSize);
    try {
      for (const f of files) spill.add(f);
      spill.flush();
    } catch (error) {
      spill.close();
      throw error;
    }
    return spill;
  }

  /** The next file in run order (the parse phase adds each as it is taken); its references go with the next batch written. */
  add(file: ParsedFile): void {
    this.pending.push(file);
    if (this.pending.length >= this.batchSize) this.flush();
  }

  /** Writes the files added since the last batch (call once after the last file). */
  flush(): void {
    if (!this.pending.length) return;
    const files = this.pending;
    this.pending = [];
    this.write(files);
  }

  private write(files: ParsedFile[]): void {
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    const batch: SpilledBatch = { names, files: [] };
    for (const f of files) {
      const i = this.paths.length;
      this.paths.push(f.path);
      this.scopeIds.push(f.scopes.map((s) => s.id));
      const columns = READ_BEFORE_RESOLUTION.has(familyOf(f.language)) ? null : this.columns(f, names, nameIndex);
      batch.files.push(columns);
      if (!columns) {
        this.inMemory.set(i, f.references.filter((r) => !isHeritage(r)));
        continue;
      }
      this.spilled += columns.from.length;
      f.references = f.references.filter(isHeritage);
    }
    const file = path.join(this.dir, `batch-${this.batchFiles.length}.bin`);
    fs.writeFileSync(file, v8.serialize(batch), { mode: 0o600 });
    this.batchFiles.push(file);
  }

  private columns(f: ParsedFile, names: string[], nameIndex: Map<string, number>): SpilledFile | null {
    const scopeIndex = new Map<string, number>();
    f.scopes.forEach((s, k) => scopeIndex.set(s.id, k));
    const refs = f.references.filter((r) => !isHeritage(r));
    const out: SpilledFile = { from: new Int32Array(refs.length), kind: new Uint8Array(refs.length), line: new Int32Array(refs.length), name: new Int32Array(refs.length), languages: [] };
    for (let k = 0; k < refs.length; k++) {
      const r = refs[k];
      const from = scopeIndex.get(r.fromId);
      const kind = KINDS.indexOf(r.kind as (typeof KINDS)[number]);
      if (from === undefined || kind < 0) return null;
      let n = nameIndex.get(r.targetName);
      if (n === undefined) nameIndex.set(r.targetName, (n = names.push(r.targetName) - 1));
      out.from[k] = from;
      out.kind[k] = kind;
      out.line[k] = r.line;
      out.name[k] = n;
      if (r.targetLanguage !== undefined) out.languages.push([k, r.targetLanguage]);
    }
    return out;
  }

  /** The files' non-heritage references in run order, one batch of files read from disk at a time. */
  *batches(): Generator<{ path: string; references: RawReference[] }[]> {
    if (this.closed) throw new Error('the reference spill was closed');
    if (this.pending.length) throw new Error('the reference spill has files not written (flush() after the last)');
    let index = 0;
    for (const file of this.batchFiles) {
      const batch = v8.deserialize(fs.readFileSync(file)) as SpilledBatch;
      const out: { path: string; references: RawReference[] }[] = [];
      for (const columns of batch.files) {
        const i = index++;
        if (!columns) {
          out.push({ path: this.paths[i], references: this.inMemory.get(i) ?? [] });
          continue;
        }
        const ids = this.scopeIds[i];
        const languages = new Map(columns.languages);
        const references: RawReference[] = new Array(columns.from.length);
        for (let k = 0; k < columns.from.length; k++) {
          const targetLanguage = languages.get(k) as RawReference['targetLanguage'];
          references[k] = targetLanguage === undefined
            ? { fromId: ids[columns.from[k]], kind: KINDS[columns.kind[k]], targetName: batch.names[columns.name[k]], line: columns.line[k] }
            : { fromId: ids[columns.from[k]], kind: KINDS[columns.kind[k]], targetName: batch.names[columns.name[k]], line: columns.line[k], targetLanguage };
        }
        out.push({ path: this.paths[i], references });
      }
      yield out;
    }
  }

  /** Removes the temporary files (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
