import { createHash } from 'node:crypto';
import { cypherInt } from '@scopegraph/graph';
import { GraphEdge, graphId, KIND_LABEL } from '@scopegraph/code-model';
import { IngestRepository, ScopeBatch, ScopeRow } from '../graph/ingest.repository';
import type { ParsedFile, ParsedScope } from '../parse/types';

/** Rows that start a background write: few, so writing starts early and overlaps parsing. */
const STREAM_BATCH = 250;
/**
 * Rows one write may take. While a write runs, re-parsed files collect; the next write takes them
 * together, so when Neo4j falls behind there are fewer, larger transactions (each commit has a
 * fixed cost: index updates, log flush) instead of a growing queue of small ones.
 */
const MAX_BATCH = 2_000;
/** Rows waiting for Neo4j beyond which parsing waits too (memory stays bounded). */
const MAX_PENDING = 4 * MAX_BATCH;
/**
 * A file scope keeps only the head of its text (imports, module header): its members hold the rest,
 * and whole files would double what the full-text index analyses.
 */
export const FILE_SOURCE_CHARS = 4_000;

export interface ScopeStats {
  total: number;
  added: number;
  changed: number;
  moved: number;
  deleted: number;
  unchanged: number;
}

/** A re-parsed file waiting to be diffed and written. */
interface PendingFile {
  path: string;
  rows: ScopeRow[];
}

/**
 * Diffs re-parsed files against what the graph holds for them and writes the difference. Writes
 * start while later files are still being parsed: they run one batch at a time in the background
 * (Neo4j works on one core while parsing keeps the other), and `finish()` waits for them. Only the
 * stored scopes of re-parsed files are read (files reused unchanged are not), one batch at a time.
 */
export class ScopeSync {
  readonly stats: ScopeStats = { total: 0, added: 0, changed: 0, moved: 0, deleted: 0, unchanged: 0 };
  /**
   * Scopes (local ids) whose containment edge was written with them (new and changed scopes): in
   * the graph when edges are diffed. Ids, not edges: a full index writes one per scope.
   */
  private readonly contained = new Set<string>();
  /** Scopes of this run in the graph so far (unchanged files' count from the start): what search can already find. */
  committed = 0;
  private pending: PendingFile[] = [];
  private pendingRows = 0;
  private chain: Promise<void> = Promise.resolve();
  private writing = false;
  private drained: (() => void)[] = [];
  private failure: unknown;

  /** `storedPaths`: paths the graph holds scopes for (their scopes are read before diffing). */
  constructor(
    private readonly repoId: string,
    private readonly repo: IngestRepository,
    private readonly storedPaths: ReadonlySet<string>,
    private readonly options: { excludeDocComments?: boolean } = {},
  ) {}

  /** A file whose bytes did not change: its scopes are kept as they are. */
  keepUnchanged(file: ParsedFile): void {
    this.committed += file.scopes.length;
    this.stats.total += file.scopes.length;
    this.stats.unchanged += file.scopes.length;
  }

  /** A re-parsed file: queued to be diffed against the graph and written. */
  add(file: ParsedFile, nonUtf8: boolean): void {
    const rows: ScopeRow[] = [];
    for (const scope of file.scopes) {
      const props = scopeProps(this.repoId, scope);
      if (this.options.excludeDocComments) {
        props.docComment = null;
        props.source = stripDocComments(scope.source);
      }
      if (scope.kind === 'file') {
        props.parseErrors = file.errors;
        props.nonUtf8 = nonUtf8;
        // fileHash is set last (setFileHashes): until then the file counts as not fully written.
        props.fileHash = null;
        const text = props.source as string;
        props.source = text.length > FILE_SOURCE_CHARS ? text.slice(0, FILE_SOURCE_CHARS) : text;
        props.truncated = text.length > FILE_SOURCE_CHARS;
      }
      props.contentHash = hashProps(props);
      rows.push({ id: props.id as string, labels: [KIND_LABEL[scope.kind]], props });
    }
    this.stats.total += rows.length;
    this.pending.push({ path: file.path, rows });
    this.pendingRows += rows.length;
    if (this.pendingRows >= STREAM_BATCH) this.flush();
  }

  /**
   * Whether this run wrote `e` (repository-local ids) as the containment of a new or changed scope.
   * Its type follows the parent's id, as `diff` writes it.
   */
  wroteContainment(e: { from: string; type: string; to: string }): boolean {
    return e.type === (e.from.endsWith('|file') ? 'DECLARES' : 'HAS_MEMBER') && this.contained.has(e.to);
  }

