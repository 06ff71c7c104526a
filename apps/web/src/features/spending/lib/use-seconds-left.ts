import { useEffect, useState } from 'react';

/** Whole seconds from now until `iso`, 0 once it has passed (and for a time that cannot be read). */
export function secondsUntil(iso: string, now: number): number {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return 0;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** 4:05 for 245 seconds. */
export const clockText = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** The seconds left until `iso`, ticking once a second until none are left. */
export function useSecondsLeft(iso: string): number {
  const [now, setNow] = useState(() => Date.now());
  const running = secondsUntil(iso, now) > 0;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return secondsUntil(iso, now);
}
