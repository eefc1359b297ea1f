import { loadConfig } from '@scopegraph/config';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { CypherFiles, Neo4jService } from '@scopegraph/graph';

// One read cannot starve the others: Neo4j ends a read past NEO4J_TX_TIMEOUT_MS or past the memory one
// transaction may hold (db.memory.transaction.max, written by scripts/services.sh), and the caller gets
// a coded client error at once instead of a driver retry loop re-running the same costly work.
describe('per-query limits on the real Neo4j', () => {
  const config = loadConfig();
  const neo4j = new Neo4jService(config, new CypherFiles());
  const impatient = new Neo4jService({ ...config, neo4j: { ...config.neo4j, txTimeoutMs: 200 } }, new CypherFiles());

  beforeAll(() => neo4j.waitUntilReady());
  afterAll(async () => {
    await neo4j.onModuleDestroy();
    await impatient.onModuleDestroy();
  });

  it('runs with a per-transaction memory limit', async () => {
    const [setting] = await neo4j.runStatement<{ value: string }>("SHOW SETTINGS YIELD name, value WHERE name = 'db.memory.transaction.max' RETURN value");
    expect(setting.value).not.toBe('0B');
  });

  it('ends a read that needs more memory than one transaction may hold with QUERY_LIMIT_EXCEEDED, and the next read runs', async () => {
    const error = await neo4j.readRendered('UNWIND range(1, 100000000) AS x RETURN size(collect(x)) AS n').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(DomainErrorCode.QueryLimitExceeded);
    expect((error as DomainError).message).toMatch(/NEO4J_TX_MEMORY_MAX/);
    expect(await neo4j.readRendered<{ ok: number }>('RETURN 1 AS ok')).toEqual([{ ok: 1 }]);
  });

  it('ends a read that runs past NEO4J_TX_TIMEOUT_MS with QUERY_LIMIT_EXCEEDED naming the setting', async () => {
    const error = await impatient.readRendered('UNWIND range(1, 1000000000) AS x WITH x WHERE x % 7 = 99 RETURN count(*) AS n').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(DomainErrorCode.QueryLimitExceeded);
    expect((error as DomainError).message).toMatch(/200 ms, NEO4J_TX_TIMEOUT_MS/);
    expect(await impatient.readRendered<{ ok: number }>('RETURN 1 AS ok')).toEqual([{ ok: 1 }]);
  });
});
