import { loadConfig } from '@scopegraph/config';
import { CypherFiles, MigrationService, Neo4jService, SCOPE_FULLTEXT_INDEX, SCOPE_VECTOR_INDEX } from '@scopegraph/graph';
import { withinRepositories } from '@scopegraph/search';
import { runId } from '../support/processes';

// Against the real Neo4j that `npm test` starts. Every node written here carries this run's repoId
// and only those nodes are deleted afterwards.
describe('Neo4j schema and indexes (real server)', () => {
  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const migrations = new MigrationService(neo4j, config);
  const repoId = runId('graph');
  const dims = config.embedding.dimensions;

  beforeAll(async () => {
    await neo4j.waitUntilReady();
    await migrations.migrate();
  });

  afterAll(async () => {
    await neo4j.runStatement('MATCH (s:Scope {repoId: $repoId}) DETACH DELETE s', { repoId });
    await neo4j.onModuleDestroy();
  });

  it('leaves every index ONLINE, with the vector index at the configured dimensions', async () => {
    const indexes = await neo4j.read<{ name: string; type: string; state: string }>('health/indexes');
    expect(indexes.length).toBeGreaterThan(0);
    for (const index of indexes) expect({ name: index.name, state: index.state }).toEqual({ name: index.name, state: 'ONLINE' });
    expect(indexes.find((i) => i.name === SCOPE_VECTOR_INDEX)?.type).toBe('VECTOR');
    expect(indexes.find((i) => i.name === SCOPE_FULLTEXT_INDEX)?.type).toBe('FULLTEXT');
    const [{ dimensions }] = await neo4j.read<{ dimensions: number }>('graph/vector-index-dimensions', { name: SCOPE_VECTOR_INDEX });
    expect(dimensions).toBe(dims);
  });

  it('is idempotent: a second run applies nothing and every migration is recorded once', async () => {
    expect((await migrations.migrate()).applied).toEqual([]);
    const recorded = await neo4j.runStatement<{ id: string; n: number }>('MATCH (m:SchemaMigration) RETURN m.id AS id, count(*) AS n ORDER BY id');
    expect(recorded.map((r) => r.id)).toEqual(neo4j.cypher.migrations().map((m) => m.id));
    expect(recorded.every((r) => r.n === 1)).toBe(true);
  });

  it('returns the node whose embedding was written first from db.index.vector.queryNodes', async () => {
    const basis = (i: number) => Array.from({ length: dims }, (_, d) => (d === i ? 1 : 0.01));
    const rows = [0, 1, 2, 3].map((i) => ({ id: `${repoId}:v${i}`, embedding: basis(i) }));
    await neo4j.runStatement(
      'UNWIND $rows AS row CREATE (s:Scope {id: row.id, repoId: $repoId, name: row.id}) WITH s, row CALL db.create.setNodeVectorProperty(s, "embedding", row.embedding)',
      { rows, repoId },
    );
    // Each written vector is its own nearest neighbour, whatever else the shared database holds.
    for (const i of [0, 1, 2, 3]) {
      const hits = await neo4j.runStatement<{ id: string; score: number }>(
        'CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score RETURN node.id AS id, score',
        { index: SCOPE_VECTOR_INDEX, k: 3, vector: basis(i) },
      );
      expect(hits[0].id).toBe(`${repoId}:v${i}`);
      expect(hits[0].score).toBeCloseTo(1, 5);
    }
  });

  it('finds a term through the full-text index', async () => {
    const term = `zyx${repoId}`;
    await neo4j.runStatement(
      'CREATE (:Scope {id: $id, repoId: $repoId, name: "parseFileAnalysis", nameTokens: "parse file analysis", source: $source})',
      { id: `${repoId}:ft`, repoId, source: `function parseFileAnalysis() { return "${term}"; }` },
    );
    // The full-text index is eventually consistent: poll briefly rather than assume.
    let ids: string[] = [];
    for (let i = 0; i < 50 && ids.length === 0; i++) {
      const rows = await neo4j.runStatement<{ id: string }>(
        'CALL db.index.fulltext.queryNodes($index, $q) YIELD node WHERE node.repoId = $repoId RETURN node.id AS id',
        { index: SCOPE_FULLTEXT_INDEX, q: term, repoId },
      );
      ids = rows.map((r) => r.id);
      if (ids.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ids).toEqual([`${repoId}:ft`]);
    const byToken = await neo4j.runStatement<{ id: string }>(
      'CALL db.index.fulltext.queryNodes($index, $q) YIELD node WHERE node.repoId = $repoId RETURN node.id AS id',
      { index: SCOPE_FULLTEXT_INDEX, q: 'nameTokens:analysis', repoId },
    );
    expect(byToken.map((r) => r.id)).toContain(`${repoId}:ft`);
    // repoId is indexed too, so a search narrows to repositories inside Lucene (withinRepositories).
    const inRepo = await neo4j.runStatement<{ id: string }>(
      'CALL db.index.fulltext.queryNodes($index, $q) YIELD node RETURN node.id AS id',
      { index: SCOPE_FULLTEXT_INDEX, q: withinRepositories('nameTokens:analysis', [repoId]) },
    );
    expect(inRepo.map((r) => r.id)).toEqual([`${repoId}:ft`]);
    const elsewhere = await neo4j.runStatement<{ id: string }>(
      'CALL db.index.fulltext.queryNodes($index, $q) YIELD node RETURN node.id AS id',
      { index: SCOPE_FULLTEXT_INDEX, q: withinRepositories('nameTokens:analysis', [`${repoId}x`]) },
    );
    expect(elsewhere).toEqual([]);
  });

  it('has Neo4j end a read that runs past NEO4J_TX_TIMEOUT_MS, and does not retry it', async () => {
    const short = new Neo4jService({ ...config, neo4j: { ...config.neo4j, txTimeoutMs: 300 } }, new CypherFiles());
    try {
      // Counts two billion rows: far longer than the timeout.
      const started = Date.now();
      const error = await short.readRendered('UNWIND range(1, 2000000000) AS x WITH x WHERE x < 0 RETURN count(*) AS n').then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
      // Neo4j's TransactionTimedOut becomes the domain's QUERY_LIMIT_EXCEEDED, thrown at once (no driver retries).
      expect(error?.code).toBe('QUERY_LIMIT_EXCEEDED');
      expect(error?.message).toMatch(/NEO4J_TX_TIMEOUT_MS/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await short.onModuleDestroy();
    }
  });

  it('carries parameters and results larger than one socket write intact (64 KB Bolt writes)', async () => {
    // Multi-byte characters and a size that is no multiple of the buffer: chunks split mid-character.
    const text = Array.from({ length: 60_000 }, (_, i) => `${i % 10}é→${i % 7 === 0 ? '\n' : ''}`).join('');
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * 65_534);
    const id = `${repoId}:big`;
    await neo4j.runStatement('CREATE (s:Scope {id: $id, repoId: $repoId, name: "big", source: $text})', { id, repoId, text });
    const [row] = await neo4j.runStatement<{ source: string; length: number }>('MATCH (s:Scope {id: $id}) RETURN s.source AS source, size(s.source) AS length', { id });
    expect(row.length).toBe(text.length);
    expect(row.source === text).toBe(true);
  });
});
