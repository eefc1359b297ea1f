/** An error as the API sends it: a message and `extensions.code` (+ `field`, `retryAfterS`, ...). */
export interface GraphqlErrorShape {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
}

/** graphql-ws's close code when the server's onConnect refused the socket (Origin, Host or key). */
export const CLOSE_FORBIDDEN = 4403;
/** A socket that closed without a close frame (server gone, network down). */
const CLOSE_ABNORMAL = 1006;

/** Extensions that are shown next to the message, in this order, when present. */
const SHOWN_EXTENSIONS = ['field', 'domainCode', 'retryAfterS'] as const;

/**
 * Every failure the console shows: the API's message and code as sent, never swallowed or replaced
 * by a generic text. `needsKey` tells the page to offer the key form (401, or 403 for admin work).
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly details: Array<[string, string]>;

  constructor(message: string, code: string, opts: { status?: number; details?: Array<[string, string]> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = opts.status;
    this.details = opts.details ?? [];
  }

  get needsKey(): boolean {
    return this.code === 'UNAUTHENTICATED' || this.code === 'FORBIDDEN';
  }

  /** All errors of one answer: the first one's code, every message. */
  static fromGraphql(errors: readonly GraphqlErrorShape[], status?: number): ApiError {
    const first = errors[0];
    const ext = first?.extensions ?? {};
    const code = typeof ext.code === 'string' ? ext.code : 'ERROR';
    const details: Array<[string, string]> = [];
    for (const name of SHOWN_EXTENSIONS) if (ext[name] !== undefined && ext[name] !== null) details.push([name, String(ext[name])]);
    if (first?.path?.length) details.push(['path', first.path.join('.')]);
    const messages = [...new Set(errors.map((e) => e.message))];
    return new ApiError(messages.join('; ') || 'error without a message', code, { status, details });
  }

  /** What graphql-ws hands a sink's error(): GraphQL errors, a CloseEvent or an Error. */
  static fromSocket(error: unknown): ApiError {
    if (Array.isArray(error)) return ApiError.fromGraphql(error as GraphqlErrorShape[]);
    if (isCloseEvent(error)) {
      if (error.code === CLOSE_FORBIDDEN) {
        return new ApiError(
          `the API refused the subscription socket (${CLOSE_FORBIDDEN} ${error.reason || 'Forbidden'}): a missing or wrong API key, or a page origin the API does not accept`,
          'FORBIDDEN',
          { details: [['close', String(error.code)]] },
        );
      }
      if (error.code === CLOSE_ABNORMAL) return new ApiError('the connection to the API was lost', 'NETWORK', { details: [['close', String(error.code)]] });
      return new ApiError(`the subscription socket closed (${error.code}${error.reason ? ` ${error.reason}` : ''})`, 'SOCKET_CLOSED', { details: [['close', String(error.code)]] });
    }
    if (error instanceof Error) return new ApiError(error.message, 'NETWORK');
    return new ApiError(String(error), 'ERROR');
  }
}

function isCloseEvent(value: unknown): value is { code: number; reason: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number' && 'reason' in value;
}

/** Any thrown value as an ApiError (a bug in the page is shown the same way, code CLIENT). */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(error instanceof Error ? error.message : String(error), 'CLIENT');
}
