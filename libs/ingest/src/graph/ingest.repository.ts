import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService } from '@scopegraph/graph';
import { assertEdgeType, GraphEdgeType, GraphEdge, graphId } from '@scopegraph/code-model';

export interface StoredScope {
  id: string;
  contentHash: string;
  startLine: number;
  endLine: number;
}

/** What the graph holds for one file path (see cypher/ingest/stored-files.cypher). */
export interface StoredFile {
  path: string;
  /** Null only in a file's own record written before counts were kept. */
  scopes: number | null;
  fileHash: string | null;
  /** See interfaceHash (resolve/interface-hash.ts); null until a run records it. */
  interfaceHash: string | null;
  edgeHash: string | null;
  /** Its references left unresolved (edges to Unresolved nodes) and skipped as built-ins, when its edge hash was recorded. */
  unresolvedRefs: number | null;
  builtinRefs: number | null;
}

/** One file of stored-files.cypher: a list, which the driver decodes about twice as fast as a map (every run reads all files). */
type StoredFileRow = [string, number | null, string | null, string | null, string | null, number | null, number | null];

export interface StoredEdge {
  from: string;
  type: string;
  to: string;
  line: number | null;
  reason: string | null;
  resolver: string | null;
  provenance: string | null;
  origin: string | null;
}

/** One transaction's worth of scope writes for some re-parsed files (see IngestRepository.writeScopeBatch). */
export interface ScopeBatch {
  /** File scopes of re-parsed files that exist in the graph: marked not fully written first. */
  dirtyFileIds: string[];
  upserts: ScopeRow[];
  /** File scopes among the upserts, linked from the repository. */
  fileIds: string[];
  /** Containment of new scopes (cannot exist yet) and of changed ones (may exist). */
  newContainment: GraphEdge[];
  changedContainment: GraphEdge[];
  moves: { id: string; startLine: number; endLine: number }[];
  /** Stored scopes of these files that the new parse no longer has. */
  deleteIds: string[];
}

export interface ScopeRow {
  id: string;
  labels: string[];
  props: Record<string, unknown>;
}

/** Scope ids in (after, until] of one repository; `after` '' is the repository's start. */
export interface EmbedRange {
  after: string;
  until: string;
}

export interface ScopeToEmbed {
  id: string;
  kind: string;
  qualifiedName: string;
  signature: string | null;
  docComment: string | null;
  source: string | null;
}

/**
 * How a language's references in one repository ended: pinned to a scope (`resolved`), outside the
 * repository (`external`: the standard library or a dependency), through a function value or an
 * interface with several implementors (`dynamic`), or not found (`unresolved`).
 */
export interface LanguageCoverage {
  language: string;
  resolved: number;
  /** Of `resolved`, by provenance. */
  byCompiler: number;
  byScip: number;
  byName: number;
  byHeuristic: number;
  external: number;
  dynamic: number;
  /** Not found (the same number as `notFound`; kept for older clients). */
  unresolved: number;
  notFound: number;
  /** Call sites (CALLS) resolved in the repository, and those meant for it that found nothing. */
  callsResolved: number;
  callsNotFound: number;
}

export interface RepositoryRow {
  id: string;
  name: string;
  rootPath: string;
  files: number | null;
  scopes: number | null;
  edges: number | null;
  embedded: number | null;
  indexedAt: string | null;
  /** Walk filters kept with the repository (gitignore-syntax globs). */
  include: string[];
  exclude: string[];
  /** INDEXING while a run is on, INDEXED once one finished, FAILED when the last one did not. */
  indexStatus: RepositoryIndexStatus;
  /** The job of the last run started (null for runs outside the queue). */
  indexJobId: string | null;
  /** Why the last run did not finish. */
  indexError: string | null;
  /** While INDEXING: how far the run is, from its job's last progress (another API's or worker's run too). */
  indexRun?: IndexRunState | null;
}

/** What a running index has put in the graph so far: search already finds the scopes written. */
export interface IndexRunState {
  phase: string;
  scopesWritten: number;
  embedded: number;
  toEmbed: number;
}

export type RepositoryIndexStatus = 'INDEXING' | 'INDEXED' | 'FAILED';

/** Rows per UNWIND write: large enough to amortise round trips, small enough to keep transactions light. */
export const WRITE_BATCH = 1_000;
/** Edge rows are small; fewer, larger transactions write them fastest. */
const EDGE_BATCH = 5_000;
const DELETE_BATCH = 5_000;
/** Edge changes of a small run (a first index of a small repository, most re-indexes) fit one transaction. */
const SINGLE_TRANSACTION_ROWS = 20_000;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface Statement {
  name: string;
  params: Record<string, unknown>;
}

