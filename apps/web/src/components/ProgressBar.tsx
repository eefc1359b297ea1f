import { percent } from '../lib/format';

export function ProgressBar({ done, total, label, state = 'running' }: { done: number; total: number; label: string; state?: 'running' | 'done' | 'failed' }) {
  const pct = state === 'done' ? 100 : percent(done, total);
  return (
    <div className={`progress ${state}`} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
      <div className="progress-fill" style={{ width: `${pct}%` }} />
      <span className="progress-text">{label}</span>
    </div>
  );
}
