import { CanActivate, ExecutionContext, ForbiddenException, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { FORBIDDEN_ADMIN, GatedRequest, Refusal, Role, ROLE_ORDER } from './access';

const REQUIRED_ROLE = 'scopegraph:requiredRole';

/** Marks an operation that changes what is indexed or runs diagnostics: the admin key only. */
export const AdminOnly = () => SetMetadata(REQUIRED_ROLE, 'admin' satisfies Role);

/** What a GraphQL context carries: the HTTP request (gated by accessGate) or the socket's role. */
export interface ApiContext {
  req?: GatedRequest;
  role?: Role;
}

function refusalError(refusal: Refusal): GraphQLError {
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
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
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
    if (ROLE_ORDER[role] < ROLE_ORDER[required]) {
      if (graphql) throw refusalError(FORBIDDEN_ADMIN);
      throw new ForbiddenException(FORBIDDEN_ADMIN.message);
    }
    return true;
  }
}
