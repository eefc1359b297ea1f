import type { ApiError } from '../api/errors';
import { useAskForKey } from './KeyDialog';

const KEY_HINT: Record<string, string> = {
  UNAUTHENTICATED: 'The API needs a key, or the key given is wrong.',
  FORBIDDEN: 'This needs another key (the admin key for indexing and deleting), or the page origin is not allowed.',
};

/** An API error as sent: code, message, HTTP status and the extensions that locate it. */
export function ErrorBox({ error, onRetry }: { error: ApiError | null; onRetry?: () => void }) {
  const askForKey = useAskForKey();
  if (!error) return null;
  return (
    <div className={`error-box${error.needsKey ? ' auth' : ''}`} role="alert">
      <div className="error-head">
        <span className="error-code">{error.code}</span>
        {error.status !== undefined && <span className="error-status">HTTP {error.status}</span>}
        <span className="error-message">{error.message}</span>
      </div>
      {error.details.length > 0 && (
        <div className="error-details">
          {error.details.map(([k, v]) => (
            <span key={k}>
              {k}: <code>{v}</code>
            </span>
          ))}
        </div>
      )}
      {(error.needsKey || onRetry) && (
        <div className="error-actions">
          {error.needsKey && <span className="muted">{KEY_HINT[error.code]}</span>}
          {error.needsKey && (
            <button className="btn" onClick={() => askForKey(`${error.code}: ${error.message}`)}>
              Enter API key
            </button>
          )}
          {onRetry && (
            <button className="btn ghost" onClick={onRetry}>
              Retry
            </button>
          )}
        </div>
      )}
    </div>
  );
}
