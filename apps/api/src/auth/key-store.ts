import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';
import { Neo4jService } from '@scopegraph/graph';
import { Access, Role, STORED_KEY_PREFIX } from './access';

/** A stored key as listed (never its secret nor its hash). */
export interface StoredKey {
  id: string;
  name: string | null;
  role: Role;
  repositories: string[];
  createdAt: string;
  revokedAt: string | null;
}

/**
 * How long a looked-up key is trusted without asking Neo4j again. Revocation must reach every API
 * replica within a second: a cache shorter than that needs no invalidation channel at all (a Redis
 * pub/sub message would add a connection every replica depends on for the same guarantee), and one
 * indexed lookup per key per half second costs Neo4j nothing measurable.
 */
export const KEY_CACHE_MS = 500;

/** The secrets are 32 random bytes, so a plain SHA-256 is enough (no password stretching needed). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

@Injectable()
export class KeyStore {
  private readonly cache = new Map<string, { at: number; access: Access | undefined }>();

  constructor(
    private readonly neo4j: Neo4jService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(role: Role, repositories: string[], name: string | null): Promise<{ key: string; stored: StoredKey }> {
    const id = randomBytes(6).toString('hex');
    const key = `${STORED_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [stored] = await this.neo4j.write<StoredKey>('access/create-key', { id, hash: hashKey(key), role, repositories, name });
    return { key, stored };
  }

  list(): Promise<StoredKey[]> {
    return this.neo4j.read<StoredKey>('access/list-keys');
  }

  async revoke(id: string): Promise<StoredKey | undefined> {
    const [row] = await this.neo4j.write<StoredKey>('access/revoke-key', { id });
    this.cache.clear();
    return row;
  }

  /** The access a presented stored key grants; undefined when unknown or revoked. */
  readonly lookup = async (key: string): Promise<Access | undefined> => {
    const hash = hashKey(key);
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && now - hit.at < KEY_CACHE_MS) return hit.access;
    const [row] = await this.neo4j.read<{ id: string; role: Role; repositories: string[]; revoked: boolean }>('access/key-by-hash', { hash });
    const access = row && !row.revoked ? { role: row.role, keyId: row.id, repositories: row.repositories } : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { at: now, access });
    return access;
  };
}
