import { useCallback, useEffect, useId, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { NotificationType, NotificationView } from '../shared/views/notifications.ts';
import { apiRequest } from './lib/http.ts';
import { alertNewGameNotifications, markAlertsSeen } from './lib/device-alerts.ts';
import { NOTIFICATIONS_CHANGED, NOTIFICATIONS_POLLED } from './lib/events.ts';
import { onLiveFallback, subscribeLive } from './lib/live.ts';
import { toast } from './lib/toast.ts';
import { BellIcon, GavelIcon, OutbidIcon } from '../shared/ui/icons.tsx';
import { formatStoreDateTime } from '../shared/store-time.ts';

/*
 * The header's notification bell (spec sections 2, 4 and 9): a badge with the unread count
 * ('9+' above 9), a panel with Mark all as read and a scrolling list, newest first. Clicking an
 * item marks it read and follows its action URL. The list is re-read every 30 s.
 *
 * The first render is the same on the server and in the browser: nothing reads the clock or
 * the window while rendering; relative times ('5 min ago') appear once the island has mounted.
 */

/** Spec section 9: notifications are re-read every 30 s. */
export const POLL_MS = 30_000;
/** Spec section 9: the latest 50 are kept. */
const LIMIT = 50;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', month: 'short', day: 'numeric' });
const dayYearFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', month: 'short', day: 'numeric', year: 'numeric' });
const yearFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric' });

export function badgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

/**
 * A short time for a notification: 'just now', '5 min ago', '3 h ago', otherwise the date in the
 * store's zone. Without `now` (the server and the first browser render) it is always the date.
 */
export function shortTime(timestamp: number, now: number | null): string {
  if (now !== null) {
    const age = Math.max(0, now - timestamp);
    if (age < MINUTE) return 'just now';
    if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
    if (age < DAY) return `${Math.floor(age / HOUR)} h ago`;
    return (yearFormat.format(timestamp) === yearFormat.format(now) ? dayFormat : dayYearFormat).format(timestamp);
  }
  return dayYearFormat.format(timestamp);
}

function newestFirst(list: NotificationView[]): NotificationView[] {
  return [...list].sort((a, b) => b.timestamp - a.timestamp || b.id - a.id).slice(0, LIMIT);
}

interface NotificationsResponse {
  notifications: NotificationView[];
  unread: number;
}

const iconButton =
  'relative inline-flex items-center justify-center w-10 h-10 rounded-full text-ink hover:bg-slate-100 no-underline cursor-pointer list-none bg-transparent border-0 p-0';

/** The header's cart badge and label follow the live count (the header itself is server-rendered). */
function showCartCount(count: number): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('header a[href="/cart"]')) {
    link.setAttribute('aria-label', `Cart, ${count} ${count === 1 ? 'item' : 'items'}`);
    let badge = link.querySelector<HTMLElement>('[data-cart-count]');
    if (count === 0) {
      badge?.remove();
      continue;
    }
    if (!badge) {
      badge = document.createElement('span');
      badge.dataset.cartCount = '';
      badge.className = 'absolute -top-0.5 -right-0.5 min-w-5 h-5 px-1 rounded-full bg-coral text-white text-[11px] font-bold flex items-center justify-center';
      link.append(badge);
    }
    badge.textContent = count > 9 ? '9+' : String(count);
  }
}