/** A run's edge changes and the commit markers of the files they belong to. */
export interface EdgeChanges {
  /** The last re-parsed files' scopes, written first (with the edges when they fit one transaction). */
  scopes?: ScopeBatch;
  deletes: { from: string; type: GraphEdgeType; to: string }[];
  /**
   * Edges with repository-local ids (`from`/`to` without the `<repoId>:` prefix, added per batch as
   * it is written): the graph ids of every edge of a full index at once would double its memory.
   */
  creates: GraphEdge[];
  merges: GraphEdge[];
  /** ExternalModule / Unresolved nodes may have lost their last edge. */
  cleanOrphans: boolean;
  /** Files (not re-parsed) whose edges change: marked before batched writes. */
  dirtyFileIds: string[];
  commits: FileCommit[];
}

/** EdgeChanges with the edges to create and update in batches made as they are written (writeEdgeStream). */
export interface EdgeStream extends Omit<EdgeChanges, 'creates' | 'merges' | 'deletes'> {
  batches: Iterable<{ creates: GraphEdge[]; merges: GraphEdge[] }>;
  deletes: () => { from: string; type: GraphEdgeType; to: string }[];
}

/**
 * Content and interface hashes and scope count (null: keep the stored ones), edge hash and reference
 * counts of a file: the run's commit marker.
 */
export interface FileCommit {
  id: string;
  fileHash: string | null;
  interfaceHash: string | null;
  scopeCount: number | null;
  edgeHash: string;
  unresolvedRefs: number;
  builtinRefs: number;
}

/**
 * One batch of re-parsed files' scopes, in order: hashes cleared, scopes they no longer have
 * deleted (files pointing at them lose their edge hash first), new and changed scopes written and
 * linked, containment created, positions moved.
 */
function scopeBatchStatements(repoId: string, b: ScopeBatch): Statement[] {
  const out: Statement[] = [];
  const add = (rows: unknown[], name: string, params: Record<string, unknown>) => rows.length > 0 && out.push({ name, params });
  add(b.dirtyFileIds, 'ingest/mark-files-dirty', { ids: b.dirtyFileIds });
  add(b.deleteIds, 'ingest/invalidate-referrers-of-scopes', { ids: b.deleteIds });
  add(b.deleteIds, 'ingest/delete-scopes', { ids: b.deleteIds });
  add(b.upserts, 'ingest/upsert-scopes', { rows: b.upserts });
  add(b.fileIds, 'ingest/link-files', { repoId, fileIds: b.fileIds });
  add(b.newContainment, 'ingest/create-scope-edges', { repoId, rows: edgeRows(b.newContainment) });
  add(b.changedContainment, 'ingest/merge-scope-edges', { repoId, rows: edgeRows(b.changedContainment) });
  add(b.moves, 'ingest/update-scope-positions', { rows: b.moves });
  return out;
}

/** The statements writing edges, by target kind, in batches of EDGE_BATCH rows. */
/**
 * One statement per batch of edges, made when it is run: a full index writes millions of edges, and
 * their rows all at once would double what the edges themselves take.
 */
function* edgeStatements(repoId: string, edges: GraphEdge[], mode: 'merge' | 'create', localIds = false): Generator<Statement> {
  const files = { scope: `ingest/${mode}-scope-edges`, external: `ingest/${mode}-external-edges`, unresolved: `ingest/${mode}-unresolved-edges` };
  for (const target of ['scope', 'external', 'unresolved'] as const) {
    let batch: GraphEdge[] = [];
    for (const e of edges) {
      if (e.target !== target) continue;
      batch.push(e);
      if (batch.length === EDGE_BATCH) {
        yield { name: files[target], params: { repoId, rows: edgeRows(batch, localIds ? repoId : null) } };
        batch = [];
      }
    }
    if (batch.length) yield { name: files[target], params: { repoId, rows: edgeRows(batch, localIds ? repoId : null) } };
  }
}

/** Rows of edges; `localOf`: the repository whose prefix local ids get. */
function edgeRows(edges: GraphEdge[], localOf: string | null = null) {
  const id = (x: string) => (localOf === null ? x : graphId(localOf, x));
  return edges.map((e) => {
    assertEdgeType(e.type);
    return {
      from: id(e.from), type: e.type, to: id(e.to), name: e.name ?? null, line: e.line, reason: e.reason ?? null, resolver: e.resolver ?? null,
      provenance: e.provenance ?? null, confidence: e.confidence ?? null, origin: e.origin ?? null,
    };
  });
}

