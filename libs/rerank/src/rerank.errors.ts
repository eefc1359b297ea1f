import { DomainError, DomainErrorCode } from '@scopegraph/errors';

export class RerankNotFoundError extends DomainError {
  constructor(readonly jobId: string) {
    super(DomainErrorCode.RerankNotFound, `no rerank "${jobId}" (unknown, or expired)`);
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