export default function NotificationBell({
  initial,
  unread: initialUnread,
  pollMs = POLL_MS,
}: {
  initial: NotificationView[];
  unread: number;
  /** For tests; the page leaves it at the spec's 30 s. */
  pollMs?: number;
}) {
  const [items, setItems] = useState(() => newestFirst(initial));
  const [unread, setUnread] = useState(initialUnread);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState<number | null>(null);

  const wrapperRef = useRef<HTMLDivElement>(null);
  const bellRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  /** Bumped by every local change, so a poll that started before it cannot undo it. */
  const generation = useRef(0);
  const mounted = useRef(true);

  const id = useId();
  const panelId = `${id}panel`;
  const headingId = `${id}heading`;

  // What the page arrived with is not news for the device alerts; later polls may be.
  useEffect(() => markAlertsSeen(initial), [initial]);

  // Relative times start after mount; they are refreshed with each poll and on opening.
  useEffect(() => {
    mounted.current = true;
    setNow(Date.now());
    return () => {
      mounted.current = false;
    };
  }, []);

  // The live stream sends the list (and the cart count) whenever it changes; polling every 30 s
  // is only the fallback when the stream cannot connect.
  const [polling, setPolling] = useState(false);
  useEffect(() => {
    const stop = subscribeLive('user', {}, (message) => {
      const data = message as Partial<NotificationsResponse> & { cartCount?: unknown };
      if (!mounted.current || !Array.isArray(data.notifications) || typeof data.unread !== 'number') return;
      generation.current++;
      alertNewGameNotifications(data.notifications);
      setItems(newestFirst(data.notifications));
      setUnread(data.unread);
      setNow(Date.now());
      if (typeof data.cartCount === 'number') showCartCount(data.cartCount);
    });
    const stopFallback = onLiveFallback(setPolling);
    return () => {
      stop();
      stopFallback();
    };
  }, []);

  // Re-read the list every 30 s while polling, and at once when another island says something
  // new was written (a failed payment); a failure keeps the last data.
  useEffect(() => {
    let inFlight = false;
    const refresh = () => {
      if (document.hidden || inFlight) return;
      inFlight = true;
      const started = generation.current;
      apiRequest<NotificationsResponse>('GET', '/api/notifications')
        .then((data) => {
          if (!mounted.current || started !== generation.current) return;
          if (!data || !Array.isArray(data.notifications) || typeof data.unread !== 'number') return;
          window.dispatchEvent(new CustomEvent(NOTIFICATIONS_POLLED, { detail: data.notifications }));
          alertNewGameNotifications(data.notifications);
          setItems(newestFirst(data.notifications));
          setUnread(data.unread);
          setNow(Date.now());
        })
        .catch(() => {})
        .finally(() => {
          inFlight = false;
        });
    };
    const timer = polling ? setInterval(refresh, pollMs) : null;
    window.addEventListener(NOTIFICATIONS_CHANGED, refresh);
    return () => {
      if (timer) clearInterval(timer);
      window.removeEventListener(NOTIFICATIONS_CHANGED, refresh);
    };
  }, [pollMs, polling]);

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) bellRef.current?.focus();
  }, []);

  // While open: Escape closes and returns to the bell; a press outside closes; focus moves in.
  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close(true);
      }
    };
    const onPointer = (event: Event) => {
      const target = event.target as Node | null;
      if (target && wrapperRef.current?.contains(target)) return;
      close(false);
    };
    // Focus leaving (Tab to another menu's button) closes it too: one open thing at a time.
    const onFocus = (event: FocusEvent) => {
      const target = event.target as Node | null;
      if (target && !wrapperRef.current?.contains(target)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('mousedown', onPointer);
    };
  }, [open, close]);

  const markLocallyRead = (target: NotificationView) => {
    if (target.read) return;
    generation.current++;
    setItems((list) => list.map((n) => (n.id === target.id ? { ...n, read: true } : n)));
    setUnread((count) => Math.max(0, count - 1));
  };

  const markAllRead = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await apiRequest('POST', '/api/notifications/read-all');
      if (!mounted.current) return;
      generation.current++;
      setItems((list) => list.map((n) => (n.read ? n : { ...n, read: true })));
      setUnread(0);
    } catch (error) {
      toast({ title: 'Error', description: error instanceof Error ? error.message : String(error), variant: 'destructive' });
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  const onItemClick = async (event: ReactMouseEvent<HTMLElement>, item: NotificationView) => {
    const wasUnread = !item.read;
    markLocallyRead(item);
    const request = wasUnread ? apiRequest('POST', `/api/notifications/${item.id}/read`).catch(() => undefined) : Promise.resolve();
    if (!item.actionUrl) return;
    // A new-tab or new-window click keeps the browser's own handling of the link.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    await request;
    window.location.assign(item.actionUrl);
  };

  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';

  return (
    <div ref={wrapperRef} className="relative" data-menu="notifications">
      <button
        ref={bellRef}
        type="button"
        className={iconButton}
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          if (open) close(true);
          else {
            setNow(Date.now());
            setOpen(true);
          }
        }}
      >
        <BellIcon />
        {unread > 0 && (
          <span
            data-notification-count=""
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 min-w-5 h-5 px-1 rounded-full bg-coral text-white text-[11px] font-bold flex items-center justify-center"
          >
            {badgeText(unread)}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-labelledby={headingId}
          tabIndex={-1}
          className="fixed left-2 right-2 top-14 z-50 sm:absolute sm:left-auto sm:right-0 sm:top-12 sm:w-96 rounded-xl border border-slate-200 bg-white text-ink shadow-xl outline-none"
        >
          <div className="flex items-center justify-between gap-2 px-4 py-3 border-b border-slate-100">
            <h2 id={headingId} className="m-0 text-base font-semibold">
              Notifications
            </h2>
            <button
              type="button"
              onClick={() => void markAllRead()}
              disabled={busy || unread === 0}
              className="rounded-md px-2 py-1 text-sm font-semibold text-sea bg-transparent border-0 cursor-pointer hover:underline disabled:cursor-default disabled:opacity-50 disabled:no-underline"
            >
              Mark all as read
            </button>
          </div>
          {items.length === 0 ? (
            <p className="m-0 px-4 py-6 text-sm text-slate-600 text-center">No notifications yet</p>
          ) : (
            <ul className="m-0 p-0 list-none max-h-[400px] overflow-y-auto" aria-label="Notification list">
              {items.map((n) => (
                <li key={n.id} className="border-b border-slate-100 last:border-b-0">
                  <NotificationItem item={n} now={now} onClick={(event) => void onItemClick(event, n)} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/** The types with an icon of their own beside the title: an auction's news reads at a glance among game and order news. */
const TYPE_ICONS: Partial<Record<NotificationType, { Icon: typeof BellIcon; className: string }>> = {
  auction_outbid: { Icon: OutbidIcon, className: 'text-coral' },
  auction_ended: { Icon: GavelIcon, className: 'text-sea' },
};

export function TypeIcon({ type }: { type: NotificationType }) {
  const icon = TYPE_ICONS[type];
  if (!icon) return null;
  return (
    <span data-notification-icon={type} className={`mt-0.5 shrink-0 ${icon.className}`}>
      <icon.Icon className="w-5 h-5" />
    </span>
  );
}

const itemClass = (read: boolean) =>
  `flex w-full gap-3 px-4 py-3 text-left no-underline text-ink border-0 cursor-pointer focus-visible:outline-offset-[-3px] ${
    read ? 'bg-white hover:bg-slate-50' : 'bg-sky-50 hover:bg-sky-100'
  }`;

function NotificationItem({ item, now, onClick }: { item: NotificationView; now: number | null; onClick: (event: ReactMouseEvent<HTMLElement>) => void }) {
  const body = (
    <>
      <span aria-hidden="true" className={`mt-1.5 w-2 h-2 shrink-0 rounded-full ${item.read ? 'bg-transparent' : 'bg-coral'}`} />
      <TypeIcon type={item.type} />
      <span className="flex-1 min-w-0 block">
        {!item.read && <span className="sr-only">Unread: </span>}
        <span className="block text-sm font-semibold">{item.title}</span>
        <span className="block mt-0.5 text-sm text-slate-600">{item.message}</span>
        <span className="flex items-center justify-between gap-2 mt-1 text-xs text-slate-600">
          <time dateTime={new Date(item.timestamp).toISOString()} title={formatStoreDateTime(item.timestamp)}>
            {shortTime(item.timestamp, now)}
          </time>
          {item.actionUrl && <span className="font-semibold text-sea">{item.actionText ?? 'View'}</span>}
        </span>
      </span>
    </>
  );
  if (item.actionUrl) {
    return (
      <a href={item.actionUrl} data-notification-id={item.id} className={itemClass(item.read)} onClick={onClick}>
        {body}
      </a>
    );
  }
  return (
    <button type="button" data-notification-id={item.id} className={itemClass(item.read)} onClick={onClick}>
      {body}
    </button>
  );
}
