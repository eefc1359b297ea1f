import { Injectable, Logger } from '@nestjs/common';
import { Neo4jService } from '@scopegraph/graph';
import { QueueCounts, QueueService } from '@scopegraph/queue';

export interface IndexHealth {
  name: string;
  type: string;
  state: string;
  online: boolean;
  populationPercent: number;
  labelsOrTypes: string[];
  properties: string[];
}

export interface HealthReport {
  ok: boolean;
  neo4j: { ok: boolean; version?: string; edition?: string; indexes: IndexHealth[]; error?: string };
  redis: { ok: boolean; version?: string; error?: string };
  queues: QueueCounts[];
}

/**
 * ioredis's words for a connection that is down ("Stream isn't writeable and enableOfflineQueue
 * options is false") say how the client is configured, not what is wrong: this says what is.
 */
export function describeRedisError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/ECONNREFUSED/.test(message)) return 'Redis refused the connection: is it running at REDIS_URL / REDIS_PORT? (npm run services:up starts it)';
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return 'Redis host not found: check REDIS_URL';
  if (/Command timed out|ETIMEDOUT/.test(message)) return 'Redis did not answer in time (REDIS_COMMAND_TIMEOUT_MS): it is overloaded, paused or unreachable';
  if (/Stream isn't writeable|enableOfflineQueue|Connection is closed|max retries per request/.test(message)) return 'not connected to Redis: the connection is down and being retried';
  if (/NOAUTH|WRONGPASS/.test(message)) return 'Redis refused the credentials in REDIS_URL';
  return `Redis check failed: ${message.slice(0, 200)}`;
}

/** The check's answer, or the fallback once the deadline passes (the check itself may finish later, unobserved). */
function withDeadline<T>(check: Promise<T>, ms: number, fallback: (ms: number) => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback(ms)), ms);
  });
  return Promise.race([check, deadline]).finally(() => clearTimeout(timer));
}

/** One service answers "is everything up": the GraphQL health query and the worker's probe job use it. */
@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);

  constructor(
    private readonly neo4j: Neo4jService,
    private readonly queues: QueueService,
  ) {}

  async neo4jComponents(): Promise<{ version: string; edition: string }> {
    const rows = await this.neo4j.read<{ name: string; version: string; edition: string }>('health/components');
    const kernel = rows.find((r) => r.name === 'Neo4j Kernel') ?? rows[0];
    return { version: kernel.version, edition: kernel.edition };
  }

  /** Every check answers within this, so health names what is down instead of waiting on it. */
  static readonly CHECK_DEADLINE_MS = 1_500;

  async report(): Promise<HealthReport> {
    const [neo4j, redis, queues] = await Promise.all([
      withDeadline(this.neo4jHealth(), HealthService.CHECK_DEADLINE_MS, (ms) => ({ ok: false, indexes: [], error: `no answer within ${ms} ms` })),
      withDeadline(this.redisHealth(), HealthService.CHECK_DEADLINE_MS, (ms) => ({ ok: false, error: `Redis did not answer within ${ms} ms: it is overloaded, paused or unreachable` })),
      withDeadline(this.queueCounts(), HealthService.CHECK_DEADLINE_MS, () => []),
    ]);
    return { ok: neo4j.ok && redis.ok && neo4j.indexes.every((i) => i.online), neo4j, redis, queues };
  }

  private async neo4jHealth(): Promise<HealthReport['neo4j']> {
    try {
      const [components, indexes] = await Promise.all([
        this.neo4jComponents(),
        this.neo4j.read<Omit<IndexHealth, 'online'>>('health/indexes'),
      ]);
      return {
        ok: true,
        ...components,
        indexes: indexes.map((i) => ({
          ...i,
          labelsOrTypes: i.labelsOrTypes ?? [],
          properties: i.properties ?? [],
          online: i.state === 'ONLINE',
        })),
      };
    } catch (error) {
      this.logger.warn(`Neo4j health check failed: ${(error as Error).message}`);
      return { ok: false, indexes: [], error: (error as Error).message };
    }
  }

  private async redisHealth(): Promise<HealthReport['redis']> {
    try {
      return { ok: true, version: await this.queues.redisVersion() };
    } catch (error) {
      return { ok: false, error: describeRedisError(error) };
    }
  }

  private async queueCounts(): Promise<QueueCounts[]> {
    try {
      return await this.queues.counts();
    } catch {
      return [];
    }
  }
}
