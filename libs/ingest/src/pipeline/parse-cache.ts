import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { QueueService } from '@scopegraph/queue';
import type { ParsedFile } from '../parse/types';

/** What a file's fingerprint stood for when it was last read. */
export interface KnownFingerprint {
  fingerprint: string;
  /** contentRulesKey() of the rules the file was classified under. */
  rulesKey: string;
  contentHash: string;
  nonUtf8: boolean;
}

/** Bump when parser output changes shape or content, so stale cache entries are never used. */
export const PARSER_CACHE_VERSION = 1;
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Parse results of unchanged files, kept in Redis by path and content hash so a re-index parses
 * only what changed (and any worker can reuse another's work). Scope sources are left out: an
 * unchanged file's scopes are not rewritten, only needed for resolution. A miss just re-parses.
 *
 * Also each file's fingerprint (size, times, inode) with the content hash read under it, so a
 * re-index need not read and hash files whose fingerprint is unchanged. A fingerprint counts only
 * while its hash is the one the graph holds for the file; a lost one just costs a read.
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

  private fingerprintKey(repoId: string): string {
    return `${this.queues.prefix}:fingerprints:${repoId}`;
  }

  async fingerprints(repoId: string): Promise<Map<string, KnownFingerprint>> {
    const out = new Map<string, KnownFingerprint>();
    try {
      const all = await this.queues.redis.hgetall(this.fingerprintKey(repoId));
      for (const [path, value] of Object.entries(all)) {
        const [fingerprint, rulesKey, nonUtf8, contentHash] = value.split('|');
        if (contentHash) out.set(path, { fingerprint, rulesKey, nonUtf8: nonUtf8 === '1', contentHash });
      }
    } catch (error) {
      this.logger.warn(`fingerprints unavailable, reading every file: ${(error as Error).message}`);
    }
    return out;
  }

  async setFingerprints(repoId: string, set: Map<string, KnownFingerprint>, remove: string[]): Promise<void> {
    if (set.size === 0 && remove.length === 0) return;
    const key = this.fingerprintKey(repoId);
    try {
      const pipeline = this.queues.redis.pipeline();
      if (remove.length) pipeline.hdel(key, ...remove);
      if (set.size) {
        pipeline.hset(key, Object.fromEntries([...set].map(([path, f]) => [path, `${f.fingerprint}|${f.rulesKey}|${f.nonUtf8 ? 1 : 0}|${f.contentHash}`])));
      }
      pipeline.expire(key, TTL_SECONDS);
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(`fingerprint write failed: ${(error as Error).message}`);
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
