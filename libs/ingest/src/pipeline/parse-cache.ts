import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { QueueService } from '@scopegraph/queue';
import type { ParsedFile } from '../parse/types';

/** Bump when parser output changes shape or content, so stale cache entries are never used. */
export const PARSER_CACHE_VERSION = 1;
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Parse results of unchanged files, kept in Redis by path and content hash so a re-index parses
 * only what changed (and any worker can reuse another's work). Scope sources are left out: an
 * unchanged file's scopes are not rewritten, only needed for resolution. A miss just re-parses.
 */
@Injectable()
export class ParseCache {
  private readonly logger = new Logger(ParseCache.name);

  constructor(private readonly queues: QueueService) {}

  private key(repoId: string, path: string, fileHash: string): string {
    const digest = createHash('sha256').update(`${repoId}\u0000${path}\u0000${fileHash}`).digest('hex');
    return `${this.queues.prefix}:parse:v${PARSER_CACHE_VERSION}:${digest}`;
  }

  async getMany(repoId: string, files: { path: string; fileHash: string }[]): Promise<(ParsedFile | undefined)[]> {
    if (files.length === 0) return [];
    try {
      const values = await this.queues.redis.mget(...files.map((f) => this.key(repoId, f.path, f.fileHash)));
      return values.map((v) => (v ? (JSON.parse(v) as ParsedFile) : undefined));
    } catch (error) {
      this.logger.warn(`parse cache unavailable, re-parsing: ${(error as Error).message}`);
      return files.map(() => undefined);
    }
  }

  async setMany(repoId: string, entries: { fileHash: string; parsed: ParsedFile }[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      const pipeline = this.queues.redis.pipeline();
      for (const { fileHash, parsed } of entries) {
        const slim: ParsedFile = { ...parsed, scopes: parsed.scopes.map((s) => ({ ...s, source: '' })) };
        pipeline.set(this.key(repoId, parsed.path, fileHash), JSON.stringify(slim), 'EX', TTL_SECONDS);
      }
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(`parse cache write failed: ${(error as Error).message}`);
    }
  }
}
