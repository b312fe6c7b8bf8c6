import type { ReactNode } from 'react';
import { AccountMenuItems } from './AccountMenu.tsx';
import { CartIcon, CoachIcon, HomeIcon, LoginIcon, TrophyIcon, UserIcon } from '../shared/ui/icons.tsx';
import { badgeText } from './format.ts';
import { Menu } from './Menu.tsx';
import type { Viewer } from './viewer.ts';

const itemClass = (active: boolean) =>
  `relative flex flex-1 flex-col items-center justify-center gap-0.5 h-full text-[11px] font-medium no-underline cursor-pointer list-none ${
    active ? 'text-coral-dark' : 'text-slate-600 hover:text-ink'
  }`;

function Item({ href, label, icon, active, badge }: { href: string; label: string; icon: ReactNode; active: boolean; badge?: string }) {
  return (
    <a href={href} className={itemClass(active)} aria-current={active ? 'page' : undefined}>
      {icon}
      {label}
      {badge && (
        <span className="absolute top-1 left-1/2 ml-1 min-w-4 h-4 px-1 rounded-full bg-coral text-white text-[10px] font-bold flex items-center justify-center">
          {badge}
        </span>
      )}
    </a>
  );
}

export type BottomBarTab = 'home' | 'coach' | 'cart' | 'scoreboard' | 'account' | null;

/** Which item of the bottom bar a path marks as the current one (Profile when signed in, Login when not). */
export function bottomBarTab(path: string): BottomBarTab {
  const pathname = path.split('?')[0] ?? '/';
  if (pathname === '/') return 'home';
  if (pathname.startsWith('/coach')) return 'coach';
  if (pathname === '/cart') return 'cart';
  if (pathname === '/scoreboard') return 'scoreboard';
  if (pathname.startsWith('/profile') || pathname.startsWith('/admin') || pathname === '/auth') return 'account';
  return null;
}

/**
 * Spec section 2, bottom bar: Home, Coach, Cart, Scoreboard, and Profile (signed in) or Login.
 * Narrow screens only: on wide ones a fixed bar would cover focused controls (WCAG 2.4.11) for
 * no gain, and the header carries the same links (Header's MainLinks).
 */
export function BottomBar({ viewer, path }: { viewer: Viewer; path: string }) {
  const tab = bottomBarTab(path);
  const profileActive = tab === 'account';
  return (
    <nav aria-label="Main" className="fixed bottom-0 inset-x-0 z-40 md:hidden bg-white border-t border-slate-200 pb-[env(safe-area-inset-bottom)] print:hidden">
      <div className="mx-auto max-w-xl flex items-stretch h-16">
        <Item href="/" label="Home" icon={<HomeIcon />} active={tab === 'home'} />
        <Item href="/coach" label="Coach" icon={<CoachIcon />} active={tab === 'coach'} />
        <Item href="/cart" label="Cart" icon={<CartIcon />} active={tab === 'cart'} badge={viewer.cartCount > 0 ? badgeText(viewer.cartCount) : undefined} />
        <Item href="/scoreboard" label="Scoreboard" icon={<TrophyIcon />} active={tab === 'scoreboard'} />
        {viewer.user ? (
          <div className="flex flex-1">
            <Menu
              id="profile"
              menuName="profile"
              label="Profile menu"
              button={
                <>
                  <UserIcon />
                  Profile
                  {!viewer.profileComplete && <span className="absolute top-2 left-1/2 ml-2 w-2 h-2 rounded-full bg-coral" />}
                </>
              }
              buttonClassName={`${itemClass(profileActive)} border-0 bg-transparent font-[inherit] cursor-pointer`}
              placement="above-end"
              panelClassName="w-52 rounded-xl border border-slate-200 bg-white p-2 shadow-xl"
            >
              <AccountMenuItems viewer={viewer} variant="bottom" />
            </Menu>
          </div>
        ) : (
          <Item href="/auth" label="Login" icon={<LoginIcon />} active={tab === 'account'} />
        )}
      </div>
    </nav>
  );
}