/** Every Neo4j read and write of ingestion; each method runs the cypher/ingest file of its name. */
@Injectable()
export class IngestRepository {
  /** Edge changes up to this many rows are written in one transaction (tests lower it to exercise batches). */
  singleTransactionRows = SINGLE_TRANSACTION_ROWS;

  constructor(private readonly neo4j: Neo4jService) {}

  /**
   * Creates or renames the repository; stores the walk filters when given and returns those in
   * force, and the resolution key of the last finished run (cleared until this run finishes).
   */
  async upsertRepository(
    repoId: string,
    name: string,
    rootPath: string,
    filters: { include?: string[]; exclude?: string[] } = {},
    jobId: string | null = null,
  ): Promise<{ include: string[]; exclude: string[]; resolutionKey: string | null }> {
    const [row] = await this.neo4j.write<{ include: string[]; exclude: string[]; resolutionKey: string | null }>('ingest/upsert-repository', {
      repoId,
      name,
      rootPath,
      jobId,
      include: filters.include ?? null,
      exclude: filters.exclude ?? null,
    });
    return { include: row?.include ?? [], exclude: row?.exclude ?? [], resolutionKey: row?.resolutionKey ?? null };
  }

  /**
   * Per file what the graph holds, from the file scopes' own records; counted from every scope when
   * those do not add up to the scopes there are (so stray scopes are found and dealt with; the run
   * then records every file's count again).
   */
  async storedFiles(repoId: string): Promise<{ files: StoredFile[]; recordsAddUp: boolean }> {
    const [row] = await this.neo4j.readForJob<{ files: StoredFileRow[]; scopes: number }>('ingest/stored-files', { repoId });
    const files = (row?.files ?? []).map(([path, scopes, fileHash, interfaceHash, edgeHash, unresolvedRefs, builtinRefs]): StoredFile => ({
      path, scopes, fileHash, interfaceHash, edgeHash, unresolvedRefs, builtinRefs,
    }));
    const recorded = files.reduce((n, f) => (f.scopes === null ? NaN : n + f.scopes), 0);
    if (recorded === (row?.scopes ?? 0)) return { files, recordsAddUp: true };
    return { files: await this.neo4j.readForJob<StoredFile>('ingest/stored-files-by-scopes', { repoId }), recordsAddUp: false };
  }

  async storedScopesOf(repoId: string, paths: string[]): Promise<StoredScope[]> {
    const out: StoredScope[] = [];
    for (const batch of chunks(paths, WRITE_BATCH)) out.push(...(await this.neo4j.readForJob<StoredScope>('ingest/stored-scopes-of-paths', { repoId, paths: batch })));
    return out;
  }

  async upsertScopes(rows: ScopeRow[]): Promise<void> {
    for (const batch of chunks(rows, WRITE_BATCH)) await this.neo4j.write('ingest/upsert-scopes', { rows: batch });
  }

  async linkFiles(repoId: string, fileIds: string[]): Promise<void> {
    for (const batch of chunks(fileIds, WRITE_BATCH)) await this.neo4j.write('ingest/link-files', { repoId, fileIds: batch });
  }

  /** Writes re-parsed files' scopes in one transaction, so a file is never seen half-marked. */
  async writeScopeBatch(repoId: string, b: ScopeBatch): Promise<void> {
    await this.inTransaction(scopeBatchStatements(repoId, b));
  }

  /** Deletes every scope of files that are gone; returns how many. */
  async deletePaths(repoId: string, paths: string[]): Promise<number> {
    let deleted = 0;
    for (const batch of chunks(paths, WRITE_BATCH)) {
      deleted += await this.neo4j.writeTransaction(async (tx) => {
        await tx.run('ingest/invalidate-referrers-of-paths', { repoId, paths: batch });
        const [row] = await tx.run<{ deleted: number }>('ingest/delete-scopes-of-paths', { repoId, paths: batch });
        return row?.deleted ?? 0;
      });
    }
    return deleted;
  }

  async setFileHashes(rows: FileCommit[]): Promise<void> {
    for (const batch of chunks(rows, WRITE_BATCH)) await this.neo4j.write('ingest/set-file-hashes', { rows: batch });
  }

  async markEdgesDirty(fileIds: string[]): Promise<void> {
    for (const batch of chunks(fileIds, WRITE_BATCH)) await this.neo4j.write('ingest/mark-edges-dirty', { ids: batch });
  }

