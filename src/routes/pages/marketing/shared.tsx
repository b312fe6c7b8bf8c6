import type { ReactNode } from 'react';

/*
 * Pieces shared by the static marketing pages (/welcome, /tutorial, /sunglass-gallery, /coach).
 * Class names stay full literals so UnoCSS finds them.
 */

/** The partner store of spec section 2 (invented contact details; 555-01xx is a fictional range). */
export const partnerStore = {
  name: 'Laguna Sunglass Gallery',
  street: '228 Forest Avenue',
  city: 'Laguna Beach',
  state: 'CA',
  zip: '92651',
  phone: '(949) 555-0135',
  phoneHref: 'tel:+19495550135',
  email: 'lagunagallery@example.com',
  since: 1988,
  hours: ['Mon-Sat 10:00 AM-6:00 PM', 'Sunday 11:00 AM-5:00 PM'],
  brands: ['Ray-Ban', 'Oakley', 'Persol', 'Maui Jim', 'Costa', 'Oliver Peoples', 'Tom Ford', 'Prada', 'Gucci', 'Randolph Engineering'],
} as const;

export const partnerAddress = `${partnerStore.street}, ${partnerStore.city}, ${partnerStore.state} ${partnerStore.zip}`;
const shopYear = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric' });

/** Whole calendar years since the partner opened, by the shop's clock (38 in 2026): never typed in, so never stale. */
export function partnerYears(now: number): number {
  return Number(shopYear.format(now)) - partnerStore.since;
}

export const partnerSinceText = (now: number) => `In business for ${partnerYears(now)} years, since ${partnerStore.since}`;
export const directionsUrl = `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(partnerAddress)}`;

type ButtonTone = 'coral' | 'light' | 'ink' | 'outline';

const buttonTones: Record<ButtonTone, string> = {
  coral: 'bg-coral-dark text-white hover:bg-coral',
  light: 'bg-white/10 text-white ring-1 ring-white/30 hover:bg-white/20',
  ink: 'bg-ink text-white hover:bg-ink-light',
  outline: 'bg-white text-ink ring-1 ring-slate-300 hover:ring-ink',
};

/** A link that looks like a button (real `<a>`: these all navigate). */
export function ButtonLink({
  href,
  tone = 'coral',
  children,
  className = '',
  ...rest
}: {
  href: string;
  tone?: ButtonTone;
  children: ReactNode;
  className?: string;
  target?: string;
  rel?: string;
}) {
  return (
    <a
      href={href}
      {...rest}
      className={`inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-5 py-2.5 text-sm font-bold no-underline ${buttonTones[tone]} ${className}`}
    >
      {children}
    </a>
  );
}

/** The dark hero card of the home page, reused for the marketing pages' headers. */
export function Hero({ eyebrow, title, children, actions }: { eyebrow: string; title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <section className="relative overflow-hidden rounded-3xl bg-ink px-5 py-8 text-white sm:px-10 sm:py-12">
      <div aria-hidden="true" className="pointer-events-none absolute -right-16 -top-16 h-56 w-56 rounded-full bg-coral/25 blur-2xl" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-20 right-24 h-48 w-48 rounded-full bg-sea/40 blur-2xl" />
      <div className="relative">
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-coral-light">{eyebrow}</p>
        <h1 className="m-0 mt-2 max-w-3xl text-3xl font-extrabold leading-tight sm:text-5xl">{title}</h1>
        {children && <div className="mt-3 max-w-2xl text-base text-slate-200 sm:text-lg">{children}</div>}
        {actions && <div className="mt-6 flex flex-wrap gap-3">{actions}</div>}
      </div>
    </section>
  );
}

/** The "(opens in a new tab)" note for screen readers, with a visible arrow. */
export function NewTabHint() {
  return (
    <>
      <span aria-hidden="true">↗</span>
      <span className="sr-only"> (opens in a new tab)</span>
    </>
  );
}

/** A titled part of a long text page (rules, terms, privacy): its heading names the region. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="m-0 text-lg font-bold">
        {title}
      </h2>
      <div className="mt-2 grid gap-2 leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}
