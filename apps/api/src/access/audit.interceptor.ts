import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError } from '@scopegraph/errors';
import { accessOf, auditedRepository } from '../auth/scope';
import { AuditService } from './audit.service';

/**
 * Every GraphQL mutation, whoever adds it, is recorded once it ends: time, key id (never the key),
 * the repository its arguments name, and the outcome. Queries and subscriptions are not audited.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly audit: AuditService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== 'graphql') return next.handle();
    const gql = GqlExecutionContext.create(context);
    if (gql.getInfo()?.parentType?.name !== 'Mutation') return next.handle();
    const operation = gql.getInfo().fieldName as string;
    const args = gql.getArgs() as Record<string, unknown>;
    const keyId = accessOf(context)?.keyId ?? 'unknown';
    const repository = auditedRepository(args);
    const run = async (): Promise<unknown> => {
      try {
        const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
        await this.audit.record({ keyId, operation, repository, outcome: 'ok', errorCode: null });
        return result;
      } catch (error) {
        const code = error instanceof DomainError ? error.code : error instanceof GraphQLError ? String(error.extensions?.code ?? 'ERROR') : 'ERROR';
        await this.audit.record({ keyId, operation, repository, outcome: 'error', errorCode: code });
        throw error;
      }
    };
    return from(run());
  }
}
