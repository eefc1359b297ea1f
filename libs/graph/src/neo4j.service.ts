import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import neo4j, { Driver, isRetryableError, ManagedTransaction, RecordShape, Session } from 'neo4j-driver';
import { APP_CONFIG, AppConfig, redactUrl } from '@scopegraph/config';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { widenBoltWrites } from './bolt-writes';
import { CypherFiles } from './cypher-files';

export type Params = Record<string, unknown>;

/** First wait before a read is tried again, doubled each time; the driver's own managed-transaction schedule. */
const READ_RETRY_DELAY_MS = 1_000;
const READ_RETRY_JITTER = 0.2;

/** LIMIT, SKIP and index options need Cypher INTEGERs; a plain JS number travels as a FLOAT. */
export function cypherInt(n: number) {
  return neo4j.int(n);
}

/**
 * The one place that holds the Neo4j driver. Repositories call read()/write() with the name of a
 * file in cypher/ and $parameters; nothing builds Cypher from user text.
 */
@Injectable()
export class Neo4jService implements OnModuleDestroy {
  private readonly logger = new Logger(Neo4jService.name);
  readonly driver: Driver;
  readonly database: string;
  private readonly uri: string;
  /** Reads answer requests: Neo4j ends one that runs longer, so one costly request cannot hold the pool. */
  private readonly readTimeoutMs: number;
  /** Reads of an index job's own bookkeeping: they walk a whole repository, whoever asked for it. */
  private readonly jobReadTimeoutMs: number;
  private readonly maxRetryMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    readonly cypher: CypherFiles,
  ) {
    this.database = config.neo4j.database;
    this.uri = config.neo4j.uri;
    this.readTimeoutMs = config.neo4j.txTimeoutMs;
    this.jobReadTimeoutMs = config.neo4j.jobTxTimeoutMs;
    this.maxRetryMs = config.neo4j.maxRetryMs;
    if (!widenBoltWrites(config.neo4j.boltWriteBuffer)) this.logger.warn('neo4j-driver internals changed: Bolt writes stay at 1,400 bytes a socket write');
    this.driver = neo4j.driver(config.neo4j.uri, neo4j.auth.basic(config.neo4j.user, config.neo4j.password), {
      disableLosslessIntegers: true,
      maxConnectionPoolSize: 50,
      connectionAcquisitionTimeout: 30_000,
      // The driver retries "Neo4j unreachable" like any transient error: bounded, so a request fails
      // with SERVICE_UNAVAILABLE in seconds instead of after the driver's default 30 s.
      maxTransactionRetryTime: config.neo4j.maxRetryMs,
    });
  }

  /** Waits until Neo4j answers, retrying while it starts; fails with the last error after the deadline. */
  async waitUntilReady(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.driver.verifyConnectivity({ database: this.database });
        return;
      } catch (error) {
        if (isAuthError(error) || Date.now() > deadline) {
          throw new Error(`Neo4j is not reachable at ${this.uriForLogs()}: ${(error as Error).message}`);
        }
        if (attempt === 1) this.logger.warn(`waiting for Neo4j at ${this.uriForLogs()} ...`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  read<T extends RecordShape = RecordShape>(name: string, params: Params = {}): Promise<T[]> {
    return this.readAutoCommit<T>(this.cypher.get(name), params, this.readTimeoutMs, 'NEO4J_TX_TIMEOUT_MS');
  }

  /**
   * A read an index job makes for itself (what is stored, what lacks a vector), bounded by
   * NEO4J_JOB_TX_TIMEOUT_MS instead of the per-request limit: it scans the whole repository, so its
   * cost grows with the repository, not with what a user asked.
   */
  readForJob<T extends RecordShape = RecordShape>(name: string, params: Params = {}): Promise<T[]> {
    return this.readAutoCommit<T>(this.cypher.get(name), params, this.jobReadTimeoutMs, 'NEO4J_JOB_TX_TIMEOUT_MS');
  }

  write<T extends RecordShape = RecordShape>(name: string, params: Params = {}): Promise<T[]> {
    return this.writeNamed<T>(name, params);
  }

  /** The text of a cypher/ file, for a statement rendered from several of them (then run by readRendered). */
  text(name: string): string {
    return this.cypher.get(name);
  }

  /**
   * A read whose text was rendered from cypher/ files: with allow-listed constants (relationship
   * types and depths cannot be parameters), or several files joined into one statement. User values
   * still travel only as $parameters.
   */
  readRendered<T extends RecordShape = RecordShape>(statement: string, params: Params = {}): Promise<T[]> {
    return this.readAutoCommit<T>(statement, params, this.readTimeoutMs, 'NEO4J_TX_TIMEOUT_MS');
  }

  /**
   * Plans a named query without running it (EXPLAIN), so Neo4j's plan cache holds it for the first
   * real call. One attempt, no retry: warming is best effort (see plan-warmup.ts). Returns its ms.
   */
  explain(name: string, params: Params = {}, timeoutMs = this.readTimeoutMs): Promise<number> {
    return this.explainRendered(this.cypher.get(name), params, timeoutMs);
  }

  /** As explain, for a statement rendered from cypher/ files (see readRendered). */
  async explainRendered(statement: string, params: Params = {}, timeoutMs = this.readTimeoutMs): Promise<number> {
    const started = performance.now();
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
    try {
      await session.run(`EXPLAIN ${statement}`, params, { timeout: timeoutMs });
      return performance.now() - started;
    } finally {
      await session.close();
    }
  }

  /** For migrations and schema statements whose text comes from cypher/ files, never from users. */
  async runStatement<T extends RecordShape = RecordShape>(statement: string, params: Params = {}): Promise<T[]> {
    const result = await this.driver.executeQuery(statement, params, { database: this.database });
    return result.records.map((r) => r.toObject() as T);
  }

  /**
   * Several named queries in one transaction (all or nothing), with automatic retry of transient
   * errors. A retry may follow an attempt that did commit (its acknowledgement was lost: a dropped
   * connection, a leader switch), so every attempt after the first runs each query's retry-safe
   * text (CypherFiles.retrySafe): work that CREATEs is then not written twice.
   */
  writeTransaction<R>(work: (tx: NamedTx) => Promise<R>): Promise<R> {
    return this.managedWrite(work);
  }

  private async managedWrite<R>(work: (tx: NamedTx) => Promise<R>): Promise<R> {
    const session = this.session('WRITE');
    let attempt = 0;
    try {
      return await session.executeWrite((tx) => {
        if (++attempt > 1) this.logger.warn(`write transaction tried again (attempt ${attempt}): queries that create run their retry-safe twins`);
        return work(new NamedTx(tx, this.cypher, attempt > 1));
      });
    } finally {
      await session.close();
    }
  }

  session(mode: 'READ' | 'WRITE'): Session {
    return this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      // The bookmarks executeQuery keeps: a read in a session sees the writes executeQuery committed
      // (and the other way round), also on a cluster.
      bookmarkManager: this.driver.executeQueryBookmarkManager,
    });
  }

  /**
   * This process's bookmarks: the transactions it has committed (and seen) so far. Another process
   * that adds them (addBookmarks) reads only from a server that has applied those writes: how a
   * search through an API replica sees what a worker's index just wrote, on a cluster too.
   */
  async bookmarks(): Promise<string[]> {
    return [...(await this.driver.executeQueryBookmarkManager.getBookmarks())];
  }

  /** Later reads and writes of this process wait for the writes these bookmarks name (see bookmarks). */
  async addBookmarks(bookmarks: string[]): Promise<void> {
    if (bookmarks.length > 0) await this.driver.executeQueryBookmarkManager.updateBookmarks([], bookmarks);
  }

  async onModuleDestroy(): Promise<void> {
    await this.driver.close();
  }

  /**
   * One named write query as a managed transaction (what executeQuery ran, with the same bookmarks),
   * see writeTransaction for what a retry runs. Writes come from jobs (index, delete) whose size the
   * job bounds; only reads get the timeout.
   */
  private writeNamed<T extends RecordShape>(name: string, params: Params): Promise<T[]> {
    return this.managedWrite((tx) => tx.run<T>(name, params));
  }

  /**
   * A read as one auto-commit query: one message and one round trip, where a managed transaction
   * (executeQuery) sends BEGIN, RUN and COMMIT, each a socket write that Neo4j answers; measured on a
   * search, that was a third of the API's and Neo4j's CPU per request. Reads share executeQuery's
   * bookmarks (they see this process's own writes) and its retry schedule for transient errors and
   * an unreachable Neo4j (bounded by NEO4J_MAX_RETRY_MS): hand-written because the driver's retrying
   * executor only runs managed transactions.
   */
  private async readAutoCommit<T extends RecordShape>(query: string, params: Params, timeoutMs: number, setting: string): Promise<T[]> {
    let firstFailure: number | null = null;
    for (let delay = READ_RETRY_DELAY_MS; ; delay *= 2) {
      const session = this.driver.session({
        database: this.database,
        defaultAccessMode: neo4j.session.READ,
        bookmarkManager: this.driver.executeQueryBookmarkManager,
      });
      try {
        const result = await session.run(query, params, { timeout: timeoutMs });
        return result.records.map((r) => r.toObject() as T);
      } catch (error) {
        // A read past its own limit would fail the same way again, only later and after as much work.
        const limit = queryLimitError(error, timeoutMs, setting);
        if (limit) throw limit;
        firstFailure ??= Date.now();
        if (Date.now() - firstFailure > this.maxRetryMs || !isRetryableError(error)) throw error;
      } finally {
        await session.close();
      }
      await new Promise((resolve) => setTimeout(resolve, delay * (1 - READ_RETRY_JITTER + 2 * READ_RETRY_JITTER * Math.random())));
    }
  }

  private uriForLogs(): string {
    return redactUrl(this.uri);
  }
}

