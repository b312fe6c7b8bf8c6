import type { ReactNode } from 'react';
import type { ToastInput } from '../shared/toast.ts';
import { BottomBar } from './BottomBar.tsx';
import { Cached } from './Cached.tsx';
import { Document, IslandScripts, type PageMeta, type SiteInfo } from './Document.tsx';
import { Slot } from './slots.tsx';
import { WaysToBuyLinks } from './WaysToBuy.tsx';
import { Header } from './Header.tsx';
import { Island } from './Island.tsx';
import { useRenderState } from './render-context.ts';
import type { Viewer } from './viewer.ts';

export interface LayoutProps {
  meta: PageMeta;
  site: SiteInfo;
  children: ReactNode;
}

/**
 * Every page, as it is for everyone: the header and the tail (bottom bar, toaster, island
 * scripts) are slots, filled per request with the viewer's own (`ViewerParts`), so the rest
 * can be cached and shared by every visitor and shopper.
 */
export function Layout({ meta, site, children }: LayoutProps) {
  return (
    <Document meta={meta} site={site}>
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:bg-white focus:p-2 focus:rounded">
        Skip to content
      </a>
      {site.testMode && (
        <p role="status" className="m-0 bg-amber-300 px-4 py-1.5 text-center text-sm font-bold text-ink" data-test-mode>
          Test mode: no real payments
        </p>
      )}
      <Slot name="header" />
      <main id="main" className="mx-auto max-w-6xl px-4 pt-4 pb-10">
        {children}
      </main>
      <Cached cacheKey="footer">
        <Footer />
      </Cached>
      <Slot name="tail" />
    </Document>
  );
}

export interface ViewerPartsProps {
  viewer: Viewer;
  path: string;
  backHref: string;
  siteName: string;
  flash: ToastInput | null;
}

/**
 * The parts of a page that are the viewer's: the header, and the tail (bottom bar, toaster,
 * island scripts), rendered as one tree with a split between them. Rendered after the page,
 * with the page's islands already counted, so the tail loads the code of both.
 */
export function ViewerParts({ viewer, path, backHref, siteName, flash }: ViewerPartsProps) {
  return (
    <>
      <Header viewer={viewer} path={path} backHref={backHref} siteName={siteName} />
      {viewer.user && <Island name="WinMoment" props={{ initial: viewer.notifications.filter((n) => n.type === 'game_won' && !n.read) }} />}
      <Slot name="split" />
      <BottomBar viewer={viewer} path={path} />
      <ToasterWhenNeeded flash={flash} />
      <IslandScripts />
    </>
  );
}

const footerLinks = [
  ['/terms', 'Terms'],
  ['/privacy', 'Privacy'],
  ['/returns', 'Returns'],
  ['/shipping', 'Shipping'],
  ['/contact', 'Contact'],
  ['/rules', 'Game rules'],
  ['/business-portal', 'Business portal'],
] as const;

/** The ways to buy and the shop's policies on every page; its bottom padding clears the fixed bottom bar (narrow screens only). */
function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white px-4 pt-6 pb-28 md:pb-8 text-sm text-slate-600 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-col gap-3">
        <nav aria-label="Ways to buy" className="flex flex-wrap items-baseline gap-x-5 gap-y-2">
          <h2 className="m-0 text-xs font-semibold uppercase tracking-wide text-slate-600">Ways to buy</h2>
          <WaysToBuyLinks place="footer" listClassName="flex flex-wrap gap-x-5 gap-y-2" linkClassName="font-semibold text-ink no-underline hover:underline" />
        </nav>
        <nav aria-label="Shop policies">
          <ul className="m-0 flex list-none flex-wrap gap-x-5 gap-y-2 p-0">
            {footerLinks.map(([href, label]) => (
              <li key={href}>
                <a href={href} className="font-semibold text-ink no-underline hover:underline">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="m-0">Competitive Shopping Association · Laguna Beach, CA 92651 · 30-day money-back guarantee</p>
      </div>
    </footer>
  );
}

/** Rendered after the page and the header, so it knows whether any island above could raise a toast. */
function ToasterWhenNeeded({ flash }: { flash: ToastInput | null }) {
  const { islandsUsed } = useRenderState();
  if (!flash && islandsUsed.size === 0) return null;
  return <Island name="Toaster" props={{ initial: flash }} mode="load" />;
}
