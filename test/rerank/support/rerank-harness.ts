import { createHash } from 'node:crypto';
import { AppConfig, loadConfig } from '@scopegraph/config';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';

export interface SeedScope {
  name: string;
  kind?: string;
  path?: string;
  signature?: string;
  source?: string;
  docComment?: string;
}

/**
 * Scopes written straight to Neo4j under a repository id of the test's own (faster than indexing a
 * fixture, and enough for reranking: it reads scopes by id). Only that repoId is ever deleted.
 */
export class ScopeSeeder {
  readonly config: AppConfig = loadConfig();
  readonly neo4j = new Neo4jService(this.config, new CypherFiles());
  private readonly repos = new Set<string>();

  async seed(repoId: string, scopes: SeedScope[]): Promise<string[]> {
    this.repos.add(repoId);
    const rows = scopes.map((s, i) => {
      const kind = s.kind ?? 'function';
      const path = s.path ?? `src/module${i % 7}/file${i}.ts`;
      const id = `${repoId}:${path}#${s.name}|${kind}`;
      const source = s.source ?? `export function ${s.name}() {\n  return ${i};\n}`;
      const signature = s.signature ?? `${s.name}(): number`;
      return {
        id,
        repoId,
        name: s.name,
        qualifiedName: s.name,
        kind,
        language: 'typescript',
        path,
        signature,
        docComment: s.docComment ?? null,
        source,
        contentHash: createHash('sha256').update(`${signature}\n${source}`).digest('hex').slice(0, 16),
      };
    });
    await this.neo4j.runStatement(
      `UNWIND $rows AS row
       MERGE (s:Scope {id: row.id})
       SET s += row`,
      { rows },
    );
    return rows.map((r) => r.id);
  }

  /** Changes a scope's source and content hash, as a re-index would. */
  async edit(id: string, source: string): Promise<void> {
    await this.neo4j.runStatement('MATCH (s:Scope {id: $id}) SET s.source = $source, s.contentHash = $hash', {
      id,
      source,
      hash: createHash('sha256').update(source).digest('hex').slice(0, 16),
    });
  }

  async close(): Promise<void> {
    for (const repoId of this.repos) await this.neo4j.runStatement('MATCH (s:Scope {repoId: $repoId}) DETACH DELETE s', { repoId });
    await this.neo4j.onModuleDestroy();
  }
}

/** n scopes `fn0`..`fn{n-1}` with distinct sources. */
export function numberedScopes(n: number, extra: (i: number) => Partial<SeedScope> = () => ({})): SeedScope[] {
  return Array.from({ length: n }, (_, i) => ({ name: `fn${i}`, ...extra(i) }));
}

export const RERANK_FIELDS = `jobId status reranker model strategy scoreMerging done total candidates reranked skipped reason llmCalls fallbacks filteredOut notes durationMs
  cache { hits misses }
  feedback { quality suggestions { type description suggestedQuery { text mode topK filters { repository pathContains pathGlob languages kinds name } } } }
  hits { scopeId rank score scope { name path } scoreBreakdown { retrieval retrievalNormalized retrievalRank llm llmReasoning relevant merged scored strategy scoreMerging reranker fallbackReason batch cached } }`;

export const START_RERANK = `mutation($input: StartRerankInput!) { startRerank(input: $input) { jobId status skipped total result { ${RERANK_FIELDS} } } }`;
export const RERANK_PROGRESS = `subscription($jobId: ID!) { rerankProgress(jobId: $jobId) { jobId kind status done total feedback { quality } hits { scopeId rank score scoreBreakdown { llm scored fallbackReason } } result { ${RERANK_FIELDS} } } }`;
export const RERANK_RESULT = `query($jobId: ID!) { rerankResult(jobId: $jobId) { ${RERANK_FIELDS} } }`;
