import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { QueueService } from '@scopegraph/queue';
import type { ParsedFile, ParsedScope, RawReference } from '../parse/types';

/** What a file's fingerprint stood for when it was last read. */
export interface KnownFingerprint {
  fingerprint: string;
  /** contentRulesKey() of the rules the file was classified under. */
  rulesKey: string;
  contentHash: string;
  nonUtf8: boolean;
}

/** Bump when parser output or the stored shape changes, so stale cache entries are never used. */
export const PARSER_CACHE_VERSION = 3;
const TTL_SECONDS = 30 * 24 * 3600;
/** Keys per MGET: a whole repository's in one reply would hold Redis up for that long. */
const MGET_BATCH = 256;

/** The two parts of a cached parse: the resolution view, and the references it leaves out. */
type Part = 'view' | 'refs';

/** A scope as cached: what resolution and TypeScript's checker read of an unchanged file's scope. */
type CachedScope = Pick<ParsedScope, 'id' | 'name' | 'qualifiedName' | 'kind' | 'startLine' | 'endLine' | 'parentId' | 'exported' | 'owner'>;
export type CachedView = Pick<ParsedFile, 'path' | 'language' | 'contentHash' | 'imports' | 'exports' | 'bindings' | 'references'> & { scopes: CachedScope[] };

const isHeritage = (r: RawReference) => r.kind === 'EXTENDS' || r.kind === 'IMPLEMENTS';

/**
 * Parse results of unchanged files, kept in Redis by path and content hash so a re-index parses
 * only what changed (and any worker can reuse another's work). A miss just re-parses.
 *
 * Only what an unchanged file's parse is still used for is kept, in two parts: the resolution view
 * (its scopes' names, kinds, parents and positions, its imports, exports, typed bindings and
 * EXTENDS/IMPLEMENTS references: what other files' resolution and TypeScript's checker read) and its
 * other references. A re-index that resolves only the changed files reads the views alone (salt's
 * 3,900 files: 21 of 45 MB). Scope text, signatures, docs and hashes are not kept: an unchanged
 * file's scopes are not rewritten.
 *
 * Also each file's fingerprint (size, times, inode) with the content hash read under it, so a
 * re-index need not read and hash files whose fingerprint is unchanged. A fingerprint counts only
 * while its hash is the one the graph holds for the file; a lost one just costs a read.
 */
@Injectable()
export class ParseCache {
  private readonly logger = new Logger(ParseCache.name);

  constructor(private readonly queues: QueueService) {}

  private key(repoId: string, path: string, fileHash: string, part: Part): string {
    const digest = createHash('sha256').update(`${repoId}\u0000${path}\u0000${fileHash}`).digest('hex');
    return `${this.queues.prefix}:parse:v${PARSER_CACHE_VERSION}:${digest}:${part}`;
  }

  /**
   * Cached parses (undefined: a miss). `references: false` reads the resolution views alone: such a
   * parse has only its EXTENDS/IMPLEMENTS references until completed by `references()`.
   */
  async getMany(repoId: string, files: { path: string; fileHash: string }[], references = true): Promise<(ParsedFile | undefined)[]> {
    if (files.length === 0) return [];
    const parts: Part[] = references ? ['view', 'refs'] : ['view'];
    try {
      const values = await this.queues.redis.mget(...files.flatMap((f) => parts.map((part) => this.key(repoId, f.path, f.fileHash, part))));
      return files.map((_, i) => {
        const [view, refs] = [values[i * parts.length], values[i * parts.length + 1]];
        if (!view || (references && !refs)) return undefined;
        const file = fromView(JSON.parse(view) as CachedView);
        if (references) file.references = file.references.concat(JSON.parse(refs!) as RawReference[]);
        return file;
      });
    } catch (error) {
      this.logger.warn(`parse cache unavailable, re-parsing: ${(error as Error).message}`);
      return files.map(() => undefined);
    }
  }

  /** The references (other than EXTENDS/IMPLEMENTS) of cached parses; undefined: a miss. */
  async references(repoId: string, files: { path: string; fileHash: string }[]): Promise<(RawReference[] | undefined)[]> {
    if (files.length === 0) return [];
    try {
      const keys = files.map((f) => this.key(repoId, f.path, f.fileHash, 'refs'));
      const batches: Promise<(string | null)[]>[] = [];
      for (let i = 0; i < keys.length; i += MGET_BATCH) batches.push(this.queues.redis.mget(...keys.slice(i, i + MGET_BATCH)));
      return (await Promise.all(batches)).flat().map((v) => (v ? (JSON.parse(v) as RawReference[]) : undefined));
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

  /**
   * Drops what Redis keeps by the repository's id (its files' fingerprints) when it is deleted. Parses
   * are keyed by a digest of id, path and content and expire on their own TTL.
   */
  async forgetRepository(repoId: string): Promise<void> {
    await this.queues.redis.del(this.fingerprintKey(repoId));
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
        pipeline.set(this.key(repoId, parsed.path, fileHash, 'view'), JSON.stringify(toView(parsed)), 'EX', TTL_SECONDS);
        pipeline.set(this.key(repoId, parsed.path, fileHash, 'refs'), JSON.stringify(parsed.references.filter((r) => !isHeritage(r))), 'EX', TTL_SECONDS);
      }
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(`parse cache write failed: ${(error as Error).message}`);
    }
  }
}

export function toView(f: ParsedFile): CachedView {
  return {
    path: f.path,
    language: f.language,
    contentHash: f.contentHash,
    scopes: f.scopes.map((s) => ({ id: s.id, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, startLine: s.startLine, endLine: s.endLine, parentId: s.parentId, exported: s.exported, ...(s.owner ? { owner: s.owner } : {}) })),
    imports: f.imports,
    exports: f.exports,
    bindings: f.bindings,
    references: f.references.filter(isHeritage),
  };
}

/**
 * A parse from its view: what was not kept is empty. EXTENDS/IMPLEMENTS come first among the
 * references; the resolver handles those before all others whatever their order.
 */
export function fromView(v: CachedView): ParsedFile {
  // One literal with every field (as slim makes them): a spread of the optional ones put them in a
  // separate property array, and a re-index holds every reused file's view until its edges are written.
  const scopes: ParsedScope[] = v.scopes.map((s) => ({
    id: s.id, name: s.name, qualifiedName: s.qualifiedName === s.name ? s.name : s.qualifiedName, kind: s.kind, language: v.language, path: v.path,
    startLine: s.startLine, endLine: s.endLine, signature: '', docComment: null, source: '', contentHash: '', nameTokens: '',
    parentId: s.parentId, exported: s.exported, owner: s.owner || undefined,
  }));
  return { path: v.path, language: v.language, contentHash: v.contentHash, scopes, references: v.references, imports: v.imports, exports: v.exports, bindings: v.bindings, errors: [] };
}
