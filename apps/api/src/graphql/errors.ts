import type { ApolloServerPlugin } from '@apollo/server';
import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { Neo4jError } from 'neo4j-driver';
import { REDIS_UNAVAILABLE } from '@scopegraph/queue';
import { type ExecutionResult, type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ValidationError } from 'class-validator';
import { ConfigError } from '@scopegraph/config';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';

const logger = new Logger('GraphQL');

/** The codes clients see in `extensions.code`. */
export enum ErrorCode {
  BadUserInput = 'BAD_USER_INPUT',
  NotFound = 'NOT_FOUND',
  Unauthenticated = 'UNAUTHENTICATED',
  Forbidden = 'FORBIDDEN',
  Internal = 'INTERNAL_SERVER_ERROR',
  GraphqlValidation = 'GRAPHQL_VALIDATION_FAILED',
  GraphqlParse = 'GRAPHQL_PARSE_FAILED',
  QueryTooComplex = 'QUERY_TOO_COMPLEX',
  RateLimited = 'RATE_LIMITED',
  /** Apollo's own code for a malformed HTTP request (batch, CSRF-blocked GET or text/plain POST, bad JSON). */
  BadRequest = 'BAD_REQUEST',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  /** Automatic persisted queries: the hash is not (or no longer) known; the client resends the query. */
  PersistedQueryNotFound = 'PERSISTED_QUERY_NOT_FOUND',
  PersistedQueryNotSupported = 'PERSISTED_QUERY_NOT_SUPPORTED',
  /** Queued or running work that Redis lost (restarted without its data): start it again. */
  JobLost = 'JOB_LOST',
}

/**
 * The one mapping from domain codes to GraphQL codes. A Record over the enum, so a code added to
 * DomainErrorCode does not compile until it is mapped here.
 */
const GRAPHQL_CODE: Record<DomainErrorCode, ErrorCode> = {
  [DomainErrorCode.InvalidInput]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidText]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidLimit]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidWeight]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidGlob]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidFilter]: ErrorCode.BadUserInput,
  [DomainErrorCode.UnknownRepository]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidExpansion]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidPlan]: ErrorCode.BadUserInput,
  [DomainErrorCode.RerankInvalidOption]: ErrorCode.BadUserInput,
  [DomainErrorCode.RerankInvalidCandidates]: ErrorCode.BadUserInput,
  [DomainErrorCode.RerankInvalidQuestion]: ErrorCode.BadUserInput,
  [DomainErrorCode.RerankNotFound]: ErrorCode.NotFound,
  [DomainErrorCode.InvalidRepositoryName]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidRepositoryPath]: ErrorCode.BadUserInput,
  [DomainErrorCode.InvalidScipIndex]: ErrorCode.BadUserInput,
  [DomainErrorCode.RepositoryNotFound]: ErrorCode.NotFound,
  [DomainErrorCode.ApiKeyNotFound]: ErrorCode.NotFound,
  [DomainErrorCode.JobNotFound]: ErrorCode.NotFound,
  [DomainErrorCode.AskInvalidInput]: ErrorCode.BadUserInput,
  [DomainErrorCode.AskNotFound]: ErrorCode.NotFound,
  [DomainErrorCode.JobLost]: ErrorCode.JobLost,
  [DomainErrorCode.QueryLimitExceeded]: ErrorCode.QueryTooComplex,
};

/** The GraphQL code a domain error reaches clients with. */
export function graphqlCodeOf(code: DomainErrorCode): ErrorCode {
  return GRAPHQL_CODE[code];
}

/**
 * class-validator failures as one error whose `field` is the path of the first offending field
 * (`input.topK`), with every message joined.
 */
export function validationError(errors: ValidationError[]): DomainError {
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
  return new DomainError(DomainErrorCode.InvalidInput, messages.join('; ') || 'invalid input', first);
}

/** Codes that graphql-js and Apollo assign themselves (bad documents, unknown fields): shown as they are. */
const PASSTHROUGH = new Set<string>([
  ErrorCode.GraphqlValidation,
  ErrorCode.GraphqlParse,
  ErrorCode.BadUserInput,
  ErrorCode.Unauthenticated,
  ErrorCode.Forbidden,
  ErrorCode.QueryTooComplex,
  ErrorCode.RateLimited,
  ErrorCode.BadRequest,
  ErrorCode.ServiceUnavailable,
  ErrorCode.PersistedQueryNotFound,
  ErrorCode.PersistedQueryNotSupported,
]);

/**
 * graphql-js's whole message when OverlappingFieldsCanBeMergedRule spends its work budget (many
 * fields of one response name, e.g. `{ __typename }` repeated a thousand times): it names no reason.
 */
const VALIDATION_ABORTED = 'Validation aborted.';
const VALIDATION_ABORTED_REASON =
  'the document is too costly to validate: too many fields share a response name, so checking that they merge stopped at graphql-js\'s work limit; repeat fewer fields';

/**
 * An error graphql-js raised about the request itself (a bad document, variables or operation name),
 * not one a resolver threw: no path, and no cause but graphql-js's own (a variable's coercion error
 * wraps the scalar's). Resolver and result errors always carry a path.
 */
function isRequestError(error: unknown, formatted: GraphQLFormattedError): boolean {
  return error instanceof GraphQLError && !formatted.path && (!error.originalError || error.originalError instanceof GraphQLError);
}

