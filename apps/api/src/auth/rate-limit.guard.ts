import { ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { GraphQLError } from 'graphql';
import { createHash } from 'node:crypto';
import type { ApiContext } from './api-key.guard';
import { rateLimited } from '@scopegraph/observability';
import { presentedKey } from './access';

export const RATE_LIMITED = 'RATE_LIMITED';

/**
 * @nestjs/throttler for GraphQL and HTTP alike, counted per key (per client address without one).
 * Every root field counts, so 20 aliased searches cost 20. Counters live in this process: with several
 * replicas each allows the limit (a Redis-backed ThrottlerStorage would make it global; it would
 * also make every request depend on Redis). Subscriptions over graphql-ws are not counted here: the
 * socket handshake is, and each subscription waits on a job the caller had to start.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== 'graphql') return false;
    return !GqlExecutionContext.create(context).getContext<ApiContext>().req;
  }

  protected override getRequestResponse(context: ExecutionContext): { req: Record<string, any>; res: Record<string, any> } {
    if (context.getType<string>() !== 'graphql') return super.getRequestResponse(context);
    const req = GqlExecutionContext.create(context).getContext<ApiContext>().req as unknown as Record<string, any>;
    // MCP runs operations in-process with the HTTP request only; headers then go nowhere.
    return { req, res: req.res ?? { header: () => undefined, setHeader: () => undefined } };
  }

  protected override async getTracker(req: Record<string, any>): Promise<string> {
    const key = presentedKey(req.headers as Record<string, unknown>);
    // A digest, so the counters never hold a key.
    if (key) return `key:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    return `ip:${req.ip ?? req.socket?.remoteAddress ?? 'unknown'}`;
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const retryAfterS = Math.max(1, Math.ceil(detail.timeToBlockExpire ?? detail.timeToExpire));
    const message = `rate limit of ${detail.limit} operations per ${Math.round(detail.ttl / 1000)} s reached; retry in ${retryAfterS} s`;
    const graphql = context.getType<string>() === 'graphql';
    rateLimited.inc({ transport: graphql ? 'graphql' : 'http' });
    if (graphql) {
      throw new GraphQLError(message, { extensions: { code: RATE_LIMITED, retryAfterS, http: { status: HttpStatus.TOO_MANY_REQUESTS } } });
    }
    throw new HttpException({ message, code: RATE_LIMITED }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
