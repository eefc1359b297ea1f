import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { QueueService } from '@scopegraph/queue';

const TTL_SECONDS = 30 * 24 * 3600;
const BYTES_PER_FLOAT = 4;

/**
 * Vectors by (model, text hash), shared by every worker and repository through Redis: copies of a
 * file, other branches and re-indexes after a revert find their vectors here instead of running the
 * model again. Stored as raw float32 (a quarter of the JSON size). A Redis failure only costs speed:
 * misses are embedded, failed writes are skipped, both logged.
 */
@Injectable()
export class EmbeddingCache {
  private readonly logger = new Logger(EmbeddingCache.name);

  constructor(private readonly queues: QueueService) {}

  static textHash(model: string, text: string): string {
    return createHash('sha256').update(model).update('\u0000').update(text).digest('hex');
  }

  private key(hash: string): string {
    return `${this.queues.prefix}:emb:${hash}`;
  }

  /** One entry per hash: the vector, or undefined on a miss (or a stored vector of the wrong size). */
  async getMany(hashes: string[], dimensions: number): Promise<(number[] | undefined)[]> {
    if (hashes.length === 0) return [];
    try {
      const values = await this.queues.redis.mgetBuffer(...hashes.map((h) => this.key(h)));
      return values.map((buf) => (buf && buf.length === dimensions * BYTES_PER_FLOAT ? decode(buf) : undefined));
    } catch (error) {
      this.logger.warn(`embedding cache unavailable, embedding everything: ${(error as Error).message}`);
      return hashes.map(() => undefined);
    }
  }

  async setMany(entries: { hash: string; vector: number[] }[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      const pipeline = this.queues.redis.pipeline();
      for (const { hash, vector } of entries) pipeline.set(this.key(hash), Buffer.from(Float32Array.from(vector).buffer), 'EX', TTL_SECONDS);
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(`embedding cache write failed: ${(error as Error).message}`);
    }
  }
}

function decode(buf: Buffer): number[] {
  // Copy out: the Buffer may be a view into a shared pool with any alignment.
  const floats = new Float32Array(buf.length / BYTES_PER_FLOAT);
  for (let i = 0; i < floats.length; i++) floats[i] = buf.readFloatLE(i * BYTES_PER_FLOAT);
  return Array.from(floats);
}
