import { CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '@scopegraph/config';

/** Extracts the key from `x-api-key`, `Authorization: Bearer`, or graphql-ws connectionParams. */
export function presentedKey(headers: Record<string, unknown> | undefined): string | undefined {
  if (!headers) return undefined;
  const direct = headers['x-api-key'] ?? headers['X-Api-Key'] ?? headers['apiKey'];
  if (typeof direct === 'string') return direct;
  const auth = headers['authorization'] ?? headers['Authorization'];
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  return undefined;
}

/** HTTP Basic credentials' password: how a browser presents a key to pages it cannot add headers to (/queues). */
export function basicAuthPassword(headers: Record<string, unknown>): string | undefined {
  const auth = headers['authorization'];
  if (typeof auth !== 'string' || !auth.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(auth.slice('Basic '.length), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

/**
 * The one admin check for routes outside GraphQL (the queue board). Until read and admin keys are
 * separate, the admin key is API_KEY; without a key the API is open, as it is for GraphQL (it binds
 * to 127.0.0.1 by default).
 */
export function adminAllowed(config: AppConfig, headers: Record<string, unknown>): boolean {
  const expected = config.api.apiKey;
  if (!expected) return true;
  return keyMatches(expected, presentedKey(headers)) || keyMatches(expected, basicAuthPassword(headers));
}

export function keyMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The key a request presents, for GraphQL (HTTP or graphql-ws) and plain HTTP routes (/mcp, /metrics) alike. */
function keyOf(context: ExecutionContext): string | undefined {
  if (context.getType() === 'http') return presentedKey(context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers);
  const ctx = GqlExecutionContext.create(context).getContext<{ req?: { headers: Record<string, unknown> }; connectionParams?: Record<string, unknown> }>();
  return presentedKey(ctx.req?.headers) ?? presentedKey(ctx.connectionParams);
}

/** When API_KEY is set every operation needs it; when unset the API is open (it binds to 127.0.0.1 by default). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.api.apiKey;
    if (!expected) return true;
    const given = keyOf(context);
    if (!keyMatches(expected, given)) throw new UnauthorizedException('missing or wrong API key (x-api-key header)');
    return true;
  }
}
