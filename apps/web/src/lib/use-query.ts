import { useCallback, useEffect, useRef, useState } from 'react';
import { request } from '../api/client';
import { ApiError, asApiError } from '../api/errors';
import { useApiKey } from '../components/KeyDialog';

export interface QueryState<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs a query when the page shows, when `key` changes and when the API key changes; a newer run
 * aborts the older one, so an answer never lands on the wrong page state. `skip` holds it back.
 */
export function useQuery<T>(query: string, variables: Record<string, unknown>, key: string, skip = false): QueryState<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({ data: null, error: null, loading: !skip });
  const [nonce, setNonce] = useState(0);
  const apiKey = useApiKey();
  const vars = useRef(variables);
  vars.current = variables;
  const shownKey = useRef(key);
  useEffect(() => {
    if (skip) return;
    const abort = new AbortController();
    // A reload keeps what is shown until the answer comes; another query clears it at once.
    const sameKey = shownKey.current === key;
    shownKey.current = key;
    setState((s) => ({ data: sameKey ? s.data : null, loading: true, error: null }));
    request<T>(query, vars.current, abort.signal).then(
      (data) => !abort.signal.aborted && setState({ data, error: null, loading: false }),
      (error) => !abort.signal.aborted && setState({ data: null, error: asApiError(error), loading: false }),
    );
    return () => abort.abort();
  }, [query, key, skip, nonce, apiKey]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { ...state, reload };
}
