import { CanActivate, ExecutionContext, ForbiddenException, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { Access, FORBIDDEN_ADMIN, GatedRequest, Refusal, Role, ROLE_ORDER } from './access';
import { AuditService } from '../access/audit.service';
import { accessOf, auditedRepository, maySee, REPOSITORY_ARGS, repositoriesInArgs, unseenRepository } from './scope';

const REQUIRED_ROLE = 'scopegraph:requiredRole';

/** Marks an operation that changes what is indexed or runs diagnostics: the admin key only. */
export const AdminOnly = () => SetMetadata(REQUIRED_ROLE, 'admin' satisfies Role);

/** Marks an operation that adds to what is indexed or spends model calls (index, rerank): write keys and up. */
export const WriteRole = () => SetMetadata(REQUIRED_ROLE, 'write' satisfies Role);

/** /metrics: the admin key or the metrics key (API_METRICS_KEY), nobody else. */
export const MetricsRole = () => SetMetadata(REQUIRED_ROLE, 'metrics' satisfies Role);

/** What a GraphQL context carries: the HTTP request (gated by accessGate) or the socket's role. */
export interface ApiContext {
  req?: GatedRequest;
  role?: Role;
  access?: Access;
}

/** The refusal of an operation that needs `required` (the same words wherever it is checked). */
export function roleRefusal(required: Role): Refusal {
  return required === 'admin' ? FORBIDDEN_ADMIN : { ...FORBIDDEN_ADMIN, message: `this operation needs a ${required === 'metrics' ? 'metrics' : 'write'} or admin key` };
}

/** Whether a role may do what `required` asks. */
export function roleAllows(role: Role, required: Role): boolean {
  return required === 'metrics' ? role === 'metrics' || role === 'admin' : ROLE_ORDER[role] >= ROLE_ORDER[required];
}

export function refusalError(refusal: Refusal): GraphQLError {
  // extensions.http sets the HTTP status of a GraphQL-over-HTTP answer; Apollo strips it from the body.
  return new GraphQLError(refusal.message, { extensions: { code: refusal.code, http: { status: refusal.status } } });
}

const UNAUTHENTICATED: Refusal = { status: 401, code: 'UNAUTHENTICATED', message: 'missing or wrong API key' };

/**
 * Every resolver and controller: the caller's role (decided by accessGate for HTTP, by graphql-ws's
 * onConnect for sockets) must be at least what the handler asks for. A request that somehow reached
 * a handler without a decided role is refused, so a new transport cannot bypass the gate silently.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return this.check(context);
    } catch (error) {
      // A refused mutation is part of the audit trail too (the interceptor only sees ones that ran).
      if (context.getType<string>() === 'graphql') {
        const gql = GqlExecutionContext.create(context);
        if (gql.getInfo()?.parentType?.name === 'Mutation') {
          const code = error instanceof GraphQLError ? String(error.extensions?.code) : ((error as { code?: string }).code ?? 'FORBIDDEN');
          await this.audit.record({ keyId: accessOf(context)?.keyId ?? 'unknown', operation: gql.getInfo().fieldName, repository: auditedRepository(gql.getArgs()), outcome: 'refused', errorCode: code });
        }
      }
      throw error;
    }
  }

  private check(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [context.getHandler(), context.getClass()]) ?? 'read';
    const graphql = context.getType<string>() === 'graphql';
    const role = graphql
      ? (() => {
          const ctx = GqlExecutionContext.create(context).getContext<ApiContext>();
          return ctx.role ?? ctx.req?.role;
        })()
      : context.switchToHttp().getRequest<GatedRequest>().role;
    if (!role) {
      if (graphql) throw refusalError(UNAUTHENTICATED);
      throw new UnauthorizedException(UNAUTHENTICATED.message);
    }
    if (!roleAllows(role, required)) {
      const refusal = roleRefusal(required);
      if (graphql) throw refusalError(refusal);
      throw new ForbiddenException(refusal.message);
    }
    // Repository scopes, for every operation alike: a repository named anywhere in the arguments
    // (see REPOSITORY_ARG_NAMES, or @RepositoryArgs) that the key may not see is answered as unknown.
    if (graphql) {
      const access = accessOf(context);
      if (access?.repositories) {
        const extra = this.reflector.getAllAndOverride<string[] | undefined>(REPOSITORY_ARGS, [context.getHandler(), context.getClass()]) ?? [];
        const args = GqlExecutionContext.create(context).getArgs();
        const hidden = repositoriesInArgs(args, extra).find((name) => !maySee(access, name));
        if (hidden !== undefined) throw unseenRepository(hidden);
      }
    }
    return true;
  }
}