  /** Resolves once the rows waiting for Neo4j are few enough for parsing to go on. */
  room(): Promise<void> {
    if (this.pendingRows < MAX_PENDING || this.failure) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /** Files the graph holds that are gone from the tree (or now skipped): all their scopes are deleted. */
  deletePaths(paths: string[]): void {
    if (paths.length === 0) return;
    this.enqueue(async () => {
      this.stats.deleted += await this.repo.deletePaths(this.repoId, paths);
    });
  }

  /**
   * Waits for the running writes and returns the files still pending as one batch, diffed but not
   * written: the caller writes it with the edges (one transaction less after the last parse).
   */
  async finish(): Promise<{ stats: ScopeStats; last?: ScopeBatch }> {
    const last = this.pending.splice(0);
    this.pendingRows = 0;
    this.drained.splice(0).forEach((resolve) => resolve());
    const [batch] = await Promise.all([last.length && !this.failure ? this.diff(last) : undefined, this.chain]);
    if (this.failure) throw this.failure;
    return { stats: this.stats, last: batch };
  }

  /**
   * Starts a write of the pending files (up to MAX_BATCH rows, whole files) unless one is running;
   * when it ends, the next one starts with whatever collected meanwhile.
   */
  private flush(): void {
    if (this.writing) return;
    let take = 0;
    let rows = 0;
    while (take < this.pending.length && (take === 0 || rows + this.pending[take].rows.length <= MAX_BATCH)) rows += this.pending[take++].rows.length;
    const files = this.pending.splice(0, take);
    this.pendingRows -= rows;
    if (this.pendingRows < MAX_PENDING) this.drained.splice(0).forEach((resolve) => resolve());
    if (files.length === 0) return;
    this.writing = true;
    this.enqueue(() => this.write(files));
    this.chain = this.chain.then(() => {
      this.writing = false;
      if (this.pendingRows >= STREAM_BATCH) this.flush();
    });
  }

  /** Diffs some re-parsed files against their stored scopes and writes the difference in one transaction. */
  private async write(files: PendingFile[]): Promise<void> {
    await this.repo.writeScopeBatch(this.repoId, await this.diff(files));
    this.committed += files.reduce((n, f) => n + f.rows.length, 0);
  }

  /** What writing some re-parsed files takes: their stored scopes are read and compared. */
  private async diff(files: PendingFile[]): Promise<ScopeBatch> {
    const storedPaths = files.filter((f) => this.storedPaths.has(f.path)).map((f) => f.path);
    const stored = new Map((storedPaths.length ? await this.repo.storedScopesOf(this.repoId, storedPaths) : []).map((s) => [s.id, s]));
    const batch: ScopeBatch = { dirtyFileIds: [], upserts: [], fileIds: [], newContainment: [], changedContainment: [], moves: [], deleteIds: [] };
    const kept = new Set<string>();
    for (const file of files) {
      for (const row of file.rows) {
        kept.add(row.id);
        const old = stored.get(row.id);
        const { startLine, endLine } = row.props as { startLine: number; endLine: number };
        if (!old || old.contentHash !== row.props.contentHash) {
          this.stats[old ? 'changed' : 'added']++;
          // JS numbers travel as Cypher floats; line numbers are integers.
          batch.upserts.push({ ...row, props: { ...row.props, startLine: cypherInt(startLine), endLine: cypherInt(endLine) } });
          if (row.props.kind === 'file') batch.fileIds.push(row.id);
          const parent = row.props.parentId;
          if (typeof parent === 'string') {
            // Containment needs no resolution, so it is written here, overlapping parsing. Parents
            // precede children (files list scopes in source order).
            const edge: GraphEdge = { from: parent, type: parent.endsWith('|file') ? 'DECLARES' : 'HAS_MEMBER', to: row.id, target: 'scope', line: null };
            (old ? batch.changedContainment : batch.newContainment).push(edge);
            this.contained.add(row.props.localId as string);
          }
        } else if (old.startLine !== startLine || old.endLine !== endLine) {
          this.stats.moved++;
          batch.moves.push({ id: row.id, startLine, endLine });
        } else {
          this.stats.unchanged++;
        }
      }
      if (this.storedPaths.has(file.path)) batch.dirtyFileIds.push(graphId(this.repoId, fileScopeId(file.path)));
    }
    batch.deleteIds = [...stored.keys()].filter((id) => !kept.has(id));
    this.stats.deleted += batch.deleteIds.length;
    return batch;
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await work();
      } catch (error) {
        this.failure = error;
      }
    });
  }
}

export function fileScopeId(path: string): string {
  return `${path}#${path}|file`;
}

function scopeProps(repoId: string, scope: ParsedScope): Record<string, unknown> {
  return {
    id: graphId(repoId, scope.id),
    localId: scope.id,
    repoId,
    name: scope.name,
    qualifiedName: scope.qualifiedName,
    kind: scope.kind,
    language: scope.language,
    path: scope.path,
    startLine: scope.startLine,
    endLine: scope.endLine,
    signature: scope.signature,
    docComment: scope.docComment,
    source: scope.source,
    nameTokens: scope.nameTokens,
    exported: scope.exported ?? null,
    parentId: scope.parentId ? graphId(repoId, scope.parentId) : null,
    localParentId: scope.parentId,
  };
}

/**
 * Hash of everything but position and the repository's name: a scope that only moved is updated in
 * place, not rewritten, and the same code hashes the same in any repository.
 */
function hashProps(props: Record<string, unknown>): string {
  const { startLine: _s, endLine: _e, id: _i, repoId: _r, parentId: _p, ...rest } = props;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

/**
 * Removes doc comments from source text: JSDoc blocks, C# `///` lines and Python docstrings (a
 * string literal standing alone as the first statement of a body). Plain comments stay.
 */
export function stripDocComments(source: string): string {
  return source
    .replace(/\/\*\*[\s\S]*?\*\//g, '')
    .replace(/^[ \t]*\/\/\/.*\n?/gm, '')
    .replace(/(:[ \t]*\n[ \t]*)(?:[rRuU]?"""[\s\S]*?"""|[rRuU]?\'\'\'[\s\S]*?\'\'\')[ \t]*\n?/g, '$1');
}
