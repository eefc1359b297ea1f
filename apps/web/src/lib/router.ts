import { useSyncExternalStore } from 'react';

// Five pages and no nested layouts: routing on location.hash in a few lines, rather than a router
// library. The hash keeps every route on the one path the API serves (`/`).

export type Route =
  | { page: 'search'; params: URLSearchParams }
  | { page: 'ask'; params: URLSearchParams }
  | { page: 'localize' }
  | { page: 'review'; params: URLSearchParams }
  | { page: 'scope'; id: string }
  | { page: 'repositories' };

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#/, '').split('?', 2);
  const params = new URLSearchParams(query);
  const scope = /^\/scope\/(.+)$/.exec(path);
  if (scope) return { page: 'scope', id: decodeURIComponent(scope[1]) };
  if (path === '/ask') return { page: 'ask', params };
  if (path === '/localize') return { page: 'localize' };
  if (path === '/review') return { page: 'review', params };
  if (path === '/repositories') return { page: 'repositories' };
  return { page: 'search', params };
}

function subscribeHash(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The current hash (re-rendering on change); parse it with parseRoute. */
export function useHash(): string {
  return useSyncExternalStore(subscribeHash, () => location.hash);
}

export const scopeHref = (id: string) => `#/scope/${encodeURIComponent(id)}`;

export function searchHref(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  return `#/search?${q}`;
}
