import * as fs from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { maxRateWaitMs, RateLimitedFetch, RateLimitGiveUpError } from '@scopegraph/api-client';
import { findEnvFile } from '@scopegraph/config';

/**
 * The CLI is a GraphQL client of the API: it needs only where the API is and its key, not the
 * database credentials the server holds.
 */
export interface ClientConfig {
  url: string;
  apiKey?: string;
  /** The longest one request waits at the API's rate limit before giving up (SCOPEGRAPH_MAX_RATE_WAIT_S). */
  maxRateWaitMs?: number;
}

export function clientConfig(env: NodeJS.ProcessEnv = process.env): ClientConfig {
  const file = findEnvFile(env);
  const fromFile = file && fs.existsSync(file) ? parseDotenv(fs.readFileSync(file)) : {};
  const get = (k: string) => env[k] ?? fromFile[k];
  const url = get('SCOPEGRAPH_URL') ?? `http://${get('API_HOST') ?? '127.0.0.1'}:${get('API_PORT') ?? '4000'}/graphql`;
  let maxWait: number;
  try {
    maxWait = maxRateWaitMs({ SCOPEGRAPH_MAX_RATE_WAIT_S: get('SCOPEGRAPH_MAX_RATE_WAIT_S') });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  return { url, apiKey: get('API_KEY') || undefined, maxRateWaitMs: maxWait };
}

export class CliError extends Error {}

export class ApiClient {
  /** Waits at the API's rate limit (see @scopegraph/api-client); its stats say how long. */
  readonly rate: RateLimitedFetch;

  constructor(private readonly config: ClientConfig = clientConfig()) {
    this.rate = new RateLimitedFetch({
      maxWaitMs: config.maxRateWaitMs,
      onWait: (e) => process.stderr.write(`scopegraph: ${e.message}\n`),
    });
  }

  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    let res: Response;
    try {
      res = await this.rate.fetch(this.config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.config.apiKey ? { 'x-api-key': this.config.apiKey } : {}) },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      if (error instanceof RateLimitGiveUpError) throw new CliError(`RATE_LIMITED: ${error.message}`);
      throw new CliError(`cannot reach the scopegraph API at ${this.config.url} (${(error as Error).message}). Is it running? Start it with: npm start`);
    }
    const body = (await res.json().catch(() => ({}))) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length) {
      throw new CliError(body.errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('\n'));
    }
    if (!body.data) throw new CliError(`unexpected answer from ${this.config.url} (HTTP ${res.status})`);
    return body.data;
  }

  /** Calls onEvent for each subscription event; resolves when the server completes the stream. */
  subscribe<T>(query: string, variables: Record<string, unknown>, onEvent: (data: T) => void): Promise<void> {
    const ws: Client = createClient({
      url: this.config.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: this.config.apiKey ? { apiKey: this.config.apiKey } : {},
      retryAttempts: 2,
    });
    return new Promise<void>((resolve, reject) => {
      ws.subscribe<T>(
        { query, variables },
        {
          next: (value) => (value.errors ? reject(new CliError(value.errors.map((e) => e.message).join('\n'))) : onEvent(value.data as T)),
          error: (error) => reject(new CliError(Array.isArray(error) ? error.map((e) => e.message).join('\n') : String((error as Error)?.message ?? error))),
          complete: () => resolve(),
        },
      );
    }).finally(() => ws.dispose());
  }
}
