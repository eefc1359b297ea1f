import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig, loadConfig } from '@scopegraph/config';
import { CypherFiles, MigrationService, Neo4jService } from '@scopegraph/graph';
import { EmbeddingCache, IngestRepository, IngestService, ParseCache, ParsePool, ParserService, ReferenceResolver, TsChecker } from '@scopegraph/ingest';
import { createEmbeddingProvider, EmbeddingProvider } from '@scopegraph/llm';
import { QueueService } from '@scopegraph/queue';
import { ROOT } from './processes';
import { SymbolIndex } from '../../libs/ingest/src/pipeline/symbol-index';

export const FIXTURE = path.join(ROOT, 'test/fixtures/polyglot-repo');

/**
 * The real ingestion stack (Neo4j, Redis parse cache, tree-sitter, the local embedding model)
 * without Nest, for e2e tests that drive IngestService directly. Temp folders are allowed roots.
 */
export class IngestHarness {
  readonly config: AppConfig;
  readonly neo4j: Neo4jService;
  readonly queues: QueueService;
  readonly repo: IngestRepository;
  readonly parser = new ParserService();
  embedder!: EmbeddingProvider;
  ingest!: IngestService;
  resolver!: ReferenceResolver;
  /** Parse threads and TypeScript's checker thread, shared by every service this harness makes. */
  pool!: ParsePool;
  checker!: TsChecker;
  private readonly tempDirs: string[] = [];
  /** Every resolver made here: each owns its pyright processes, stopped on dispose. */
  private readonly resolvers: ReferenceResolver[] = [];

  /** `queuePrefix` isolates Redis keys (caches) of this harness; dispose() deletes them. */
  constructor(private readonly queuePrefix?: string) {
    const base = loadConfig();
    this.config = {
      ...base,
      queue: queuePrefix ? { prefix: queuePrefix } : base.queue,
      ingest: { ...base.ingest, allowedRoots: [...base.ingest.allowedRoots, fs.realpathSync(os.tmpdir())] },
    };
    this.neo4j = new Neo4jService(this.config, new CypherFiles());
    this.queues = new QueueService(this.config);
    this.repo = new IngestRepository(this.neo4j);
  }

  async init(embedder?: EmbeddingProvider): Promise<this> {
    await this.neo4j.waitUntilReady();
    await this.queues.onModuleInit();
    await new MigrationService(this.neo4j, this.config).migrate();
    await this.parser.init();
    this.embedder = embedder ?? createEmbeddingProvider({ provider: 'local', dimensions: this.config.embedding.dimensions, modelsDir: this.config.embedding.modelsDir });
    this.pool = new ParsePool(this.parser, this.config.ingest.parseThreads);
    this.checker = new TsChecker(this.config.ingest.tsPreciseMaxFiles, this.config.ingest.parseThreads > 0);
    ({ ingest: this.ingest, resolver: this.resolver } = await this.serviceWith({}));
    return this;
  }

  /**
   * An IngestService with other ingest settings (its own compiler state), on this harness's parse
   * and checker threads: what a long-lived worker has, without paying thread start-up per service.
   */
  async serviceWith(ingest: Partial<AppConfig['ingest']>): Promise<{ ingest: IngestService; resolver: ReferenceResolver }> {
    const config = { ...this.config, ingest: { ...this.config.ingest, ...ingest } };
    const resolver = new ReferenceResolver(config);
    this.resolvers.push(resolver);
    await resolver.useChecker(this.checker);
    const service = new IngestService(this.repo, this.parser, new ParseCache(this.queues), resolver, new EmbeddingCache(this.queues), this.embedder, config);
    await service.useParsePool(this.pool);
    return { ingest: service, resolver };
  }

  /** A copy of a folder in a fresh temp dir, so tests can edit it. */
  copyOf(source: string): string {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-repo-'));
    fs.cpSync(source, dir, { recursive: true });
    this.tempDirs.push(dir);
    return dir;
  }

  emptyDir(): string {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sg-repo-'));
    this.tempDirs.push(dir);
    return dir;
  }

  /** Everything indexed for a repository, with repo-specific parts of ids stripped, for comparisons. */
  async snapshot(repoId: string): Promise<{ nodes: string[]; edges: string[] }> {
    const strip = (id: string) => (id.startsWith(`${repoId}:`) ? id.slice(repoId.length + 1) : id);
    const nodes = await this.neo4j.runStatement<{ id: string; labels: string[]; props: Record<string, unknown> }>(
      `MATCH (n) WHERE (n:Scope OR n:ExternalModule OR n:Unresolved) AND n.repoId = $repoId
       RETURN n.id AS id, labels(n) AS labels, properties(n) AS props`,
      { repoId },
    );
    const edges = await this.neo4j.runStatement<{ from: string; type: string; to: string; props: Record<string, unknown> }>(
      `MATCH (a {repoId: $repoId})-[r]->(b) RETURN a.id AS from, type(r) AS type, b.id AS to, properties(r) AS props`,
      { repoId },
    );
    const normal = (props: Record<string, unknown>) => {
      const { repoId: _r, embedding, id: _i, parentId, ...rest } = props;
      return stableJson({ ...rest, parentId: typeof parentId === 'string' ? strip(parentId) : parentId, embedded: embedding !== undefined && embedding !== null });
    };
    return {
      nodes: nodes.map((n) => `${strip(n.id)} ${[...n.labels].sort().join(':')} ${normal(n.props)}`).sort(),
      edges: edges.map((e) => `${strip(e.from)} -${e.type}-> ${strip(e.to)} ${stableJson(e.props)}`).sort(),
    };
  }

  /** Deletes this harness's Redis keys matching `pattern` (only with a harness-owned prefix). */
  async deleteKeys(pattern: string): Promise<void> {
    if (!this.queuePrefix || !pattern.startsWith(`${this.queuePrefix}:`)) throw new Error('refusing to delete keys outside this harness prefix');
    const redis = this.queues.redis;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async dispose(repoIds: string[]): Promise<void> {
    for (const id of repoIds) await this.repo.deleteRepository(id).catch(() => undefined);
    // Their symbol indexes (symbol-index.ts) too: files named by prefix and repository, made per run.
    const symbols = this.config.ingest.symbolIndexDir;
    if (symbols) for (const id of repoIds) fs.rmSync(SymbolIndex.fileFor(symbols, this.config.queue.prefix, id), { force: true });
    for (const dir of this.tempDirs) fs.rmSync(dir, { recursive: true, force: true });
    if (this.queuePrefix) await this.deleteKeys(`${this.queuePrefix}:*`);
    await this.pool?.close();
    await this.checker?.close();
    for (const r of this.resolvers) await r.onModuleDestroy();
    await this.embedder?.close?.();
    await this.queues.onModuleDestroy();
    await this.neo4j.onModuleDestroy();
  }
}

function stableJson(value: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))));
}
