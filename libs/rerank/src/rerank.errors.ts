import { DomainError, DomainErrorCode } from '@scopegraph/errors';

export class RerankNotFoundError extends DomainError {
  constructor(
    readonly jobId: string,
    lost = false,
  ) {
    super(DomainErrorCode.RerankNotFound, lost ? `rerank "${jobId}" was lost: its state is gone from Redis` : `no rerank "${jobId}" (unknown, or expired)`);
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
