import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface GqlResponse<T = any> {
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown>; path?: string[] }[];
}

export async function gql<T = any>(url: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ status: number; body: GqlResponse<T> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as GqlResponse<T> };
}

export function wsClient(url: string, connectionParams: Record<string, unknown> = {}): Client {
  return createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

/**
 * Collects every event of a subscription until it completes (or fails), with a time limit. `onEvent`
 * sees each event as it arrives, so a test can open a gate on what it has seen.
 */
export function collect<T = any>(client: Client, query: string, variables: Record<string, unknown>, timeoutMs = 60_000, onEvent?: (event: GqlResponse<T>) => void): Promise<GqlResponse<T>[]> {
  return new Promise((resolve, reject) => {
    const events: GqlResponse<T>[] = [];
    const timer = setTimeout(() => {
      dispose();
      reject(new Error(`subscription did not complete in ${timeoutMs} ms; got ${JSON.stringify(events)}`));
    }, timeoutMs);
    const dispose = client.subscribe<T>(
      { query, variables },
      {
        next: (value) => {
          events.push(value as GqlResponse<T>);
          onEvent?.(value as GqlResponse<T>);
        },
        error: (error) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
        },
        complete: () => {
          clearTimeout(timer);
          resolve(events);
        },
      },
    );
  });
}
