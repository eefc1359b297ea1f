import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { AdminOnly } from '../auth/api-key.guard';
import { KeyStore } from '../auth/key-store';
import { ApiKeyInfo, AuditEvent, AuditLogArgs, CreateApiKeyInput, CreatedApiKey } from './access.model';
import { AuditService } from './audit.service';

@Resolver()
export class AccessResolver {
  constructor(
    private readonly keys: KeyStore,
    private readonly audit: AuditService,
  ) {}

  @AdminOnly()
  @Mutation(() => CreatedApiKey, { description: 'Creates an API key scoped to repositories with a role; the key is returned this once' })
  async createApiKey(@Args('input') input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const { key, stored } = await this.keys.create(input.role, input.repositories, input.name ?? null);
    return { key, info: stored as ApiKeyInfo };
  }

  @AdminOnly()
  @Mutation(() => ApiKeyInfo, { description: 'Revokes a key; every API replica refuses it within a second' })
  async revokeApiKey(@Args('id', { type: () => ID }) id: string): Promise<ApiKeyInfo> {
    const row = await this.keys.revoke(id);
    if (!row) throw new DomainError(DomainErrorCode.ApiKeyNotFound, `no API key with id ${JSON.stringify(id.slice(0, 100))}`, 'id');
    return row as ApiKeyInfo;
  }

  @AdminOnly()
  @Query(() => [ApiKeyInfo], { description: 'Keys created through the API (never their secrets)' })
  async apiKeys(): Promise<ApiKeyInfo[]> {
    return (await this.keys.list()) as ApiKeyInfo[];
  }

  @AdminOnly()
  @Query(() => [AuditEvent], { description: 'Audited mutations, newest first' })
  auditLog(@Args() args: AuditLogArgs): Promise<AuditEvent[]> {
    return this.audit.list(args);
  }
}
