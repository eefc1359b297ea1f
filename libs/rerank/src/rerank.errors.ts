export enum RerankErrorCode {
  InvalidOption = 'RERANK_INVALID_OPTION',
  InvalidCandidates = 'RERANK_INVALID_CANDIDATES',
  InvalidQuestion = 'RERANK_INVALID_QUESTION',
  NotFound = 'RERANK_NOT_FOUND',
}

/** Bad input from a caller; `field` names what to fix, as the GraphQL input spells it. */
export class RerankInputError extends Error {
  constructor(
    readonly code: RerankErrorCode,
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'RerankInputError';
  }
}

export class RerankNotFoundError extends Error {
  readonly code = RerankErrorCode.NotFound;
  constructor(readonly jobId: string) {
    super(`no rerank "${jobId}" (unknown, or expired)`);
    this.name = 'RerankNotFoundError';
  }
}

/** The model answered, but not with anything we can use: the batch falls back to retrieval order. */
export class MalformedOutputError extends Error {
  constructor(
    message: string,
    /** `malformed-output` or `empty-output`. */
    readonly reason: 'malformed-output' | 'empty-output' = 'malformed-output',
  ) {
    super(message);
    this.name = 'MalformedOutputError';
  }
}
