import { bottomBarTab } from '../components/BottomBar.tsx';
import { ViewerParts } from '../components/Layout.tsx';
import { renderTree } from '../components/render-document.tsx';
import { slotMarkup } from '../components/slots.tsx';
import { anonymousViewer, type Viewer } from '../components/viewer.ts';
import { publicUser } from '../domain/accounts/accounts.ts';
import { cartCount } from '../domain/orders/cart.ts';
import { latestNotifications, notificationView, unreadNotificationCount } from '../domain/accounts/notifications.ts';
import { profileStatus } from '../domain/accounts/profile.ts';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext, AppEnv } from './context.ts';
import { cartOwnerOf } from './visitor-cart.ts';
import { Piece } from './gzip-join.ts';
import type { SharedPage, ViewerPieces } from './shared-page.ts';

/** Units in a visitor's cart (the cookie's guest cart): read only for a request that carries the cookie. */
function visitorCartCount<E extends AppEnv>(c: AppContext<E>): number {
  const owner = cartOwnerOf(c);
  return owner === null ? 0 : cartCount(c.env.deps.db, owner);
}

export function viewerOf<E extends AppEnv>(c: AppContext<E>): Viewer {
  const user = c.get('user');
  if (!user) {
    const inCart = visitorCartCount(c);
    return inCart === 0 ? anonymousViewer : { ...anonymousViewer, cartCount: inCart };
  }
  const { db } = c.env.deps;
  return {
    user: publicUser(user),
    profileComplete: profileStatus(db, user.id).isComplete,
    cartCount: cartCount(db, user.id),
    unreadNotifications: unreadNotificationCount(db, user.id),
    notifications: latestNotifications(db, user.id).map(notificationView),
  };
}

/**
 * Who is looking, as far as the header and tail show it. A signed-in user's key carries the
 * viewer version the session lookup read (moved by triggers on every change of the cart,
 * notifications or profile, by any process), so a cached header is never one change behind.
 */
function viewerKey<E extends AppEnv>(c: AppContext<E>): string {
  const user = c.get('user');
  if (!user) {
    const inCart = visitorCartCount(c);
    return inCart === 0 ? 'visitor' : `visitor:cart:${inCart}`;
  }
  return `${user.id}:${c.get('viewerVersion')}:${user.isAdmin ? 'admin' : ''}:${user.username}`;
}

/** What else the viewer's parts depend on: where the page is, and what its islands need. */
export function shapeKey(page: Pick<SharedPage, 'path' | 'backHref' | 'islandsUsed' | 'needsImageFallback'>): string {
  const where = page.path === '/' ? 'home' : `back=${page.backHref}`;
  return `${where}|${bottomBarTab(page.path)}|${page.islandsUsed.join(',')}|${page.needsImageFallback ? 'img' : ''}`;
}

function renderViewerParts<E extends AppEnv>(c: AppContext<E>, page: SharedPage, toast: ToastInput | null): ViewerPieces {
  const { config, manifest } = c.env.deps;
  const { html } = renderTree(
    manifest,
    <ViewerParts viewer={viewerOf(c)} path={page.path} backHref={page.backHref} siteName={config.siteName} flash={toast} />,
    // Their own island id prefix: they join a page whose islands were numbered apart.
    { prefix: 'v', islandsUsed: page.islandsUsed, needsImageFallback: page.needsImageFallback },
  );
  const split = html.indexOf(slotMarkup('split'));
  return { header: new Piece(html.slice(0, split)), tail: new Piece(html.slice(split + slotMarkup('split').length)) };
}

/** The viewer's header and tail for a page: from the viewer cache unless a toast makes them one-off. */
export function viewerPartsFor<E extends AppEnv>(c: AppContext<E>, page: SharedPage, toast: ToastInput | null): ViewerPieces {
  if (toast) return renderViewerParts(c, page, toast);
  const key = `${viewerKey(c)}|${page.shape}`;
  const cache = c.env.deps.pageCache;
  const cached = cache.viewerParts(key);
  if (cached) return cached;
  const parts = renderViewerParts(c, page, null);
  cache.keepViewerParts(key, parts);
  return parts;
}
