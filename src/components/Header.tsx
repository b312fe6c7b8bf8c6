import { BackIcon, BellIcon, CartIcon, MenuIcon, SearchIcon, ShieldIcon } from '../shared/ui/icons.tsx';
import { AccountMenuItems } from './AccountMenu.tsx';
import { bottomBarTab } from './BottomBar.tsx';
import { badgeText } from './format.ts';
import { Island } from './Island.tsx';
import { Menu } from './Menu.tsx';
import type { Viewer } from './viewer.ts';
import { SearchForm } from './SearchForm.tsx';
import { WaysToBuyLinks } from './WaysToBuy.tsx';

const siteLinks: { href: string; label: string }[] = [
  { href: '/', label: 'Home' },
  { href: '/products', label: 'Shop all products' },
  { href: '/scoreboard', label: 'Scoreboard' },
  { href: '/welcome', label: 'Welcome' },
  { href: '/tutorial', label: 'How to play' },
  { href: '/sunglass-gallery', label: 'Sunglass Gallery' },
  { href: '/business-portal', label: 'Business Portal' },
  { href: '/coach', label: 'Coach' },
];

const menuLink = 'block rounded-lg px-3 py-2 text-sm text-ink no-underline hover:bg-slate-100';

const iconButton = 'relative inline-flex items-center justify-center w-10 h-10 rounded-full text-ink hover:bg-slate-100 no-underline cursor-pointer list-none';

/**
 * Spec section 2, top header: back button (menu icon on the home page), the wordmark,
 * search, notification bell, cart, admin shortcut and the avatar menu.
 */
export function Header({ viewer, path, backHref, siteName }: { viewer: Viewer; path: string; backHref: string; siteName: string }) {
  const { user } = viewer;
  const isHome = path === '/';
  return (
    <header className="sticky top-0 z-40 bg-white/95 backdrop-blur border-b border-slate-200 print:hidden">
      <div className="mx-auto max-w-6xl flex items-center gap-1 px-2 sm:px-4 h-14">
        {isHome ? (
          <Menu
            id="site"
            menuName="site"
            label="Open menu"
            button={<MenuIcon />}
            buttonClassName={iconButton}
            placement="below-start"
            panelClassName="w-60 rounded-xl border border-slate-200 bg-white p-2 shadow-xl"
          >
            <nav aria-label="Site">
              {siteLinks.map((link) => (
                <a key={link.href} href={link.href} className={menuLink}>
                  {link.label}
                </a>
              ))}
              <p className="m-0 mt-1 border-t border-slate-100 px-3 pt-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Ways to buy</p>
              <WaysToBuyLinks place="menu" listClassName="" linkClassName={menuLink} />
            </nav>
          </Menu>
        ) : (
          <a href={backHref} className={iconButton} aria-label="Go back">
            <BackIcon />
          </a>
        )}
        <a href="/welcome" aria-label="Welcome" className="inline-flex items-center shrink-0">
          <img src="/static/images/logo.svg" alt="" width={32} height={32} className="w-8 h-8" />
        </a>
        <a href="/" className="ml-1 mr-auto flex flex-col leading-tight no-underline text-ink min-w-0">
          <span className="text-lg font-extrabold tracking-tight">{siteName}</span>
          <span className="hidden sm:block text-[11px] text-slate-600 truncate">The Competitive Shopping Association</span>
        </a>
        <MainLinks path={path} />
        <Menu
          id="search"
          menuName="search"
          label="Search products"
          button={<SearchIcon />}
          buttonClassName={iconButton}
          placement="below-stretch"
          panelClassName="rounded-xl border border-slate-200 bg-white p-3 shadow-xl"
        >
          <SearchForm
            id="header-search"
            action="/products"
            label="Search by brand, model or description"
            placeholder="Search brand, model or description"
            look="header"
          />
        </Menu>
        <NotificationBell viewer={viewer} />
        <a href="/cart" className={iconButton} aria-label={`Cart, ${viewer.cartCount} ${viewer.cartCount === 1 ? 'item' : 'items'}`}>
          <CartIcon />
          {viewer.cartCount > 0 && (
            <span
              data-cart-count=""
              className="absolute -top-0.5 -right-0.5 min-w-5 h-5 px-1 rounded-full bg-coral text-white text-[11px] font-bold flex items-center justify-center"
            >
              {badgeText(viewer.cartCount)}
            </span>
          )}
        </a>
        {user?.isAdmin && (
          <a href="/admin" className={iconButton} aria-label="Admin Panel">
            <ShieldIcon />
          </a>
        )}
        {user ? (
          <Menu
            id="account"
            menuName="account"
            label={`Account menu for ${user.username}`}
            button={
              <>
                <span className="w-8 h-8 rounded-full bg-ink text-white text-sm font-bold flex items-center justify-center uppercase">
                  {user.username.slice(0, 1)}
                </span>
                {!viewer.profileComplete && <span className="absolute top-1 right-1 w-2.5 h-2.5 rounded-full bg-coral ring-2 ring-white" />}
              </>
            }
            buttonClassName={`${iconButton} ml-1`}
            placement="below-end"
            panelClassName="w-56 rounded-xl border border-slate-200 bg-white p-2 shadow-xl"
          >
            <p className="m-0 px-3 py-2 text-xs text-slate-600">
              Signed in as <strong className="text-ink">{user.username}</strong>
            </p>
            <AccountMenuItems viewer={viewer} variant="header" />
          </Menu>
        ) : (
          <a
            href="/auth"
            className="ml-1 inline-flex items-center h-9 px-3 rounded-full bg-ink text-white text-sm font-semibold no-underline hover:bg-ink-light"
          >
            Login
          </a>
        )}
      </div>
    </header>
  );
}

const mainLinks = [
  { href: '/', label: 'Home' },
  { href: '/coach', label: 'Coach' },
  { href: '/scoreboard', label: 'Scoreboard' },
] as const;

/**
 * The bottom bar's links for wide screens, where the bar is hidden (cart and account are the
 * header's own), and the ways to buy in a drop-down (on a phone they are in the site menu, the
 * footer and the home page).
 */
function MainLinks({ path }: { path: string }) {
  const tab = bottomBarTab(path);
  return (
    <nav aria-label="Main" className="hidden md:flex items-center gap-1 mr-2">
      {mainLinks.map((link) => {
        const active = bottomBarTab(link.href) === tab && tab !== null;
        return (
          <a
            key={link.href}
            href={link.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-full px-3 py-2 text-sm font-semibold no-underline hover:bg-slate-100 ${active ? 'text-coral-dark' : 'text-ink'}`}
          >
            {link.label}
          </a>
        );
      })}
      <Menu
        id="ways"
        menuName="ways"
        label="Ways to buy"
        button={
          <>
            Ways to buy <span aria-hidden="true">▾</span>
          </>
        }
        buttonClassName="rounded-full px-3 py-2 text-sm font-semibold text-ink hover:bg-slate-100 cursor-pointer"
        placement="below-start"
        panelClassName="w-52 rounded-xl border border-slate-200 bg-white p-2 shadow-xl"
      >
        <WaysToBuyLinks place="header" listClassName="" linkClassName={menuLink} />
      </Menu>
    </nav>
  );
}

function NotificationBell({ viewer }: { viewer: Viewer }) {
  if (!viewer.user) {
    return (
      <a href="/auth" className={iconButton} aria-label="Notifications">
        <BellIcon />
      </a>
    );
  }
  return <Island name="NotificationBell" props={{ initial: viewer.notifications, unread: viewer.unreadNotifications }} />;
}
