import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request id of the work in progress: set per HTTP request by the API and per job by the worker
 * (from the id the API stored in the job), so log lines of one request and of its jobs share it.
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

export const REQUEST_ID_HEADER = 'x-request-id';
/** A caller-supplied id is kept only when it looks like an id, so it cannot forge log content. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function requestIdFrom(header: unknown): string {
  return typeof header === 'string' && ACCEPTABLE_ID.test(header) ? header : randomUUID();
}

/** Job data carry the request id under this key (added by the queue producers). */
export const JOB_REQUEST_ID = 'requestId';

export function withRequestId<T>(data: T): T {
  const requestId = currentRequestId();
  return requestId && data && typeof data === 'object' && !Array.isArray(data) ? { ...data, [JOB_REQUEST_ID]: requestId } : data;
}
