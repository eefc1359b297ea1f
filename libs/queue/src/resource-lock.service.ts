import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { QueueService } from './queue.service';

/** How long a lock outlives its holder's last heartbeat: a crashed worker's lock is free after this. */
export const DEFAULT_LOCK_TTL_MS = 30_000;
/** Heartbeats per TTL: two may be lost (a GC pause, a slow Redis) before the lock lapses. */
const HEARTBEATS_PER_TTL = 3;

// Compare-and-act on the owner token, so a holder whose lock lapsed never extends or deletes the
// lock that someone else took since.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface HeldLock {
  readonly key: string;
  /** Whether the last heartbeat still found this holder owning the lock. */
  readonly held: boolean;
  release(): Promise<void>;
}

/**
 * A named lock in Redis that any process can take: SET NX with a TTL, kept alive by a heartbeat
 * while its holder runs. A holder that crashes stops beating and the lock lapses after the TTL, so
 * work is never blocked for good. (Redlock's multi-master quorum is more than one Redis needs.)
 */
@Injectable()
export class ResourceLockService {
  private readonly logger = new Logger(ResourceLockService.name);

  constructor(private readonly queues: QueueService) {}

  private fullKey(name: string): string {
    return `${this.queues.prefix}:lock:${name}`;
  }

  /** The lock, or undefined when someone else holds it. `owner` is recorded for diagnostics. */
  async tryAcquire(name: string, owner: string, ttlMs = DEFAULT_LOCK_TTL_MS): Promise<HeldLock | undefined> {
    const redis = this.queues.redis;
    const key = this.fullKey(name);
    const token = `${owner}:${randomUUID()}`;
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return undefined;
    let held = true;
    const timer = setInterval(() => {
      redis
        .eval(RENEW, 1, key, token, String(ttlMs))
        .then((renewed) => {
          if (renewed === 0 && held) {
            held = false;
            this.logger.warn(`lock ${name} lapsed while ${owner} held it`);
          }
        })
        .catch((error: Error) => this.logger.warn(`lock ${name} heartbeat failed: ${error.message}`));
    }, Math.max(1, Math.floor(ttlMs / HEARTBEATS_PER_TTL)));
    timer.unref();
    return {
      key,
      get held() {
        return held;
      },
      release: async () => {
        clearInterval(timer);
        held = false;
        await redis.eval(RELEASE, 1, key, token);
      },
    };
  }

  /** Who holds the lock now (the owner part of its token), if anyone. */
  async holder(name: string): Promise<string | undefined> {
    const token = await this.queues.redis.get(this.fullKey(name));
    return token ? token.slice(0, token.lastIndexOf(':')) : undefined;
  }
}
