import { describe, expect, test } from 'bun:test';
import { testApp } from '../helpers/app.ts';

/*
 * Every page and API call for signed-in shoppers sends a signed-out visitor to sign in, and
 * changes nothing. Each page file guards its own routes (http/guards.ts), so this list is what
 * catches a route that lost its guard.
 */
describe('signed-out visitors at signed-in routes', () => {
  const pages = ['/profile', '/profile?tab=play', '/orders/1', '/order-confirmation/1', '/admin', '/admin/orders.csv', '/admin/influencers/new'];
  test.each(pages)('GET %s: 302 to /auth, coming back after sign-in', async (path) => {
    const response = await (await testApp()).client().get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/auth?next=${encodeURIComponent(path)}`);
  });

  const forms = ['/profile', '/profile/password', '/profile/delete', '/profile/play-limit', '/profile/self-exclusion', '/profile/sign-out-everywhere'];
  test.each(forms)('POST %s: 302 to /auth', async (path) => {
    const response = await (await testApp()).client().post(path, { form: { password: 'x', dailyEntryLimit: '1', period: '30d' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toStartWith('/auth?next=');
  });

  const calls: [string, string][] = [
    ['GET', '/api/user/profile'],
    ['PATCH', '/api/user/profile'],
    ['GET', '/api/user/profile-status'],
    ['GET', '/api/user/orders'],
    // The cart, its checkout and buy now are open to visitors (tests/api/visitor-cart.test.ts, guest-checkout.test.ts).
    ['GET', '/api/orders/1'],
    ['GET', '/api/notifications'],
    ['POST', '/api/notifications/read-all'],
    ['POST', '/api/user/password'],
    ['GET', '/api/user/export'],
    ['GET', '/api/user/play-settings'],
    ['POST', '/api/user/self-exclusion'],
  ];
  test.each(calls)('%s %s: 401 "Please log in to continue."', async (method, path) => {
    const response = await (await testApp()).client().request(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: {} });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toBe('Please log in to continue.');
  });
});