  async storedEdgesOf(repoId: string, paths: string[]): Promise<StoredEdge[]> {
    const out: StoredEdge[] = [];
    for (const batch of chunks(paths, WRITE_BATCH)) out.push(...(await this.neo4j.readForJob<StoredEdge>('ingest/stored-edges-of-paths', { repoId, paths: batch })));
    return out;
  }

  /** Creates or updates edges (MERGE): safe when some may exist already. */
  mergeEdges(repoId: string, edges: GraphEdge[]): Promise<void> {
    return this.inBatches(edgeStatements(repoId, edges, 'merge'));
  }

  /** Creates edges known to be missing (the edge diff found no twin): no search for an existing one. */
  createEdges(repoId: string, edges: GraphEdge[]): Promise<void> {
    return this.inBatches(edgeStatements(repoId, edges, 'create'));
  }

  /**
   * Writes a run's edge changes and then the files' commit markers. A small change goes in one
   * transaction (each commit has a fixed cost, and nothing half-written can be seen); a large one in
   * batches, the files whose edges change marked first (their edge hash cleared), so a run that dies
   * midway leaves them to be diffed again.
   */
  async writeEdgeChanges(repoId: string, c: EdgeChanges): Promise<void> {
    const edges = function* (): Generator<Statement> {
      for (const rows of chunks(c.deletes, WRITE_BATCH)) yield { name: 'ingest/delete-edges', params: { rows } };
      yield* edgeStatements(repoId, c.creates, 'create', true);
      yield* edgeStatements(repoId, c.merges, 'merge', true);
      if (c.cleanOrphans) yield { name: 'ingest/delete-orphans', params: { repoId } };
    };
    const scopes = c.scopes ? scopeBatchStatements(repoId, c.scopes) : [];
    const commits = chunks(c.commits, WRITE_BATCH).map((rows) => ({ name: 'ingest/set-file-hashes', params: { rows } }));
    if (c.deletes.length + c.creates.length + c.merges.length + c.commits.length <= this.singleTransactionRows) {
      await this.inTransaction([...scopes, ...edges(), ...commits]);
      return;
    }
    if (scopes.length) await this.inTransaction(scopes);
    await this.markEdgesDirty(c.dirtyFileIds);
    await this.inBatches(edges());
    await this.setFileHashes(c.commits);
  }

  /**
   * writeEdgeChanges for runs too large for one transaction, with the edges made batch by batch as
   * they are written (`batches` is consumed once, after the scopes): a full index holds one batch of
   * edges at a time instead of all of them. Deletes are asked for after the last batch (the diff
   * knows them only then; they never share a key with an edge created or updated here).
   */
  async writeEdgeStream(repoId: string, c: EdgeStream): Promise<void> {
    if (c.scopes) await this.inTransaction(scopeBatchStatements(repoId, c.scopes));
    await this.markEdgesDirty(c.dirtyFileIds);
    for (const b of c.batches) {
      await this.inBatches(edgeStatements(repoId, b.creates, 'create', true));
      await this.inBatches(edgeStatements(repoId, b.merges, 'merge', true));
    }
    const deletes = c.deletes();
    await this.deleteEdges(deletes);
    if (deletes.length > 0 || c.cleanOrphans) await this.deleteOrphans(repoId);
    await this.setFileHashes(c.commits);
  }

  private async inTransaction(statements: Statement[]): Promise<void> {
    if (statements.length === 0) return;
    await this.neo4j.writeTransaction(async (tx) => {
      for (const st of statements) await tx.run(st.name, st.params);
    });
  }

  private async inBatches(statements: Iterable<Statement>): Promise<void> {
    for (const st of statements) await this.neo4j.write(st.name, st.params);
  }

  async deleteEdges(edges: { from: string; type: GraphEdgeType; to: string }[]): Promise<void> {
    for (const batch of chunks(edges, WRITE_BATCH)) await this.neo4j.write('ingest/delete-edges', { rows: batch });
  }

  async deleteOrphans(repoId: string): Promise<number> {
    const [row] = await this.neo4j.write<{ deleted: number }>('ingest/delete-orphans', { repoId });
    return row?.deleted ?? 0;
  }

  /** A page of scopes without a vector from `model`, in id order after `after` (empty: from the start). */
  scopesToEmbed(repoId: string, model: string, after: string, limit: number, maxSourceChars: number): Promise<ScopeToEmbed[]> {
    const idPrefix = `${repoId}:`;
    return this.neo4j.readForJob<ScopeToEmbed>('ingest/scopes-to-embed', {
      idPrefix,
      after: after || idPrefix,
      model,
      limit: cypherInt(limit),
      maxSourceChars: cypherInt(maxSourceChars),
    });
  }

