/** Why a search request was refused; the API maps every code to BAD_USER_INPUT with the field. */
export enum SearchErrorCode {
  InvalidText = 'INVALID_TEXT',
  InvalidLimit = 'INVALID_LIMIT',
  InvalidWeight = 'INVALID_WEIGHT',
  InvalidGlob = 'INVALID_GLOB',
  InvalidFilter = 'INVALID_FILTER',
  UnknownRepository = 'UNKNOWN_REPOSITORY',
  InvalidExpansion = 'INVALID_EXPANSION',
  InvalidPlan = 'INVALID_PLAN',
}

/** A request the caller can fix; `field` names the input field (dotted for nested ones). */
export class SearchInputError extends Error {
  constructor(
    readonly code: SearchErrorCode,
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'SearchInputError';
  }
}
