// The console's only way to the server: the public GraphQL API, over HTTP for queries and mutations
// and graphql-ws for subscriptions, on the page's own origin.
import { RateLimitedFetch, RateLimitGiveUpError, type RateWaitEvent } from '@scopegraph/api-client';
import { type Client, createClient } from 'graphql-ws';
import { ApiError, type GraphqlErrorShape } from './errors';

export const GRAPHQL_PATH = '/graphql';
const KEY_STORAGE = 'scopegraph.apiKey';

// ---- The API key ---------------------------------------------------------------------------------
// With API_KEY/API_ADMIN_KEY set, the browser's own login (the key as Basic auth password) already
// covers every call; a key entered here (e.g. the admin key, to index) is sent as x-api-key and as
// connectionParams.apiKey, which the API prefers. sessionStorage: it ends with the tab.

const keyListeners = new Set<() => void>();

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function setApiKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
  // A socket keeps the role it was opened with: the next subscription opens one with the new key.
  void socket?.dispose();
  socket = null;
  for (const listener of keyListeners) listener();
}

export function onApiKeyChange(listener: () => void): () => void {
  keyListeners.add(listener);
  return () => keyListeners.delete(listener);
}

// ---- The rate limit ------------------------------------------------------------------------------
// Like every scopegraph client, the console paces itself by the API's limit headers and waits out a
// 429; the page shows the wait (RateBanner) instead of an error.

const rateListeners = new Set<(event: RateWaitEvent & { until: number }) => void>();
const rate = new RateLimitedFetch({
  onWait: (e) => {
    for (const listener of rateListeners) listener({ ...e, until: Date.now() + e.waitMs });
  },
});

export function onRateWait(listener: (event: RateWaitEvent & { until: number }) => void): () => void {
  rateListeners.add(listener);
  return () => rateListeners.delete(listener);
}

// ---- Queries and mutations -----------------------------------------------------------------------

export async function request<T>(query: string, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  const key = apiKey();
  let res: Response;
  try {
    res = await rate.fetch(new URL(GRAPHQL_PATH, location.href).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body: JSON.stringify({ query, variables }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof RateLimitGiveUpError) throw new ApiError(error.message, 'RATE_LIMITED');
    throw new ApiError(`cannot reach the API (${(error as Error).message})`, 'NETWORK');
  }
  const text = await res.text();
  let body: { data?: T | null; errors?: GraphqlErrorShape[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(`HTTP ${res.status} ${res.statusText}: ${text.slice(0, 300) || 'empty answer'}`, `HTTP_${res.status}`, { status: res.status });
  }
  if (body.errors?.length) throw ApiError.fromGraphql(body.errors, res.status);
  if (!body.data) throw new ApiError(`HTTP ${res.status}: an answer without data`, `HTTP_${res.status}`, { status: res.status });
  return body.data;
}

// ---- Subscriptions -------------------------------------------------------------------------------

let socket: Client | null = null;

function client(): Client {
  if (socket) return socket;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${GRAPHQL_PATH}`;
  socket = createClient({
    url,
    lazy: true,
    // A refused socket is answered by showing why, not by reconnecting in a loop.
    retryAttempts: 0,
    connectionParams: () => {
      const key = apiKey();
      return key ? { apiKey: key } : {};
    },
  });
  return socket;
}

export interface Subscription {
  close: () => void;
}

/**
 * Follows a subscription: `next` for every event, `done` once when it ends (with the error that ended
 * it, if any). Errors in an event's payload end it with that error.
 */
export function subscribe<T>(query: string, variables: Record<string, unknown>, next: (data: T) => void, done: (error?: ApiError) => void): Subscription {
  let finished = false;
  const finish = (error?: ApiError) => {
    if (finished) return;
    finished = true;
    done(error);
  };
  const dispose = client().subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors?.length) return finish(ApiError.fromGraphql(value.errors as GraphqlErrorShape[]));
        if (value.data) next(value.data);
      },
      error: (error) => finish(ApiError.fromSocket(error)),
      complete: () => finish(),
    },
  );
  return {
    close: () => {
      finished = true;
      dispose();
    },
  };
}
