import { RateLimitedFetch, RateLimitGiveUpError } from '@scopegraph/api-client';

/**
 * The MCP tools are a client of the public GraphQL API, like the CLI and the web console: one
 * validation, one auth check and one error model serve every way in.
 */
export type GraphqlCall = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

export interface GraphqlErrorShape {
  message: string;
  extensions?: { code?: unknown; field?: unknown };
}

/** A GraphQL error answer, kept with its code and offending field so a tool can report both. */
export class GraphqlCallError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly field?: string,
  ) {
    super(message);
  }

  static from(errors: GraphqlErrorShape[]): GraphqlCallError {
    const first = errors[0];
    const code = typeof first?.extensions?.code === 'string' ? first.extensions.code : 'ERROR';
    const field = typeof first?.extensions?.field === 'string' ? first.extensions.field : undefined;
    return new GraphqlCallError(errors.map((e) => e.message).join('; '), code, field);
  }
}

/** Throws the errors of a GraphQL answer, or returns its data. */
export function dataOrThrow<T>(body: { data?: unknown; errors?: readonly GraphqlErrorShape[] }, where: string): T {
  if (body.errors?.length) throw GraphqlCallError.from([...body.errors]);
  if (!body.data) throw new GraphqlCallError(`no data in the answer from ${where}`, 'INTERNAL_SERVER_ERROR');
  return body.data as T;
}

/**
 * A GraphqlCall over HTTP (stdio MCP server, run next to a remote or local API). At the API's rate
 * limit it waits as every scopegraph client does (`rate`, default: told on stderr, which stdio MCP
 * leaves to logs); a tool call fails with RATE_LIMITED only past the wait limit.
 */
export function httpGraphqlCall(url: string, apiKey?: string, rate: RateLimitedFetch = new RateLimitedFetch({ onWait: (e) => process.stderr.write(`scopegraph mcp: ${e.message}\n`) })): GraphqlCall {
  return async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    let res: Response;
    try {
      res = await rate.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      if (error instanceof RateLimitGiveUpError) throw new GraphqlCallError(error.message, 'RATE_LIMITED');
      throw new GraphqlCallError(`cannot reach the scopegraph API at ${url} (${(error as Error).message}); is it running? (npm start)`, 'UNAVAILABLE');
    }
    const body = (await res.json().catch(() => ({}))) as { data?: unknown; errors?: GraphqlErrorShape[] };
    if (!body.data && !body.errors) throw new GraphqlCallError(`unexpected answer from ${url} (HTTP ${res.status})`, 'UNAVAILABLE');
    return dataOrThrow<T>(body, url);
  };
}
