import { createHash } from 'node:crypto';
import { cypherInt } from '@scopegraph/graph';
import { GraphEdge, graphId, KIND_LABEL } from '@scopegraph/code-model';
import { IngestRepository, ScopeRow, StoredScope } from '../graph/ingest.repository';
import type { ParsedFile, ParsedScope } from '../parse/types';

/** Rows per background write: small enough that writing starts early and overlaps parsing. */
const STREAM_BATCH = 250;
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

/**
 * Diffs parsed scopes against what the graph holds and writes the difference. Writes start while
 * later files are still being parsed: they run one batch at a time in the background (Neo4j works on
 * one core while parsing keeps the other), and `finish()` waits for them.
 */
export class ScopeSync {
  readonly stats: ScopeStats = { total: 0, added: 0, changed: 0, moved: 0, deleted: 0, unchanged: 0 };
  private readonly stored: Map<string, StoredScope>;
  private readonly keep = new Set<string>();
  private upserts: ScopeRow[] = [];
  private moves: { id: string; startLine: number; endLine: number }[] = [];
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly repoId: string,
    stored: StoredScope[],
    private readonly repo: IngestRepository,
    private readonly options: { excludeDocComments?: boolean } = {},
  ) {
    this.stored = new Map(stored.map((s) => [s.id, s]));
  }

  /** A file whose bytes did not change: its scopes are kept as they are. */
  keepUnchanged(file: ParsedFile): void {
    for (const s of file.scopes) this.keep.add(graphId(this.repoId, s.id));
    this.stats.total += file.scopes.length;
    this.stats.unchanged += file.scopes.length;
  }

  /** A parsed file: new and changed scopes are queued for writing, moved ones for a position update. */
  add(file: ParsedFile, nonUtf8: boolean): void {
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
      const propsHash = hashProps(props);
      props.contentHash = propsHash;
      // JS numbers travel as Cypher floats; line numbers are integers.
      props.startLine = cypherInt(scope.startLine);
      props.endLine = cypherInt(scope.endLine);
      const id = props.id as string;
      this.keep.add(id);
      this.stats.total++;
      const old = this.stored.get(id);
      if (!old || old.contentHash !== propsHash) {
        this.stats[old ? 'changed' : 'added']++;
        this.upserts.push({ id, labels: [KIND_LABEL[scope.kind]], props });
      } else if (old.startLine !== scope.startLine || old.endLine !== scope.endLine) {
        this.stats.moved++;
        this.moves.push({ id, startLine: scope.startLine, endLine: scope.endLine });
      } else {
        this.stats.unchanged++;
      }
    }
    if (this.upserts.length >= STREAM_BATCH) this.flushUpserts();
  }

  /** Waits for every queued write; returns the ids of stored scopes that no longer exist. */
  async finish(): Promise<string[]> {
    this.flushUpserts();
    const moves = this.moves;
    this.moves = [];
    this.enqueue(() => this.repo.updatePositions(moves));
    await this.chain;
    if (this.failure) throw this.failure;
    const deletions = [...this.stored.keys()].filter((id) => !this.keep.has(id));
    this.stats.deleted = deletions.length;
    return deletions;
  }

  private flushUpserts(): void {
    const rows = this.upserts;
    this.upserts = [];
    if (rows.length === 0) return;
    const fileIds = rows.filter((r) => r.props.kind === 'file').map((r) => r.id);
    // Containment needs no resolution, so it is written here, overlapping parsing; the edge diff
    // later finds it in place. Parents precede children (files list scopes in source order).
    const containment: GraphEdge[] = rows
      .filter((r) => typeof r.props.parentId === 'string')
      .map((r) => {
        const parent = r.props.parentId as string;
        return { from: parent, type: parent.endsWith('|file') ? 'DECLARES' : 'HAS_MEMBER', to: r.id, target: 'scope', line: null };
      });
    this.enqueue(async () => {
      await this.repo.upsertScopes(rows);
      await this.repo.linkFiles(this.repoId, fileIds);
      await this.repo.mergeEdges(this.repoId, containment);
    });
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
