/**
 * Every reason a library refuses a request, one code each. The API maps each code to a GraphQL error
 * in one exhaustive table (apps/api/src/graphql/errors.ts), so a new code does not compile until it
 * has a mapping; the worker marks jobs that failed with a DomainError as not worth retrying.
 */
export enum DomainErrorCode {
  // A request field the caller can fix.
  InvalidInput = 'INVALID_INPUT',
  // search
  InvalidText = 'INVALID_TEXT',
  InvalidLimit = 'INVALID_LIMIT',
  InvalidWeight = 'INVALID_WEIGHT',
  InvalidGlob = 'INVALID_GLOB',
  InvalidFilter = 'INVALID_FILTER',
  UnknownRepository = 'UNKNOWN_REPOSITORY',
  InvalidExpansion = 'INVALID_EXPANSION',
  InvalidPlan = 'INVALID_PLAN',
  // rerank
  RerankInvalidOption = 'RERANK_INVALID_OPTION',
  RerankInvalidCandidates = 'RERANK_INVALID_CANDIDATES',
  RerankInvalidQuestion = 'RERANK_INVALID_QUESTION',
  RerankNotFound = 'RERANK_NOT_FOUND',
  // ingest
  InvalidRepositoryName = 'INVALID_REPOSITORY_NAME',
  InvalidRepositoryPath = 'INVALID_REPOSITORY_PATH',
  /** A SCIP index to import that is missing, outside the allowed roots, or not a SCIP index. */
  InvalidScipIndex = 'INVALID_SCIP_INDEX',
  RepositoryNotFound = 'REPOSITORY_NOT_FOUND',
  ApiKeyNotFound = 'API_KEY_NOT_FOUND',
  // queue
  JobNotFound = 'JOB_NOT_FOUND',
  AskInvalidInput = 'ASK_INVALID_INPUT',
  AskNotFound = 'ASK_NOT_FOUND',
  /** Redis issued the id, then lost the job's data (restarted without it): not "never existed". */
  JobLost = 'JOB_LOST',
  // graph: Neo4j stopped a read at its per-query time or memory limit
  QueryLimitExceeded = 'QUERY_LIMIT_EXCEEDED',
}

/**
 * An error the caller caused and can fix: its message is safe to show as is. `field` names the input
 * field to fix, as the public API spells it (dotted for nested fields: `expand.depth`).
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** The same error with its field renamed (a transport whose arguments are spelled differently). */
  withField(field: string | undefined): DomainError {
    const renamed = new DomainError(this.code, this.message, field);
    renamed.stack = this.stack;
    return renamed;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
