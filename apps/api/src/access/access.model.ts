import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ArrayMaxSize, ArrayMinSize, IsIn, IsInt, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';

export enum KeyRole {
  read = 'read',
  write = 'write',
  admin = 'admin',
}
registerEnumType(KeyRole, { name: 'KeyRole', description: 'read: search, scope, neighborhood, ask, subscriptions; write: also index and rerank; admin: also keys, delete, audit' });

@InputType()
export class CreateApiKeyInput {
  @Field(() => [String], { description: 'Repository names or globs (* and ?) the key may see; ["*"] for all' })
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(/^[A-Za-z0-9._*?@/-]{1,200}$/, { each: true, message: 'each repository pattern is a name or a glob of letters, digits, . _ - / @ * ?' })
  repositories: string[];

  @Field(() => KeyRole)
  @IsIn(Object.values(KeyRole))
  role: KeyRole;

  @Field({ nullable: true, description: 'A label for listings (who or what uses the key)' })
  @IsOptional()
  @MaxLength(200)
  name?: string;
}

@ObjectType()
export class ApiKeyInfo {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true }) name: string | null;
  @Field(() => KeyRole) role: KeyRole;
  @Field(() => [String]) repositories: string[];
  @Field() createdAt: string;
  @Field(() => String, { nullable: true }) revokedAt: string | null;
}

@ObjectType()
export class CreatedApiKey {
  @Field({ description: 'The key itself: shown this once, stored only as a hash' }) key: string;
  @Field(() => ApiKeyInfo) info: ApiKeyInfo;
}

@ArgsType()
export class AuditLogArgs {
  @Field(() => String, { nullable: true }) keyId?: string | null;
  @Field(() => String, { nullable: true }) repository?: string | null;
  @Field(() => String, { nullable: true, description: 'The mutation, e.g. indexRepository' }) operation?: string | null;
  @Field(() => String, { nullable: true, description: 'ok, error or refused' }) outcome?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO time: only events at or after it' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, { message: 'since must be an ISO date or date-time' })
  since?: string | null;
  @Field(() => Int, { defaultValue: 0 }) @IsInt() @Min(0) @Max(1_000_000) offset: number = 0;
  @Field(() => Int, { defaultValue: 50 }) @IsInt() @Min(1) @Max(500) limit: number = 50;
}

@ObjectType()
export class AuditEvent {
  @Field(() => ID) id: string;
  @Field() at: string;
  @Field({ description: 'The key id (env:admin, env:read, local, or a created key id), never the key' }) keyId: string;
  @Field() operation: string;
  @Field(() => String, { nullable: true }) repository: string | null;
  @Field({ description: 'ok, error or refused' }) outcome: string;
  @Field(() => String, { nullable: true }) errorCode: string | null;
}
