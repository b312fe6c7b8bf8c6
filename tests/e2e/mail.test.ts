import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { Client } from '../helpers/http-client.ts';
import { E2E_ADMIN, type RunningServer, startServer } from '../helpers/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';

setDefaultTimeout(90_000);

/* The real server talks SMTP to a real (in-process) SMTP server: receipts, refunds, resets and applications arrive. */

let smtp: TestSmtpServer;
let server: RunningServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'CSA Orders <orders@csa.example>', CLOCK: 'manual' } });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const PROFILE = {
  name: 'Mae Lane',
  email: 'mae@example.com',
  phone: '949-555-0177',
  address: { line1: '5 Ocean Way', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
};

describe('e-mail over SMTP', () => {
  test('a business application, an order receipt, its refund and a password reset reach the mailbox with text and HTML parts', async () => {
    const visitor = new Client(server);
    await visitor.ok('POST', '/api/business-applications', {
      businessName: 'Sunny Surf',
      contactName: 'Kai Beach',
      email: 'kai@sunnysurf.example',
      phone: '949-555-0100',
      address: '12 Coast Hwy',
      zipCode: '92651',
      businessType: 'retail',
      description: 'Surf boards and beach wear since 1990.',
      termsAgreed: true,
    });
    const application = await smtp.waitFor((m) => m.to.includes('kai@sunnysurf.example'));
    expect(application.subject).toBe('Application received');
    expect(application.from).toContain('orders@csa.example');
    expect(application.text).toContain('within 2-3 business days');
    expect(application.html).toContain('Sunny Surf');

    const shopper = new Client(server);
    await shopper.ok('POST', '/api/register', { username: 'mae', password: 'mae-pass-1' });
    await shopper.ok('PATCH', '/api/user/profile', { ...PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } });
    // The first address gets a link; once opened, reset links may go there.
    const confirm = await smtp.waitFor((m) => m.subject === 'Confirm your e-mail address');
    expect(confirm.to).toEqual(['mae@example.com']);
    const confirmToken = /\/auth\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(confirm.text)?.[1];
    await new Client(server).ok('POST', '/api/user/email/confirm', { token: confirmToken, password: 'mae-pass-1' });
    const products = (await shopper.ok('GET', '/api/products')) as { id: number; price: number }[];
    const product = products[0]!;
    const cents = Math.round(product.price * 100);
    const tax = Math.round(cents * 0.08);
    const order = (await shopper.ok('POST', '/api/orders', {
      productId: product.id,
      quantity: 1,
      subtotal: cents / 100,
      shipping: 0,
      tax: tax / 100,
      total: (cents + tax) / 100,
      shippingMethod: 'local',
      customerInfo: {
        name: PROFILE.name,
        email: PROFILE.email,
        phone: PROFILE.phone,
        address: { line1: PROFILE.address.line1, city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
      },
      paymentMethod: 'square',
    })) as { id: number };
    const receipt = await smtp.waitFor((m) => m.subject === `Your order #${order.id} is confirmed`);
    expect(receipt.to).toEqual(['mae@example.com']);
    expect(receipt.text).toContain(`$${((cents + tax) / 100).toFixed(2)}`);
    expect(receipt.text).toContain('Visa ending in 1111');
    expect(receipt.text).toContain(`${server.url}/orders/${order.id}`);
    expect(receipt.html).toContain(`href="${server.url}/orders/${order.id}"`);

    const admin = new Client(server);
    await admin.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
    await admin.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
    await admin.ok('POST', `/api/admin/orders/${order.id}/status`, { status: 'canceled' });
    const refund = await smtp.waitFor((m) => m.subject === `Refund for order #${order.id}`);
    expect(refund.text).toContain(`$${((cents + tax) / 100).toFixed(2)} has been refunded`);

    await new Client(server).ok('POST', '/api/password-reset', { email: 'mae@example.com' });
    const reset = await smtp.waitFor((m) => m.subject === 'Reset your password');
    expect(reset.to).toEqual(['mae@example.com']);
    expect(reset.text).toMatch(new RegExp(`${server.url}/auth/reset\\?token=[A-Za-z0-9_-]{40,}`));
    // Nothing was sent twice.
    expect(smtp.messages.filter((m) => m.subject === `Your order #${order.id} is confirmed`)).toHaveLength(1);
  });
});

describe('the winner of a game', () => {
  test('gets a "You won" e-mail with the claim link once the game is settled', async () => {
    const HOUR = 3_600_000;
    const clock = new Client(server);
    const move = async (body: { now?: number; advanceMs?: number }) => clock.ok('POST', '/api/test/clock', body);
    const tenPast = Math.floor(Date.now() / HOUR) * HOUR + HOUR + 10 * 60_000;
    await move({ now: tenPast });
    const players: Client[] = [];
    for (const name of ['mail_win_a', 'mail_win_b']) {
      const player = new Client(server);
      await player.ok('POST', '/api/register', { username: name, password: 'win-pass-1' });
      await player.ok('PATCH', '/api/user/profile', {
        ...PROFILE,
        email: `${name}@example.com`,
        paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
      });
      await player.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
      players.push(player);
    }
    const book = ((await players[0]!.ok('GET', '/api/products?q=old%20man')) as { id: number; price: number }[])[0]!;
    expect(book.price).toBe(2);
    const influencers = ((await players[0]!.ok('GET', '/api/influencers')) as { id: string }[]).map((i) => i.id);
    for (const [n, player] of players.entries()) {
      await player.ok('POST', '/api/plays', { productId: book.id, influencerIds: influencers.slice(n * 5, n * 5 + 5) });
      await player.ok('POST', '/api/payments', { productId: book.id, amount: 1, type: 'play' });
    }
    await move({ now: tenPast + 50 * 60_000 });
    await move({ advanceMs: HOUR + 60_000 });
    const won = await smtp.waitFor((m) => m.subject.startsWith('You won'));
    expect(['mail_win_a@example.com', 'mail_win_b@example.com']).toContain(won.to[0]!);
    expect(won.text).toContain(`${server.url}/cart`);
    expect(won.text).toContain('$1 plus tax with free delivery within 2-3 hours');
    expect(won.html).toContain(`href="${server.url}/cart"`);
    expect(smtp.messages.filter((m) => m.subject.startsWith('You won'))).toHaveLength(1);
  });
});

describe('without SMTP_URL', () => {
  test('development writes .eml files to DATA_DIR/mail and logs each file name', async () => {
    const dev = await startServer();
    try {
      await new Client(dev).ok('POST', '/api/business-applications', {
        businessName: 'Tide Pool Books',
        contactName: 'Ana Reed',
        email: 'ana@tidepool.example',
        phone: '949-555-0111',
        address: '3 Forest Ave',
        zipCode: '92651',
        businessType: 'retail',
        description: 'Used books by the sea for twenty years.',
        termsAgreed: true,
      });
      const dir = join(dev.dataDir, 'data', 'mail');
      const until = Date.now() + 15_000;
      while (Date.now() < until && !(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('-business_application.eml')))) await Bun.sleep(100);
      const file = readdirSync(dir).find((f) => f.endsWith('-business_application.eml'))!;
      expect(file).toBeDefined();
      expect(await dev.outputContaining(join(dir, file))).toContain(join(dir, file));
    } finally {
      await dev.stop();
    }
  });

  test('production refuses to start without SMTP_URL, and starts with MAIL=off', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'csa-mail-prod-'));
    try {
      const { SMTP_URL: _smtp, MAIL: _mail, ...inherited } = process.env;
      const env = {
        ...inherited,
        NODE_ENV: 'production',
        SEED_KEY: 'cd'.repeat(32),
        PAYMENTS: 'test',
        ADMIN_PASSWORD: 'prod-pass-1',
        ADMIN_PIN: '975310',
        PORT: '0',
        DATA_DIR: join(dataDir, 'data'),
      };
      const refused = Bun.spawnSync([process.execPath, join(projectRoot, 'src/server.ts')], { cwd: dataDir, env, stdout: 'pipe', stderr: 'pipe' });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr.toString()).toContain('SMTP_URL: production sends receipts and password resets by e-mail');
      const off = await startServer({ env: { NODE_ENV: 'production', PAYMENTS: 'test', MAIL: 'off', SEED_KEY: 'cd'.repeat(32) } });
      try {
        expect((await fetch(`${off.url}/healthz`)).status).toBe(200);
        expect(await off.outputContaining('MAIL=off')).toContain('MAIL=off');
        // What is queued is settled as never to be sent: nothing waits, so the backlog alert stays quiet.
        await new Client(off).ok('POST', '/api/business-applications', {
          businessName: 'Quiet Cove',
          contactName: 'Ana Reed',
          email: 'ana@quietcove.example',
          phone: '949-555-0112',
          address: '4 Forest Ave',
          zipCode: '92651',
          businessType: 'retail',
          description: 'Maps and charts of the coast since 1990.',
          termsAgreed: true,
        });
        const db = new Database(join(off.dataDir, 'data', 'store.db'), { readonly: true });
        const statuses = () =>
          db
            .query<{ status: string }, []>('select status from email_outbox')
            .all()
            .map((row) => row.status);
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline && statuses().join() !== 'mail_off') await Bun.sleep(50);
        expect(statuses()).toEqual(['mail_off']);
        db.close();
        expect(await (await fetch(`${off.url}/metrics`)).text()).toContain('csa_email_outbox_backlog 0');
      } finally {
        await off.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
