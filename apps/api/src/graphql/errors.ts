import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { GraphQLFormattedError, GraphQLError } from 'graphql';
import type { ValidationError } from 'class-validator';
import { ConfigError } from '@scopegraph/config';
import { UnknownJobError } from '@scopegraph/queue';

const logger = new Logger('GraphQL');

export enum ErrorCode {
  BadUserInput = 'BAD_USER_INPUT',
  NotFound = 'NOT_FOUND',
  Unauthenticated = 'UNAUTHENTICATED',
  Internal = 'INTERNAL_SERVER_ERROR',
  GraphqlValidation = 'GRAPHQL_VALIDATION_FAILED',
  GraphqlParse = 'GRAPHQL_PARSE_FAILED',
}

/** A user-facing error: its message is shown as is, with the offending field when there is one. */
export class UserInputError extends GraphQLError {
  constructor(message: string, field?: string) {
    super(message, { extensions: { code: ErrorCode.BadUserInput, ...(field ? { field } : {}) } });
  }
}

/**
 * class-validator failures as one BAD_USER_INPUT error whose `field` is the path of the first
 * offending field (`input.topK`), with every message joined.
 */
export function validationError(errors: ValidationError[]): UserInputError {
  const messages: string[] = [];
  let first: string | undefined;
  const walk = (list: ValidationError[], prefix: string) => {
    for (const e of list) {
      const path = prefix ? `${prefix}.${e.property}` : e.property;
      for (const m of Object.values(e.constraints ?? {})) {
        messages.push(m.startsWith(e.property) ? `${path}${m.slice(e.property.length)}` : `${path}: ${m}`);
        first ??= path;
      }
      walk(e.children ?? [], path);
    }
  };
  walk(errors, '');
  return new UserInputError(messages.join('; ') || 'invalid input', first);
}

/** Something the client named does not exist. */
export class NotFoundError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: ErrorCode.NotFound } });
  }
}

const PASSTHROUGH = new Set<string>([
  ErrorCode.BadUserInput,
  ErrorCode.NotFound,
  ErrorCode.Unauthenticated,
  ErrorCode.GraphqlValidation,
  ErrorCode.GraphqlParse,
]);

/**
 * Maps every error leaving the API to a stable code. Known user errors keep their message;
 * anything else is logged here and reaches the client as a generic internal error, never a stack.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  const code = String(formatted.extensions?.code ?? '');
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };

  if (original instanceof UnknownJobError) {
    return { ...base, message: original.message, extensions: { code: ErrorCode.NotFound } };
  }
  if (original instanceof HttpException) {
    const status = original.getStatus();
    const response = original.getResponse() as { message?: string | string[] } | string;
    const detail = typeof response === 'string' ? response : response.message;
    const message = Array.isArray(detail) ? detail.join('; ') : (detail ?? original.message);
    if (status === HttpStatus.BAD_REQUEST) return { ...base, message, extensions: { code: ErrorCode.BadUserInput } };
    if (status === HttpStatus.UNAUTHORIZED || status === HttpStatus.FORBIDDEN)
      return { ...base, message, extensions: { code: ErrorCode.Unauthenticated } };
    if (status === HttpStatus.NOT_FOUND) return { ...base, message, extensions: { code: ErrorCode.NotFound } };
  }
  if (PASSTHROUGH.has(code)) {
    const { stacktrace: _drop, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    return { ...base, extensions };
  }
  if (original instanceof ConfigError) logger.error(original.message);
  else logger.error(`unexpected error at ${formatted.path?.join('.') ?? '?'}: ${(original as Error)?.stack ?? String(original)}`);
  return { message: 'Internal server error', path: formatted.path, extensions: { code: ErrorCode.Internal } };
}
