import { useEffect, useState } from 'react';

/** Counts down, then goes to `href` (the order confirmation's 5 seconds to the orders tab). */
export default function RedirectCountdown({ seconds, href, label }: { seconds: number; href: string; label: string }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left === 0) window.location.assign(href);
  }, [left, href]);
  return (
    <p className="m-0 text-sm text-slate-600" aria-live="polite">
      {`${label} in ${left} second${left === 1 ? '' : 's'}. `}
      <a href={href} className="font-semibold text-sea-dark">
        Go now
      </a>
    </p>
  );
}
