import { useEffect, useState } from 'react';

/*
 * A countdown to a moment (the next game's start, a live game's end), in hours, minutes and
 * seconds. The first render uses the server's `now`, so it is the server's HTML exactly; the
 * clock starts ticking once the island has mounted.
 */

const SECOND = 1000;

/** 'HH:MM:SS' for what is left (never negative); hours grow past 99 if they must. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / SECOND));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hours)}:${two(minutes)}:${two(seconds)}`;
}

/**
 * The current time for a countdown to `target`: the server's `now` on the first render, then the
 * browser's clock, read every second until the target has passed (then the timer stops).
 */
export function useCountdownNow(serverNow: number, target: number | null, running = true): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!running || target === null) return;
    const read = () => Date.now();
    setNow(read());
    if (read() >= target) return;
    const timer = setInterval(() => {
      const current = read();
      setNow(current);
      if (current >= target) clearInterval(timer);
    }, SECOND);
    return () => clearInterval(timer);
  }, [target, running]);
  return now;
}

export interface GameCountdownProps {
  /** Epoch ms the countdown runs to. */
  target: number;
  /** The server's time when it rendered the page (epoch ms). */
  now: number;
  /** Shown once the target has passed, e.g. 'Game starting now!'. */
  doneText: string;
  className?: string;
}

export default function GameCountdown({ target, now: serverNow, doneText, className = '' }: GameCountdownProps) {
  const now = useCountdownNow(serverNow, target);
  const left = target - now;
  const done = left <= 0;
  return (
    <span role="timer" data-done={done ? 'true' : undefined} className={`tabular-nums ${className}`}>
      {done ? doneText : formatCountdown(left)}
    </span>
  );
}
