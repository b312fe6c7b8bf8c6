import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { ToastInput } from '../shared/toast.ts';
import type { AppContext, AppEnv } from './context.ts';

const FLASH_COOKIE = 'csa_flash';

/** A toast carried to the next page (after a form post, or set by an island before it navigates), shown once. */
export function setFlash<E extends AppEnv>(c: AppContext<E>, toast: ToastInput): void {
  setCookie(c, FLASH_COOKIE, JSON.stringify(toast), { path: '/', httpOnly: true, sameSite: 'Lax', maxAge: 60 });
}

export function takeFlash<E extends AppEnv>(c: AppContext<E>): ToastInput | null {
  const raw = getCookie(c, FLASH_COOKIE);
  if (!raw) return null;
  deleteCookie(c, FLASH_COOKIE, { path: '/' });
  try {
    const value = JSON.parse(raw) as Partial<ToastInput>;
    if (typeof value.title !== 'string') return null;
    return {
      title: value.title.slice(0, 120),
      description: typeof value.description === 'string' ? value.description.slice(0, 300) : undefined,
      variant: value.variant === 'destructive' ? 'destructive' : 'default',
    };
  } catch {
    return null;
  }
}
