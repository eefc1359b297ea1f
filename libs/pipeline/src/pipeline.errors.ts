import { DomainError, DomainErrorCode } from '@scopegraph/errors';

/** What a caller did wrong, with the input field to show it against. */
export class AskInputError extends DomainError {
  constructor(message: string, field: string) {
    super(DomainErrorCode.AskInvalidInput, message, field);
  }
}

export class AskNotFoundError extends DomainError {
  constructor(readonly askId: string) {
    super(DomainErrorCode.AskNotFound, `no ask "${askId}"`);
  }
}
