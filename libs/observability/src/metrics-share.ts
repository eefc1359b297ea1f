import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { AggregatorRegistry, Registry } from 'prom-client';
import { metricsRegistry } from './metrics';

/** A process whose snapshot is older than this is gone (crashed or stopped) and is left out. */
export const SNAPSHOT_MAX_AGE_MS = 60_000;
/** How often a worker publishes between jobs; it also publishes after every job. */
export const PUBLISH_INTERVAL_MS = 5_000;

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

interface Snapshot {
  at: number;
  metrics: MetricsJson;
}

/**
 * Processes share their counters through one Redis hash (field: process, value: JSON snapshot) under
 * the queue prefix. The API sums every fresh snapshot with its own; counters and histograms add up
 * across processes, which is exactly what a per-deployment rate or percentile needs.
 */
export class MetricsShare {
  readonly instance = `${hostname()}:${process.pid}`;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(registry: Registry = metricsRegistry): Promise<void> {
    const snapshot: Snapshot = { at: this.now(), metrics: await registry.getMetricsAsJSON() };
    await this.redis.hset(this.key, this.instance, JSON.stringify(snapshot));
  }

  async withdraw(): Promise<void> {
    await this.redis.hdel(this.key, this.instance);
  }

  /** This process's registry summed with every other process's fresh snapshot, as exposition text. */
  async collect(local: Registry = metricsRegistry): Promise<{ contentType: string; body: string }> {
    const all = await this.redis.hgetall(this.key);
    const others: MetricsJson[] = [];
    const stale: string[] = [];
    for (const [instance, json] of Object.entries(all)) {
      if (instance === this.instance) continue;
      try {
        const snapshot = JSON.parse(json) as Snapshot;
        if (this.now() - snapshot.at > SNAPSHOT_MAX_AGE_MS) stale.push(instance);
        else others.push(snapshot.metrics);
      } catch {
        stale.push(instance);
      }
    }
    if (stale.length) await this.redis.hdel(this.key, ...stale);
    const merged = AggregatorRegistry.aggregate([await local.getMetricsAsJSON(), ...others]);
    return { contentType: local.contentType, body: await merged.metrics() };
  }
}