export class NamedTx {
  constructor(
    private readonly tx: ManagedTransaction,
    private readonly cypher: CypherFiles,
    /** This attempt follows one that may have committed: queries run their retry-safe text. */
    readonly retried = false,
  ) {}

  async run<T extends RecordShape = RecordShape>(name: string, params: Params = {}): Promise<T[]> {
    const result = await this.tx.run(this.retried ? this.cypher.retrySafe(name) : this.cypher.get(name), params);
    return result.records.map((r) => r.toObject() as T);
  }
}

/** The per-transaction memory limit (db.memory.transaction.max); the server marks it transient. */
const TX_MEMORY_LIMIT = /db\.memory\.transaction\.max/;

/**
 * A read Neo4j stopped at the limit one query may use (the read timeout, or the per-transaction memory
 * limit), as a client-facing error; null for anything else (the global memory pool running out is
 * transient and left to the driver's retries).
 */
export function queryLimitError(error: unknown, timeoutMs: number, setting = 'NEO4J_TX_TIMEOUT_MS'): DomainError | null {
  const code = (error as { code?: string }).code ?? '';
  const message = (error as { message?: string }).message ?? '';
  if (code.startsWith('Neo.ClientError.Transaction.TransactionTimedOut')) {
    return new DomainError(DomainErrorCode.QueryLimitExceeded, `the query ran longer than the database allows one read (${timeoutMs} ms, ${setting}): narrow it (filters, a smaller topK or expansion)`);
  }
  if (code === 'Neo.TransientError.General.MemoryPoolOutOfMemoryError' && TX_MEMORY_LIMIT.test(message)) {
    return new DomainError(DomainErrorCode.QueryLimitExceeded, 'the query needed more memory than the database allows one transaction (db.memory.transaction.max, NEO4J_TX_MEMORY_MAX): narrow it (filters, a smaller topK or expansion)');
  }
  return null;
}

function isAuthError(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('Neo.ClientError.Security');
}
