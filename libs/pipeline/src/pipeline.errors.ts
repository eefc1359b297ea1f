/** What a caller did wrong, with the input field to show it against. */
export class AskInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'AskInputError';
  }
}

export class AskNotFoundError extends Error {
  constructor(readonly askId: string) {
    super(`no ask "${askId}"`);
    this.name = 'AskNotFoundError';
  }
}
