import { useEffect, useRef, useState } from 'react';

/**
 * Counts down, then goes to `href` (the order confirmation's 5 seconds to the orders tab, spec
 * section 2). 'Stay on this page' stops it for good (WCAG 2.2.1: a time limit the person can
 * turn off). Nothing shows until the script runs: without it the page simply stays, and saying
 * it would leave in 5 seconds would be untrue.
 */
export default function RedirectCountdown({ seconds, href, label }: { seconds: number; href: string; label: string }) {
  const [left, setLeft] = useState(seconds);
  const [staying, setStaying] = useState(false);
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  // The button goes away once pressed: focus moves to what replaced it rather than to the page's start.
  const stayed = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (staying) stayed.current?.focus();
  }, [staying]);
  useEffect(() => {
    if (staying || !running) return;
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, [staying, running]);
  useEffect(() => {
    if (left === 0 && !staying) window.location.assign(href);
  }, [left, href, staying]);
  if (!running) return null;
  if (staying) {
    return (
      <p ref={stayed} tabIndex={-1} className="m-0 text-sm text-slate-600" role="status" data-redirect="stopped">
        {'You are staying on this page. '}
        <a href={href} className="font-semibold text-sea-dark">
          Go to your orders
        </a>
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2" data-redirect="counting">
      <p className="m-0 text-sm text-slate-600" aria-live="polite">
        {`${label} in ${left} second${left === 1 ? '' : 's'}. `}
        <a href={href} className="font-semibold text-sea-dark">
          Go now
        </a>
      </p>
      <button
        type="button"
        onClick={() => setStaying(true)}
        className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-ink cursor-pointer hover:bg-slate-50"
      >
        Stay on this page
      </button>
    </div>
  );
}
