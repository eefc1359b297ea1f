import { Injectable } from '@nestjs/common';
import { cypherInt, Neo4jService } from '@scopegraph/graph';
import { assertEdgeType, GraphEdgeType, GraphEdge } from '@scopegraph/code-model';

export interface StoredScope {
  id: string;
  contentHash: string;
  fileHash: string | null;
  kind: string;
  path: string;
  startLine: number;
  endLine: number;
}

export interface ScopeRow {
  id: string;
  labels: string[];
  props: Record<string, unknown>;
}

export interface ScopeToEmbed {
  id: string;
  kind: string;
  qualifiedName: string;
  signature: string | null;
  docComment: string | null;
  source: string | null;
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
}

/** Rows per UNWIND write: large enough to amortise round trips, small enough to keep transactions light. */
export const WRITE_BATCH = 1_000;
/** Edge rows are small; fewer, larger transactions write them fastest. */
const EDGE_BATCH = 5_000;
const DELETE_BATCH = 5_000;

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Every Neo4j read and write of ingestion; each method runs the cypher/ingest file of its name. */
@Injectable()
export class IngestRepository {
  constructor(private readonly neo4j: Neo4jService) {}

  /** Creates or renames the repository; stores the walk filters when given and returns those in force. */
  async upsertRepository(repoId: string, name: string, rootPath: string, filters: { include?: string[]; exclude?: string[] } = {}): Promise<{ include: string[]; exclude: string[] }> {
    const [row] = await this.neo4j.write<{ include: string[]; exclude: string[] }>('ingest/upsert-repository', {
      repoId,
      name,
      rootPath,
      include: filters.include ?? null,
      exclude: filters.exclude ?? null,
    });
    return { include: row?.include ?? [], exclude: row?.exclude ?? [] };
  }

  storedScopes(repoId: string): Promise<StoredScope[]> {
    return this.neo4j.read<StoredScope>('ingest/stored-scopes', { repoId });
  }

  async upsertScopes(rows: ScopeRow[]): Promise<void> {
    for (const batch of chunks(rows, WRITE_BATCH)) await this.neo4j.write('ingest/upsert-scopes', { rows: batch });
  }

  async updatePositions(rows: { id: string; startLine: number; endLine: number }[]): Promise<void> {
    for (const batch of chunks(rows, WRITE_BATCH)) await this.neo4j.write('ingest/update-scope-positions', { rows: batch });
  }

  async linkFiles(repoId: string, fileIds: string[]): Promise<void> {
    for (const batch of chunks(fileIds, WRITE_BATCH)) await this.neo4j.write('ingest/link-files', { repoId, fileIds: batch });
  }

  async setFileHashes(rows: { id: string; fileHash: string }[]): Promise<void> {
    for (const batch of chunks(rows, WRITE_BATCH)) await this.neo4j.write('ingest/set-file-hashes', { rows: batch });
  }

  async deleteScopes(ids: string[]): Promise<void> {
    for (const batch of chunks(ids, WRITE_BATCH)) await this.neo4j.write('ingest/delete-scopes', { ids: batch });
  }

  storedEdges(repoId: string): Promise<{ from: string; type: string; to: string; line: number | null; reason: string | null; resolver: string | null }[]> {
    return this.neo4j.read('ingest/stored-edges', { repoId });
  }

  /** Creates or updates edges (MERGE): safe when some may exist already. */
  mergeEdges(repoId: string, edges: GraphEdge[]): Promise<void> {
    return this.writeEdges(repoId, edges, 'merge');
  }

  /** Creates edges known to be missing (the edge diff found no twin): no search for an existing one. */
  createEdges(repoId: string, edges: GraphEdge[]): Promise<void> {
    return this.writeEdges(repoId, edges, 'create');
  }

  private async writeEdges(repoId: string, edges: GraphEdge[], mode: 'merge' | 'create'): Promise<void> {
    const byTarget = { scope: [] as GraphEdge[], external: [] as GraphEdge[], unresolved: [] as GraphEdge[] };
    for (const e of edges) {
      assertEdgeType(e.type);
      byTarget[e.target].push(e);
    }
    const files = { scope: `ingest/${mode}-scope-edges`, external: `ingest/${mode}-external-edges`, unresolved: `ingest/${mode}-unresolved-edges` };
    for (const target of ['scope', 'external', 'unresolved'] as const) {
      for (const batch of chunks(byTarget[target], EDGE_BATCH)) {
        await this.neo4j.write(files[target], {
          repoId,
          rows: batch.map((e) => ({
            from: e.from, type: e.type, to: e.to, name: e.name ?? null, line: e.line, reason: e.reason ?? null, resolver: e.resolver ?? null,
          })),
        });
      }
    }
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
    return this.neo4j.read<ScopeToEmbed>('ingest/scopes-to-embed', {
      idPrefix,
      after: after || idPrefix,
      model,
      limit: cypherInt(limit),
      maxSourceChars: cypherInt(maxSourceChars),
    });
  }

  async countScopesToEmbed(repoId: string, model: string): Promise<{ pending: number; otherModel: number }> {
    const [row] = await this.neo4j.read<{ pending: number; otherModel: number }>('ingest/count-scopes-to-embed', { repoId, model });
    return row ?? { pending: 0, otherModel: 0 };
  }

  async setEmbeddings(rows: { id: string; embedding: number[] }[], model: string): Promise<void> {
    await this.neo4j.write('ingest/set-embeddings', { rows, model });
  }

  async finishRepository(repoId: string, jobId: string | null): Promise<{ files: number; scopes: number; edges: number; embedded: number }> {
    const [row] = await this.neo4j.write<{ files: number; scopes: number; edges: number; embedded: number }>('ingest/finish-repository', { repoId, jobId });
    return row;
  }

  repositories(): Promise<RepositoryRow[]> {
    return this.neo4j.read<RepositoryRow>('ingest/repositories');
  }

  async deleteRepository(repoId: string): Promise<void> {
    for (;;) {
      const [row] = await this.neo4j.write<{ deleted: number }>('ingest/delete-repository-batch', { repoId, batch: cypherInt(DELETE_BATCH) });
      if (!row || row.deleted === 0) break;
    }
    await this.neo4j.write('ingest/delete-repository-node', { repoId });
  }
}
