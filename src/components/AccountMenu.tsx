import { LogoutIcon } from '../shared/ui/icons.tsx';
import type { Viewer } from './viewer.ts';

const item = 'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-sm text-ink no-underline hover:bg-slate-100 bg-transparent cursor-pointer text-left';

/**
 * The signed-in menu items. The header's avatar menu lists My Profile, My Games, Admin Panel,
 * Logout; the bottom bar's Profile menu lists Admin Panel, My Profile, Logout (spec section 2).
 */
export function AccountMenuItems({ viewer, variant }: { viewer: Viewer; variant: 'header' | 'bottom' }) {
  const admin = viewer.user?.isAdmin ? (
    <a key="admin" href="/admin" className={item}>
      Admin Panel
    </a>
  ) : null;
  const profile = (
    <a key="profile" href="/profile" className={item}>
      My Profile
      {!viewer.profileComplete && <span className="ml-auto w-2.5 h-2.5 rounded-full bg-coral" role="img" aria-label="Profile incomplete" />}
    </a>
  );
  const myGames = (
    <a key="games" href="/scoreboard?tab=my-games" className={item}>
      My Games
    </a>
  );
  const logout = (
    <form key="logout" method="post" action="/logout" className="m-0">
      <button type="submit" className={`${item} border-0 font-[inherit]`}>
        <LogoutIcon className="w-4 h-4" />
        Logout
      </button>
    </form>
  );
  return <>{variant === 'header' ? [profile, myGames, admin, logout] : [admin, profile, logout]}</>;
}
