import { ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerStorageService } from '@nestjs/throttler';
import { GraphQLError } from 'graphql';
import type { ServerResponse } from 'node:http';
import { rateLimited } from '@scopegraph/observability';
import type { ApiContext } from './api-key.guard';
import { type GatedRequest, type Refusal, writeRefusal } from './access';

export const RATE_LIMITED = 'RATE_LIMITED';

/**
 * The budget a request counts against: the configured key that matched (accessGate's principal), else
 * the client address. A key nobody configured is not a principal, so inventing one buys nothing.
 */
export function rateTracker(req: { principal?: string; ip?: string; socket?: { remoteAddress?: string } }): string {
  return req.principal ?? `ip:${req.ip ?? req.socket?.remoteAddress ?? 'unknown'}`;
}

/** One counter per principal for every operation and route (the library's default is one per handler). */
export function rateKey(tracker: string): string {
  return `rate:${tracker}`;
}

function rateLimitedMessage(limit: number, ttlMs: number, retryAfterS: number): string {
  return `rate limit of ${limit} operations per ${Math.round(ttlMs / 1000)} s reached; retry in ${retryAfterS} s`;
}

/**
 * @nestjs/throttler for GraphQL and HTTP alike, counted per principal (see rateTracker). Every root
 * field counts, so 20 aliased searches cost 20. Counters live in this process: with several replicas
 * each allows the limit (a Redis-backed ThrottlerStorage would make it global; it would also make
 * every request depend on Redis). Subscriptions over graphql-ws are not counted here: the socket
 * handshake is, and each subscription waits on a job the caller had to start.
 * Responses carry RateLimit-Limit / -Remaining / -Reset (seconds) and, once refused, Retry-After.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

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
    return rateTracker(req);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return rateKey(tracker);
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const retryAfterS = Math.max(1, Math.ceil(detail.timeToBlockExpire ?? detail.timeToExpire));
    const message = rateLimitedMessage(detail.limit, detail.ttl, retryAfterS);
    const graphql = context.getType<string>() === 'graphql';
    rateLimited.inc({ transport: graphql ? 'graphql' : 'http' });
    if (graphql) {
      throw new GraphQLError(message, { extensions: { code: RATE_LIMITED, retryAfterS, http: { status: HttpStatus.TOO_MANY_REQUESTS } } });
    }
    throw new HttpException({ message, code: RATE_LIMITED }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Answers a principal that is already over its limit before anything else runs: no body parsing, no
 * GraphQL parse or validation, no request log line. Only reads the guard's counters, so the guard
 * stays the one place that counts; a 429 costs a map lookup instead of a whole request.
 */
export function rateGate(storage: ThrottlerStorageService, limit: number, ttlMs: number) {
  return (req: GatedRequest & { ip?: string }, res: ServerResponse, next: () => void): void => {
    const record = storage.storage.get(rateKey(rateTracker(req)));
    const now = Date.now();
    if (!record?.isBlocked || record.blockExpiresAt <= now) return next();
    const retryAfterS = Math.max(1, Math.ceil((record.blockExpiresAt - now) / 1000));
    rateLimited.inc({ transport: 'gate' });
    const refusal: Refusal = {
      status: 429,
      code: RATE_LIMITED,
      message: rateLimitedMessage(limit, ttlMs, retryAfterS),
      headers: { 'retry-after': String(retryAfterS), 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0', 'ratelimit-reset': String(retryAfterS) },
      extensions: { retryAfterS },
    };
    writeRefusal(req, res, refusal);
  };
}
