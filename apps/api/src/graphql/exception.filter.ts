import { ArgumentsHost, BadRequestException, Catch, HttpException, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { GraphQLError } from 'graphql';
import type { IncomingMessage, ServerResponse } from 'node:http';
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

const GRAPHQL_PATH = '/graphql';

interface BodyRefusal {
  status: number;
  code: string;
  message: string;
}

/**
 * A request the HTTP layer refused before GraphQL saw it: body-parser's errors (too large, bad
 * charset) and zlib's (a corrupt gzip body) carry a 4xx status but are no HttpException; Nest turns
 * body-parser's SyntaxError (bad JSON) into a BadRequestException, which on the GraphQL path nothing
 * else raises.
 */
function bodyRefusal(exception: unknown, req: IncomingMessage): BodyRefusal | undefined {
  const e = exception as { status?: unknown; type?: unknown; expose?: unknown; code?: unknown; message?: string };
  let status: number | undefined;
  let message = e?.message ?? 'bad request';
  if (exception instanceof HttpException) {
    if ((req.url ?? '').split('?')[0] !== GRAPHQL_PATH || exception.getStatus() >= 500) return undefined;
    status = exception.getStatus();
    if (exception instanceof BadRequestException && /JSON/.test(message)) message = `request body is not valid JSON: ${message}`;
  } else if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && (typeof e.type === 'string' || e.expose === true)) {
    status = e.status;
    if (typeof e.code === 'string' && e.code.startsWith('Z_')) message = `request body could not be decoded as content-encoding ${String(req.headers['content-encoding'] ?? '?').slice(0, 40)}: ${message}`;
  }
  if (status === undefined) return undefined;
  const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
  return { status, code, message };
}

/**
 * Nest's default handler logs every error a resolver throws at ERROR with its stack, user input and
 * all. Here GraphQL errors go on to the one mapping (graphql/errors.ts formatError, which logs the
 * unexpected ones once); client errors are logged at debug as one truncated line. HTTP routes keep
 * Nest's behaviour, except that a refused body (and any 4xx on the GraphQL path) is answered in the
 * GraphQL error shape with a code, without a stack in the log.
 */
@Catch()
export class ApiExceptionFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('Requests');

  override catch(exception: unknown, host: ArgumentsHost): unknown {
    if (isClientError(exception)) this.logger.debug(`client error: ${truncate((exception as Error).message)}`);
    if (host.getType<string>() === 'graphql') return exception;
    const http = host.switchToHttp();
    const refusal = bodyRefusal(exception, http.getRequest<IncomingMessage>());
    if (refusal) {
      const res = http.getResponse<ServerResponse>();
      // The client's mistake: one short line, not at warn (a client could fill the log with them).
      this.logger.debug(`refused request: ${truncate(refusal.message)}`);
      res.writeHead(refusal.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] }));
      return undefined;
    }
    return super.catch(exception, host);
  }
}