function requestErrorCode(message: string): ErrorCode {
  if (/^Syntax Error:/.test(message)) return ErrorCode.GraphqlParse;
  // Apollo's code for the same mistake over HTTP.
  if (/^Variable "\$/.test(message)) return ErrorCode.BadUserInput;
  return ErrorCode.BadRequest;
}

/** graphql-js's parser message when GRAPHQL_MAX_TOKENS is exceeded (it has no code of its own). */
const TOO_MANY_TOKENS = /^Syntax Error: Document contains more th(?:an|at) \d+ tokens/;
/** graphql-js stops coercing variables after 50 errors with this message and no code. */
const TOO_MANY_VARIABLE_ERRORS = /^Too many errors processing variables/;

/** Neo4j driver codes for "cannot reach the database right now". */
const NEO4J_UNAVAILABLE = new Set(['ServiceUnavailable', 'SessionExpired']);

function isNeo4jUnavailable(error: unknown): boolean {
  return error instanceof Neo4jError && NEO4J_UNAVAILABLE.has(error.code);
}

export function isServiceUnavailable(error: unknown): boolean {
  return isNeo4jUnavailable(error) || (error instanceof Error && REDIS_UNAVAILABLE.test(error.message));
}

function unavailableService(error: unknown): string {
  return isNeo4jUnavailable(error) ? 'Neo4j' : 'Redis';
}

/** Answers 503 when a field failed because Neo4j or Redis is down (the body says which). */
export function serviceUnavailableStatusPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          if (response.body.singleResult.errors?.some((e) => e.extensions?.code === ErrorCode.ServiceUnavailable)) response.http.status = 503;
        },
      };
    },
  };
}

/**
 * Maps every error leaving the API to a stable code. Domain errors keep their message and carry
 * `domainCode` (and `field`) in extensions; anything unknown is logged here and reaches the client as a
 * generic internal error, never a stack.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  const code = String(formatted.extensions?.code ?? '');
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };

  if (original instanceof DomainError) {
    const extensions = { code: GRAPHQL_CODE[original.code], domainCode: original.code, ...(original.field ? { field: original.field } : {}) };
    return { ...base, message: original.message, extensions };
  }
  // Nest's own guards and pipes throw HttpExceptions.
  if (original instanceof HttpException) {
    const status = original.getStatus();
    const response = original.getResponse() as { message?: string | string[] } | string;
    const detail = typeof response === 'string' ? response : response.message;
    const message = Array.isArray(detail) ? detail.join('; ') : (detail ?? original.message);
    if (status === HttpStatus.BAD_REQUEST) return { ...base, message, extensions: { code: ErrorCode.BadUserInput } };
    if (status === HttpStatus.UNAUTHORIZED) return { ...base, message, extensions: { code: ErrorCode.Unauthenticated } };
    if (status === HttpStatus.FORBIDDEN) return { ...base, message, extensions: { code: ErrorCode.Forbidden } };
    if (status === HttpStatus.NOT_FOUND) return { ...base, message, extensions: { code: ErrorCode.NotFound } };
  }
  if (formatted.message === VALIDATION_ABORTED) {
    return { message: VALIDATION_ABORTED_REASON, extensions: { code: ErrorCode.QueryTooComplex } };
  }
  if (TOO_MANY_TOKENS.test(formatted.message)) {
    return { message: `${formatted.message.replace(/^Syntax Error: /, '')} (GRAPHQL_MAX_TOKENS)`, extensions: { code: ErrorCode.QueryTooComplex } };
  }
  if (TOO_MANY_VARIABLE_ERRORS.test(formatted.message)) {
    return { ...base, extensions: { code: ErrorCode.BadUserInput } };
  }
  if (PASSTHROUGH.has(code)) {
    // `http` sets Apollo's status (Apollo drops it from bodies; graphql-ws would send it on).
    const { stacktrace: _drop, http: _status, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    return { ...base, extensions };
  }
  // A request mistake graphql-js reported without a code (an unknown operation name, several
  // operations and none named, bad variables over graphql-ws): the client's to fix, shown as it is.
  if (isRequestError(error, formatted)) {
    return { ...base, extensions: { code: requestErrorCode(formatted.message) } };
  }
  if (isServiceUnavailable(original)) {
    logger.warn(`service unavailable at ${formatted.path?.join('.') ?? '?'}: ${(original as Error).message}`);
    return { message: `${unavailableService(original)} is unavailable; try again shortly`, path: formatted.path, extensions: { code: ErrorCode.ServiceUnavailable } };
  }
  if (original instanceof ConfigError) logger.error(original.message);
  else logger.error(`unexpected error at ${formatted.path?.join('.') ?? '?'}: ${(original as Error)?.stack ?? String(original)}`);
  return { message: 'Internal server error', path: formatted.path, extensions: { code: ErrorCode.Internal } };
}

/**
 * graphql-ws sends subscription results without Apollo's formatError; this applies the same mapping,
 * so a subscription refused with a domain error reaches the client with the same code as a query.
 */
export function formatSubscriptionResult(result: ExecutionResult): FormattedExecutionResult {
  if (!result.errors?.length) return result as FormattedExecutionResult;
  return { ...result, errors: result.errors.map((e: GraphQLError) => formatError(e.toJSON(), e)) } as FormattedExecutionResult;
}
