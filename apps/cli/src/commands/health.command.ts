import { ApiClient } from '../client';

export const HEALTH_QUERY = `{ health { ok neo4j { ok version edition error indexes { name type state online } } redis { ok version error } queues { name waiting active delayed failed } } }`;

interface HealthData {
  health: {
    ok: boolean;
    neo4j: { ok: boolean; version?: string; edition?: string; error?: string; indexes: { name: string; type: string; state: string; online: boolean }[] };
    redis: { ok: boolean; version?: string; error?: string };
    queues: { name: string; waiting: number; active: number; delayed: number; failed: number }[];
  };
}

export async function healthCommand(opts: { json?: boolean }, client = new ApiClient()): Promise<number> {
  const { health } = await client.request<HealthData>(HEALTH_QUERY);
  if (opts.json) {
    process.stdout.write(JSON.stringify(health, null, 2) + '\n');
  } else {
    const n = health.neo4j;
    const lines = [
      `status   ${health.ok ? 'ok' : 'DEGRADED'}`,
      `neo4j    ${n.ok ? `${n.version} (${n.edition})` : `DOWN: ${n.error}`}`,
      ...n.indexes.filter((i) => i.type !== 'LOOKUP').map((i) => `  index  ${i.name.padEnd(24)} ${i.type.padEnd(9)} ${i.state}`),
      `redis    ${health.redis.ok ? health.redis.version : `DOWN: ${health.redis.error}`}`,
      ...health.queues.map((q) => `  queue  ${q.name.padEnd(8)} waiting ${q.waiting}  active ${q.active}  delayed ${q.delayed}  failed ${q.failed}`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  return health.ok ? 0 : 2;
}
