import { useEffect, useState } from 'react';
import { onRateWait } from '../api/client';

/** "rate limited, resuming in 42 s" while the console waits at the API's rate limit; gone when it resumes. */
export function RateBanner() {
  const [until, setUntil] = useState<{ at: number; reason: string } | null>(null);
  const [now, setNow] = useState(Date.now());
  useEffect(() => onRateWait((e) => setUntil({ at: e.until, reason: e.reason })), []);
  useEffect(() => {
    if (!until) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= until.at) setUntil(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  if (!until || now >= until.at) return null;
  const seconds = Math.max(1, Math.ceil((until.at - now) / 1000));
  return (
    <div className="rate-banner" role="status">
      {until.reason === 'limited' ? 'rate limited' : "pacing to the API's rate limit"}, resuming in {seconds} s
    </div>
  );
}
