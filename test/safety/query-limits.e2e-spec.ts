import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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

  // An index job's own reads walk the whole repository (what is stored, what lacks a vector): at a
  // million scopes under load one ran past the request limit and stopped an incremental index.
  describe('reads of an index job', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-cypher-'));
    fs.mkdirSync(path.join(dir, 'job'));
    // ~1 s of work on this machine: well past 200 ms, well under the job limit.
    fs.writeFileSync(path.join(dir, 'job', 'slow.cypher'), 'UNWIND range(1, $n) AS x WITH x WHERE x % 7 = 99 RETURN count(*) AS n\n');
    const files = new CypherFiles(dir);
    const jobAfterRequestLimit = new Neo4jService({ ...config, neo4j: { ...config.neo4j, txTimeoutMs: 200 } }, files);
    const impatientJob = new Neo4jService({ ...config, neo4j: { ...config.neo4j, jobTxTimeoutMs: 200 } }, files);
    afterAll(async () => {
      await jobAfterRequestLimit.onModuleDestroy();
      await impatientJob.onModuleDestroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('are bounded by NEO4J_JOB_TX_TIMEOUT_MS, not by the request limit', async () => {
      const started = performance.now();
      expect(await jobAfterRequestLimit.readForJob<{ n: number }>('job/slow', { n: 20_000_000 })).toEqual([{ n: 0 }]);
      // The same read as a request is ended at 200 ms: the job read really ran past that limit.
      expect(performance.now() - started).toBeGreaterThan(200);
      await expect(jobAfterRequestLimit.read('job/slow', { n: 20_000_000 })).rejects.toMatchObject({ code: DomainErrorCode.QueryLimitExceeded });
    });

    it('end past their own limit with QUERY_LIMIT_EXCEEDED naming NEO4J_JOB_TX_TIMEOUT_MS', async () => {
      const error = await impatientJob.readForJob('job/slow', { n: 1_000_000_000 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).message).toMatch(/200 ms, NEO4J_JOB_TX_TIMEOUT_MS/);
    });
  });
});
