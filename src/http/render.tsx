import type { ReactNode } from 'react';
import { Layout } from '../components/Layout.tsx';
import type { PageMeta } from '../components/Document.tsx';
import { renderDocument } from '../components/render-document.tsx';
import { anonymousViewer, type Viewer } from '../components/viewer.ts';
import { publicUser } from '../domain/accounts.ts';
import { cartCount } from '../domain/cart.ts';
import { latestNotifications, notificationView, unreadNotificationCount } from '../domain/notifications.ts';
import { profileStatus } from '../domain/profile.ts';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext } from './context.ts';
import { takeFlash } from './flash.ts';

export function viewerOf(c: AppContext): Viewer {
  const user = c.var.user;
  if (!user) return anonymousViewer;
  const { db } = c.var.deps;
  return {
    user: publicUser(user),
    profileComplete: profileStatus(db, user.id).isComplete,
    cartCount: cartCount(db, user.id),
    unreadNotifications: unreadNotificationCount(db, user.id),
    notifications: latestNotifications(db, user.id).map(notificationView),
  };
}

export type PageStatus = 200 | 400 | 401 | 403 | 404 | 409 | 413 | 429;

export interface RenderOptions {
  status?: PageStatus;
  /** A toast to show on this very page (a form post answered in place). */
  toast?: ToastInput;
  /**
   * Where the header's back button leads: the page above this one (a product goes back to its
   * gallery). A fixed target works without JavaScript and keeps cached pages the same for all.
   */
  backHref?: string;
}

/** Renders a page inside the shared layout. HTML is never cached by the browser without revalidation. */
export function renderPage(c: AppContext, meta: PageMeta, body: ReactNode, { status = 200, toast, backHref = '/' }: RenderOptions = {}) {
  const { config, manifest } = c.var.deps;
  const html = renderDocument(
    manifest,
    <Layout
      meta={meta}
      site={{ siteName: config.siteName, publicUrl: config.publicUrl, testMode: config.testModeBanner }}
      viewer={viewerOf(c)}
      backHref={backHref}
      flash={toast ?? takeFlash(c)}
    >
      {body}
    </Layout>,
  );
  c.header('Cache-Control', 'no-cache');
  return c.html(html, status);
}

/** Path and query of the current request, for canonical URLs. */
export function currentPath(c: AppContext): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}
