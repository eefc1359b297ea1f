import { createContext, type FormEvent, type ReactNode, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { apiKey, onApiKeyChange, setApiKey } from '../api/client';

const KeyDialogContext = createContext<(reason?: string) => void>(() => undefined);

/** Opens the key form, optionally saying why (the error that asked for a key). */
export const useAskForKey = () => useContext(KeyDialogContext);

/** The key entered in this tab, re-rendering when it changes. */
export function useApiKey(): string | null {
  return useSyncExternalStore(onApiKeyChange, apiKey);
}

export function KeyDialogProvider({ children }: { children: ReactNode }) {
  const [reason, setReason] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const ask = useCallback((why?: string) => {
    setReason(why ?? null);
    setOpen(true);
  }, []);
  return (
    <KeyDialogContext.Provider value={ask}>
      {children}
      {open && <KeyDialog reason={reason} onClose={() => setOpen(false)} />}
    </KeyDialogContext.Provider>
  );
}

function KeyDialog({ reason, onClose }: { reason: string | null; onClose: () => void }) {
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const current = useApiKey();
  useEffect(() => input.current?.focus(), []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!value.trim()) return;
    setApiKey(value.trim());
    onClose();
  };
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <form className="modal" role="dialog" aria-label="API key" onClick={(e) => e.stopPropagation()} onSubmit={submit}>
        <h2>API key</h2>
        {reason && <p className="modal-reason">{reason}</p>}
        <p className="muted">
          Sent as <code>x-api-key</code> and as the subscription socket&apos;s <code>apiKey</code>; kept in this tab only (sessionStorage). The
          read key (<code>API_KEY</code>) searches, reranks and asks; indexing and deleting need the admin key (<code>API_ADMIN_KEY</code>).
        </p>
        <input ref={input} type="password" autoComplete="off" placeholder="key" aria-label="key" value={value} onChange={(e) => setValue(e.target.value)} />
        <div className="modal-actions">
          {current && (
            <button
              type="button"
              className="btn ghost"
              onClick={() => {
                setApiKey(null);
                onClose();
              }}
            >
              Forget the key
            </button>
          )}
          <span className="spacer" />
          <button type="button" className="btn ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={!value.trim()}>
            Use this key
          </button>
        </div>
      </form>
    </div>
  );
}
