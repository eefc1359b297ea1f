import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { ErrorCode, formatError, formatSubscriptionResult, graphqlCodeOf, validationError } from './errors';

/** What Apollo hands formatError: the formatted error and the GraphQLError wrapping the thrown one. */
function thrown(error: unknown, path = ['search']) {
  const wrapped = new GraphQLError(error instanceof Error ? error.message : String(error), { path, originalError: error as Error });
  return formatError(wrapped.toJSON(), wrapped);
}

describe('formatError', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('gives every domain code a GraphQL code (NOT_FOUND for the *_NOT_FOUND ones, QUERY_TOO_COMPLEX for a database limit, JOB_LOST for lost work, BAD_USER_INPUT otherwise)', () => {
    const special: Partial<Record<DomainErrorCode, ErrorCode>> = { [DomainErrorCode.QueryLimitExceeded]: ErrorCode.QueryTooComplex, [DomainErrorCode.JobLost]: ErrorCode.JobLost };
    for (const code of Object.values(DomainErrorCode)) {
      const expected = code.endsWith('NOT_FOUND') ? ErrorCode.NotFound : (special[code] ?? ErrorCode.BadUserInput);
      expect(graphqlCodeOf(code)).toBe(expected);
    }
  });

  it('answers a read the database stopped at its per-query limit as QUERY_TOO_COMPLEX with the domain code', () => {
    expect(thrown(new DomainError(DomainErrorCode.QueryLimitExceeded, 'the query ran longer than ...')).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', domainCode: 'QUERY_LIMIT_EXCEEDED' });
  });

  it('carries the domain code and the field to the client, with the message as thrown', () => {
    const out = thrown(new DomainError(DomainErrorCode.InvalidGlob, 'pathGlob: unclosed [', 'pathGlob'));
    expect(out).toEqual({
      message: 'pathGlob: unclosed [',
      path: ['search'],
      extensions: { code: 'BAD_USER_INPUT', domainCode: 'INVALID_GLOB', field: 'pathGlob' },
    });
  });

  it('maps a not-found domain error to NOT_FOUND without a field', () => {
    expect(thrown(new DomainError(DomainErrorCode.RerankNotFound, 'no rerank "x"')).extensions).toEqual({ code: 'NOT_FOUND', domainCode: 'RERANK_NOT_FOUND' });
  });

  it('answers graphql-js request-level limits as client errors, not internal ones', () => {
    const tokens = new GraphQLError('Syntax Error: Document contains more that 3000 tokens. Parsing aborted.');
    expect(formatError(tokens.toJSON(), tokens).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX' });
    const variables = new GraphQLError('Too many errors processing variables, error limit reached. Execution aborted.');
    expect(formatError(variables.toJSON(), variables).extensions).toEqual({ code: 'BAD_USER_INPUT' });
    const batch = new GraphQLError('Operation batching disabled.', { extensions: { code: 'BAD_REQUEST' } });
    expect(formatError(batch.toJSON(), batch).extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  it('hides anything else behind INTERNAL_SERVER_ERROR, without message or stack', () => {
    const out = thrown(new Error('neo4j exploded at /secret/path'));
    expect(out).toEqual({ message: 'Internal server error', path: ['search'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  it('maps Nest HTTP exceptions from guards and pipes by status', () => {
    expect(thrown(new HttpException('who', HttpStatus.UNAUTHORIZED)).extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect(thrown(new HttpException('nope', HttpStatus.FORBIDDEN)).extensions).toEqual({ code: 'FORBIDDEN' });
    expect(thrown(new HttpException('bad', HttpStatus.BAD_REQUEST)).extensions).toEqual({ code: 'BAD_USER_INPUT' });
  });

  it('turns class-validator failures into one INVALID_INPUT domain error naming the first field', () => {
    const error = validationError([
      { property: 'input', children: [{ property: 'topK', constraints: { max: 'topK must not be greater than 100' }, children: [] }] },
    ] as never);
    expect(error).toMatchObject({ code: DomainErrorCode.InvalidInput, field: 'input.topK', message: 'input.topK must not be greater than 100' });
    expect(thrown(error).extensions).toEqual({ code: 'BAD_USER_INPUT', domainCode: 'INVALID_INPUT', field: 'input.topK' });
  });

  it('applies the same mapping to subscription results', () => {
    const error = new GraphQLError('no job', { path: ['jobEvents'], originalError: new DomainError(DomainErrorCode.JobNotFound, 'no job "x"') });
    expect(formatSubscriptionResult({ errors: [error] }).errors?.[0].extensions).toEqual({ code: 'NOT_FOUND', domainCode: 'JOB_NOT_FOUND' });
    expect(formatSubscriptionResult({ data: { a: 1 } })).toEqual({ data: { a: 1 } });
  });

  it('answers graphql-js request errors (no path, no cause) as the client\'s, with graphql-js\'s own message', () => {
    const unnamed = new GraphQLError('Must provide operation name if query contains multiple operations.');
    expect(formatError(unnamed.toJSON(), unnamed)).toEqual({ message: unnamed.message, extensions: { code: 'BAD_REQUEST' } });
    const syntax = new GraphQLError('Syntax Error: Expected Name, found <EOF>.');
    expect(formatError(syntax.toJSON(), syntax).extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED' });
    const variable = new GraphQLError('Variable "$n" got invalid value "many"; Int cannot represent non-integer value: "many"', { originalError: new GraphQLError('Int cannot represent non-integer value: "many"') });
    expect(formatError(variable.toJSON(), variable)).toEqual({ message: variable.message, extensions: { code: 'BAD_USER_INPUT' } });
    // A fault while completing a result has a path: still internal.
    const completion = new GraphQLError('Cannot return null for non-nullable field Query.x.', { path: ['x'] });
    expect(formatError(completion.toJSON(), completion).extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
  });

  it('names the reason when graphql-js aborts validation at its work limit', () => {
    const aborted = new GraphQLError('Validation aborted.', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const out = formatError(aborted.toJSON(), aborted);
    expect(out.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX' });
    expect(out.message).toMatch(/too costly to validate: too many fields share a response name/);
  });

  it('passes persisted-query codes through and never shows the http status extension', () => {
    const missing = new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200 } } });
    expect(formatError(missing.toJSON(), missing)).toEqual({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
  });
});
