import { ArgumentsHost, Catch, HttpException, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { GraphQLError } from 'graphql';
import type { ServerResponse } from 'node:http';
import { DomainError } from '@scopegraph/errors';

/** Longest piece of caller input a log line carries. */
export const LOGGED_INPUT_CHARS = 200;

export function truncate(text: string, max = LOGGED_INPUT_CHARS): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max)}… (${oneLine.length} chars)` : oneLine;
}

/** Errors the caller caused: expected, logged at debug, never with a stack. */
function isClientError(exception: unknown): boolean {
  if (exception instanceof DomainError) return true;
  if (exception instanceof HttpException) return exception.getStatus() < 500;
  if (exception instanceof GraphQLError) return ['UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED', 'BAD_USER_INPUT', 'QUERY_TOO_COMPLEX'].includes(String(exception.extensions?.code));
  return false;
}

/** body-parser's errors (too large, bad JSON) carry a 4xx status but are no HttpException. */
function bodyParserStatus(exception: unknown): number | undefined {
  const status = (exception as { status?: unknown; type?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && typeof (exception as { type?: unknown }).type === 'string' ? status : undefined;
}

/**
 * Nest's default handler logs every error a resolver throws at ERROR with its stack, user input and
 * all. Here GraphQL errors go on to the one mapping (graphql/errors.ts formatError, which logs the
 * unexpected ones once); client errors are logged at debug as one truncated line. HTTP routes keep
 * Nest's behaviour, except that a body-parser 4xx is answered in the GraphQL error shape without a
 * stack in the log.
 */
@Catch()
export class ApiExceptionFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('Requests');

  override catch(exception: unknown, host: ArgumentsHost): unknown {
    if (isClientError(exception)) this.logger.debug(`client error: ${truncate((exception as Error).message)}`);
    if (host.getType<string>() === 'graphql') return exception;
    const status = bodyParserStatus(exception);
    if (status !== undefined) {
      const res = host.switchToHttp().getResponse<ServerResponse>();
      this.logger.warn(`refused request body: ${truncate((exception as Error).message)}`);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ errors: [{ message: (exception as Error).message, extensions: { code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST' } }] }));
      return undefined;
    }
    return super.catch(exception, host);
  }
}
