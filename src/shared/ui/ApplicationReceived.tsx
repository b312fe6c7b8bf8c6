import { useEffect, useRef } from 'react';
import { BUSINESS_REPLY_TIME } from '../schemas/business.ts';
import { TickIcon } from './icons.tsx';

/** Spec section 2: the view after a successful application, with Return to Home. */
export function ApplicationReceived({ focus = false }: { focus?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <div className="mx-auto max-w-lg pt-6 sm:pt-12">
      <section aria-labelledby="application-received" className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-10">
        <div className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
          <TickIcon className="h-8 w-8" strokeWidth={2.5} />
        </div>
        <h1 id="application-received" ref={heading} tabIndex={-1} className="m-0 mt-5 text-2xl font-extrabold text-ink outline-none">
          Application Received
        </h1>
        <p className="m-0 mt-3 text-slate-700">
          Thank you for your interest in partnering with us. Our team will review your application and contact you {BUSINESS_REPLY_TIME}.
        </p>
        <a href="/" className="mt-7 inline-block rounded-full bg-ink px-6 py-3 text-sm font-bold text-white no-underline hover:bg-ink-light">
          Return to Home
        </a>
      </section>
    </div>
  );
}
