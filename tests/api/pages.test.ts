import { describe, expect, test } from 'bun:test';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { testApp, seededApp } from '../helpers/app.ts';
import { count, metaContent } from '../helpers/html.ts';

describe('home page', () => {
  test('has the site name as title, the default description and absolute og tags', async () => {
    const { client } = await seededApp();
    const response = await client().get('/');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>CSA</title>');
    expect(metaContent(html, 'description')).toBe('The Competitive Shopping Association. Discover premium designer products.');
    expect(metaContent(html, 'og:title')).toBe('CSA');
    expect(metaContent(html, 'og:url')).toBe('http://localhost/');
    expect(metaContent(html, 'og:image')).toBe('http://localhost/static/images/og-default.png');
    expect(metaContent(html, 'og:type')).toBe('website');
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).toContain('<link rel="canonical" href="http://localhost/"/>');
    for (const type of ['sunglasses', 'tshirt', 'shoe', 'book']) expect(html).toContain(`href="/products?type=${type}"`);
  });

  test('a signed-out home page ships no JavaScript', async () => {
    const { client } = await seededApp();
    const html = await (await client().get('/')).text();
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('data-island=');
  });

  test('SITE_NAME changes titles and the wordmark', async () => {
    const { client } = await testApp({ SITE_NAME: 'Laguna Play' });
    const html = await (await client().get('/auth')).text();
    expect(html).toContain('<title>Login | Laguna Play</title>');
    expect(html).toContain('Laguna Play</span>');
  });

  test('shows the empty-state texts when nothing is in the catalogue', async () => {
    const { client } = await testApp();
    const html = await (await client().get('/')).text();
    for (const name of ['sunglasses', 't-shirts', 'shoes', 'books']) {
      expect(html).toContain(`No ${name} available. Check back soon!`);
    }
  });
});

describe('shared navigation', () => {
  test('signed out: Login in the header and bottom bar, no account menu', async () => {
    const { client } = await testApp();
    const html = await (await client().get('/')).text();
    expect(html).toContain('href="/auth"');
    expect(html).not.toContain('data-menu="account"');
    for (const href of ['/', '/coach', '/cart', '/scoreboard']) expect(html).toContain(`href="${href}"`);
  });

  test('signed in: the avatar menu with My Profile, My Games and Logout, the profile dot, no admin items', async () => {
    const { client } = await testApp();
    const c = client();
    await c.post('/api/register', { json: { username: 'navuser', password: 'secret-pass' } });
    const html = await (await c.get('/')).text();
    expect(html).toContain('Account menu for navuser');
    expect(html).toContain('href="/profile"');
    expect(html).toContain('href="/scoreboard?tab=my-games"');
    expect(html).toContain('action="/logout"');
    expect(html).toContain('aria-label="Profile incomplete"');
    expect(html).not.toContain('Admin Panel');
  });

  test('admins also get the admin shortcut and Admin Panel', async () => {
    const ctx = await testApp();
    const { client } = ctx;
    await bootstrapAdmin(ctx);
    const c = client();
    const login = await c.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } });
    expect(login.status).toBe(200);
    expect((await login.json()).isAdmin).toBe(true);
    const html = await (await c.get('/')).text();
    expect(html).toContain('aria-label="Admin Panel"');
    expect(html).toContain('Admin Panel</a>');
  });

  test('the Coach item is highlighted on every coach path', async () => {
    const { client } = await testApp();
    const html = await (await client().get('/coach/tiktok')).text();
    expect(count(html, '[href="/coach"][aria-current="page"]')).toBeGreaterThan(0);
  });
});

describe('/auth page and its form posts', () => {
  test('renders the Login and Register tabs in an island', async () => {
    const { client } = await testApp();
    const html = await (await client().get('/auth?tab=register')).text();
    expect(html).toContain('data-island="AuthForm"');
    expect(html).toContain('>Login</a>');
    expect(html).toContain('>Register</a>');
    expect(html).toContain('Confirm Password');
    expect(html).toContain('<script type="module"');
  });

  test('a signed-in visitor to /auth goes to /', async () => {
    const { client } = await testApp();
    const c = client();
    await c.post('/api/register', { json: { username: 'already', password: 'secret-pass' } });
    const response = await c.get('/auth');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
  });

  test('registering without JavaScript signs in, redirects and shows the success toast once', async () => {
    const { client } = await testApp();
    const c = client();
    const response = await c.post('/auth/register', { form: { username: 'formuser', password: 'secret-pass', confirmPassword: 'secret-pass' } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const home = await (await c.get('/')).text();
    expect(home).toContain('Registration successful');
    expect(home).toContain('formuser');
    expect(await (await c.get('/')).text()).not.toContain('Registration successful');
  });

  test.each([
    [{ username: 'x', password: 'secret-pass', confirmPassword: '' }, 'Please confirm your password'],
    [{ username: 'x', password: 'secret-pass', confirmPassword: 'other-pass' }, 'Passwords do not match'],
    [{ username: '', password: 'secret-pass', confirmPassword: 'secret-pass' }, 'Username is required'],
  ])('the register form re-renders %j with its message', async (form, message) => {
    const { client } = await testApp();
    const response = await client().post('/auth/register', { form });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain('Registration failed');
  });

  test('a wrong password re-renders the login form with the Login failed toast', async () => {
    const { client } = await testApp();
    const response = await client().post('/auth/login', { form: { username: 'ghost', password: 'wrong-pass' } });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain('Login failed');
    expect(html).toContain('Invalid username or password');
    expect(html).toContain('value="ghost"');
  });

  test('login returns to a local next path, never to another site', async () => {
    const { client } = await testApp();
    const c = client();
    await c.post('/api/register', { json: { username: 'nexter', password: 'secret-pass' } });
    await c.post('/logout', { form: {} });
    const local = await c.post('/auth/login?next=%2Fscoreboard%3Ftab%3Dmy-games', { form: { username: 'nexter', password: 'secret-pass' } });
    expect(local.headers.get('location')).toBe('/scoreboard?tab=my-games');
    await c.post('/logout', { form: {} });
    const away = await c.post('/auth/login?next=%2F%2Fevil.example', { form: { username: 'nexter', password: 'secret-pass' } });
    expect(away.headers.get('location')).toBe('/');
  });

  test('the logout form ends the session and the next page says Logged out', async () => {
    const { client } = await testApp();
    const c = client();
    await c.post('/api/register', { json: { username: 'leaver', password: 'secret-pass' } });
    const response = await c.post('/logout', { form: {} });
    expect(response.status).toBe(303);
    expect((await c.get('/api/user')).status).toBe(401);
    const html = await (await c.get('/')).text();
    expect(html).toContain('Logged out');
    expect(html).toContain('You have been successfully logged out.');
  });
});

describe('guards and not found', () => {
  test.each(['/profile', '/profile?tab=orders', '/order-confirmation/5', '/admin', '/admin/book/new'])(
    'signed-out visitors to %s go to /auth and come back after',
    async (path) => {
      const { client } = await testApp();
      const response = await client().get(path);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`/auth?next=${encodeURIComponent(path)}`);
    },
  );

  test('an unknown path shows the 404 texts with status 404', async () => {
    const { client } = await testApp();
    const response = await client().get('/no/such/page');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('404 Page Not Found');
    expect(html).toContain('Did you forget to add the page to the router?');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });
});
