import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, mock, test } from 'bun:test';
import { testApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';

/*
 * The /auth page as the server renders it, hydrated under happy-dom by the real island
 * runtime: the AuthForm and Toaster roots, and the toast signal they share.
 */

let html = '';
const errors: unknown[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  const { client } = await testApp();
  html = await (await client().get('/auth')).text();
  registerDom({ url: 'http://localhost/auth', width: 390, height: 844 });
  const originalError = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args);
    originalError(...args);
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  // Unmount the toast (and its 5 s auto-close timer) while the window still exists.
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

function setField(form: HTMLFormElement, name: string, value: string) {
  (form.querySelector(`[name="${name}"]`) as HTMLInputElement).value = value;
}

describe('AuthForm island', () => {
  test('hydrates over the server HTML without a mismatch', async () => {
    await startPageIslands(html);
    await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'both islands to hydrate');
    expect(errors).toEqual([]);
  });

  test('checks the login rules in the browser before calling the API', async () => {
    const fetchMock = mock(realFetch);
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const form = document.querySelector('form[action^="/auth/login"]') as HTMLFormElement;
    (form.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await until(() => form.textContent!.includes('Username is required'), 'the username message');
    expect(form.textContent).toContain('Password must be at least 6 characters');
    expect(form.querySelector('[name="username"]')!.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a refused login shows the Login failed toast from the other island', async () => {
    const fetchMock = mock(async () => new Response(JSON.stringify({ message: 'Invalid username or password' }), { status: 401 }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const form = document.querySelector('form[action^="/auth/login"]') as HTMLFormElement;
    setField(form, 'username', 'someone');
    setField(form, 'password', 'wrong-password');
    (form.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await until(() => document.querySelector('[data-toast]') !== null, 'the toast');
    const toast = document.querySelector('[data-toast]')!;
    expect(toast.textContent).toContain('Login failed');
    expect(toast.textContent).toContain('Invalid username or password');
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/login');
    expect(JSON.parse(String(init.body))).toEqual({ username: 'someone', password: 'wrong-password' });
    expect(document.querySelector('section[aria-label="Notifications (F8)"] [role="status"]')).not.toBeNull();
  });

  test('the Register tab asks to confirm the password and compares both', async () => {
    const tab = [...document.querySelectorAll('[role="tab"]')].find((el) => el.textContent === 'Register') as HTMLAnchorElement;
    tab.click();
    await until(() => tab.getAttribute('aria-selected') === 'true', 'the Register tab');
    const form = document.querySelector('form[action^="/auth/register"]') as HTMLFormElement;
    expect((form.closest('[role="tabpanel"]') as HTMLElement).hidden).toBe(false);
    setField(form, 'username', 'newcomer');
    setField(form, 'password', 'secret-pass');
    setField(form, 'confirmPassword', 'secret-typo');
    (form.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await until(() => form.textContent!.includes('Passwords do not match'), 'the mismatch message');
    setField(form, 'confirmPassword', '');
    (form.querySelector('button[type="submit"]') as HTMLButtonElement).click();
    await until(() => form.textContent!.includes('Please confirm your password'), 'the confirm message');
  });

  test('F8 moves focus to the toast region', async () => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8' }));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Notifications (F8)');
  });
});