  async countScopesToEmbed(repoId: string, model: string): Promise<{ pending: number; otherModel: number; total: number }> {
    const [row] = await this.neo4j.readForJob<{ pending: number; otherModel: number; total: number }>('ingest/count-scopes-to-embed', { repoId, model });
    return row ?? { pending: 0, otherModel: 0, total: 0 };
  }

  /** scopesToEmbed within one embedding slice (ids in (after, until]). */
  scopesToEmbedInRange(repoId: string, model: string, range: EmbedRange, after: string, limit: number, maxSourceChars: number): Promise<ScopeToEmbed[]> {
    const idPrefix = `${repoId}:`;
    return this.neo4j.readForJob<ScopeToEmbed>('ingest/scopes-to-embed-in-range', {
      idPrefix,
      after: after || range.after || idPrefix,
      until: range.until,
      model,
      limit: cypherInt(limit),
      maxSourceChars: cypherInt(maxSourceChars),
    });
  }

  async countScopesToEmbedInRange(repoId: string, model: string, range: EmbedRange): Promise<{ pending: number; otherModel: number }> {
    const idPrefix = `${repoId}:`;
    const [row] = await this.neo4j.readForJob<{ pending: number; otherModel: number }>('ingest/count-scopes-to-embed-in-range', { idPrefix, after: range.after || idPrefix, until: range.until, model });
    return row ?? { pending: 0, otherModel: 0 };
  }

  /** The next embedding slice after `after` ('' for the first): null when no scope follows. */
  async embedSlice(repoId: string, model: string, after: string, size: number): Promise<{ until: string; size: number; pending: number } | null> {
    const idPrefix = `${repoId}:`;
    const [row] = await this.neo4j.readForJob<{ until: string | null; size: number; pending: number }>('ingest/embed-slice', { idPrefix, after: after || idPrefix, size: cypherInt(size), model });
    return row?.until ? { until: row.until, size: row.size, pending: row.pending } : null;
  }

  /** The graph writes this process committed so far, as Neo4j bookmarks (an index job's result carries them). */
  bookmarks(): Promise<string[]> {
    return this.neo4j.bookmarks();
  }

  /** `hash`: the vector's (model, dimensions, text) hash, for later runs to reuse it; null records none. */
  async setEmbeddings(rows: { id: string; embedding: number[]; hash?: string | null }[], model: string): Promise<void> {
    await this.neo4j.write('ingest/set-embeddings', { rows: rows.map((r) => ({ ...r, hash: r.hash ?? null })), model });
  }

  /** Vectors of `model` already stored under these embedding hashes (any repository), by hash. */
  async embeddingsByHash(hashes: string[], model: string): Promise<Map<string, number[]>> {
    if (hashes.length === 0) return new Map();
    const rows = await this.neo4j.readForJob<{ hash: string; embedding: number[] }>('ingest/embeddings-by-hash', { hashes, model });
    return new Map(rows.map((r) => [r.hash, r.embedding]));
  }

  /** Records the counts, and the key of what this run resolved against (see ReferenceResolver.contextKey). */
  async finishRepository(repoId: string, jobId: string | null, resolutionKey: string | null): Promise<{ files: number; scopes: number; edges: number; embedded: number }> {
    const [row] = await this.neo4j.write<{ files: number; scopes: number; edges: number; embedded: number }>('ingest/finish-repository', { repoId, jobId, resolutionKey });
    return row;
  }

  /** Marks the run of `jobId` FAILED unless a newer run started since; true when it did. */
  async failRepository(repoId: string, jobId: string | null, reason: string): Promise<boolean> {
    const [row] = await this.neo4j.write<{ marked: number }>('ingest/fail-repository', { repoId, jobId, reason });
    return (row?.marked ?? 0) > 0;
  }

  repositories(): Promise<RepositoryRow[]> {
    return this.neo4j.read<RepositoryRow>('ingest/repositories');
  }

  /** Per language: references resolved, external (standard library or dependency), dynamic, unresolved. */
  referenceCoverage(repoId: string): Promise<LanguageCoverage[]> {
    return this.neo4j.read<LanguageCoverage>('ingest/reference-coverage', { repoId });
  }

  async deleteRepository(repoId: string): Promise<void> {
    for (;;) {
      const [row] = await this.neo4j.write<{ deleted: number }>('ingest/delete-repository-batch', { repoId, batch: cypherInt(DELETE_BATCH) });
      if (!row || row.deleted === 0) break;
    }
    await this.neo4j.write('ingest/delete-repository-node', { repoId });
  }
}
