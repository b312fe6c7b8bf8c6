import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { DEMO_CHARITY } from '../../src/config.ts';
import { products } from '../../src/db/schema.ts';
import { sendPendingEmails } from '../../src/domain/mail/sender.ts';
import { smtpTransport } from '../../src/domain/mail/transport.ts';
import { DONATIONS_CLOSED, NOT_DONATABLE } from '../../src/domain/promotions/donations.ts';
import { answeredWorkDone } from '../../src/domain/operations/after-answer.ts';
import { allOrders, aviator, checkoutStore, stockOf } from '../helpers/checkout.ts';
import { donatableTee, donationBody, donor } from '../helpers/donations.ts';
import type { TestClient } from '../helpers/app.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { deliverOutbox } from '../helpers/outbox.ts';
import { first, headingOf, islandProps, text, texts, textOf } from '../helpers/html.ts';
import { adminWithPin } from '../helpers/actors.ts';

/*
 * Issue 29, 'Buy to donate': POST /api/orders with `donate: true` buys a donateEnabled product
 * for the shop's charity partner: no shipping address asked, the charity's address on the order,
 * the receipt says donation and promises the buyer no delivery.
 */

const tee = donatableTee;

const donate = (client: TestClient, json: unknown) => client.post('/api/orders', { json });

describe('POST /api/orders with donate: true', () => {
  test('no shipping address asked: 201, the order goes to the charity at its address, paid once, stock down by one', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const response = await donate(ctx.shopper, donationBody(p.id, p.priceCents));
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const order = allOrders(ctx)[0]!;
    expect(order).toMatchObject({
      id,
      status: 'processing',
      donationTo: DEMO_CHARITY.name,
      shippingAddress: DEMO_CHARITY.address,
      customerName: donor.name,
      customerEmail: donor.email,
      subtotalCents: 4500,
      taxCents: 360,
      shippingCents: 0,
      totalCents: 4860,
      shippingMethod: 'local',
    });
    expect(stockOf(ctx, p.id)).toBe(p.quantity - 1);
    expect(ctx.gateway.payments()).toHaveLength(1);
    expect(ctx.gateway.payments()[0]!.amountCents).toBe(4860);

    const view = (await (await ctx.shopper.get(`/api/orders/${id}`)).json()) as { donation: { charity: string } | null };
    expect(view.donation).toEqual({ charity: DEMO_CHARITY.name });
  });

  test('the receipt e-mail, sent over real SMTP, says donation to the charity and promises no delivery', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    expect((await donate(ctx.shopper, donationBody(p.id, p.priceCents))).status).toBe(201);
    const smtp = await startSmtpServer();
    try {
      await answeredWorkDone();
      const transport = smtpTransport(smtp.url, '"CSA" <no-reply@shop.example.com>', 'help@shop.example.com');
      await sendPendingEmails({ db: ctx.db, clock: ctx.clock, publicUrl: 'https://shop.example.com', transport });
      transport.close();
      const mail = await smtp.waitFor((m) => m.to.includes(donor.email));
      expect(mail.subject).toBe(`Donation to ${DEMO_CHARITY.name}: thank you`);
      expect(mail.text).toContain(`Donation to ${DEMO_CHARITY.name}: thank you`);
      expect(mail.text).toContain(DEMO_CHARITY.address);
      expect(mail.text).not.toContain('delivered to you');
      expect(mail.text).not.toContain('within 2-3 hours');
    } finally {
      await smtp.stop();
    }
  });

  test('a visitor donates as a guest: no account, no address, the receipt goes to the e-mail given', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const visitor = ctx.client();
    const response = await donate(visitor, donationBody(p.id, p.priceCents, { customerInfo: { ...donor, email: 'guest.giver@example.com' } }));
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect(allOrders(ctx).find((o) => o.id === id)).toMatchObject({
      status: 'processing',
      donationTo: DEMO_CHARITY.name,
      customerEmail: 'guest.giver@example.com',
    });
    const sent = await deliverOutbox(ctx);
    expect(sent.find((m) => m.to === 'guest.giver@example.com')?.subject).toBe(`Donation to ${DEMO_CHARITY.name}: thank you`);
  });

  test('an address sent with a donation is ignored, even outside 92651', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const elsewhere = { ...donor, address: { line1: '1 Main St', city: 'Boston', state: 'MA', postalCode: '02108' } };
    const response = await donate(ctx.shopper, donationBody(p.id, p.priceCents, { customerInfo: elsewhere }));
    expect(response.status).toBe(201);
    expect(allOrders(ctx)[0]!.shippingAddress).toBe(DEMO_CHARITY.address);
  });

  test('a product without donateEnabled: 409 with the reason, nothing ordered, charged or taken from stock', async () => {
    const ctx = await checkoutStore();
    const p = aviator(ctx);
    const response = await donate(ctx.shopper, donationBody(p.id, p.priceCents));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toBe(NOT_DONATABLE);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(p.quantity);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('without donate the address is still required: 400 naming it, nothing ordered', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const { donate: _, ...plain } = donationBody(p.id, p.priceCents);
    const response = await donate(ctx.shopper, plain);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fields: Record<string, string> };
    expect(Object.keys(body.fields)).toContain('address');
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test('cash on delivery is refused for a donation, and a donor still needs an e-mail and phone', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    expect((await donate(ctx.shopper, donationBody(p.id, p.priceCents, { paymentMethod: 'cod' }))).status).toBe(400);
    const noPhone = await donate(ctx.shopper, donationBody(p.id, p.priceCents, { customerInfo: { name: donor.name, email: donor.email } }));
    expect(noPhone.status).toBe(400);
    expect(((await noPhone.json()) as { fields: Record<string, string> }).fields.phone).toBe('Please enter a valid phone number');
    expect((await donate(ctx.shopper, donationBody(p.id, p.priceCents, { donate: 'yes' }))).status).toBe(400);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(p.quantity);
  });

  test('a changed total is a 409 with the new totals, as for any buy now', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const response = await donate(ctx.shopper, donationBody(p.id, p.priceCents, { total: 1 }));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { summary: { total: number } }).summary.total).toBe(48.6);
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test('a production store without CHARITY_NAME takes no donations: 409, nothing changed', async () => {
    const ctx = await checkoutStore();
    ctx.config.charity = null;
    const p = tee(ctx);
    const response = await donate(ctx.shopper, donationBody(p.id, p.priceCents));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toBe(DONATIONS_CLOSED);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(ctx.db.select().from(products).where(eq(products.id, p.id)).get()!.quantity).toBe(p.quantity);
  });
});

describe('the donation pages', () => {
  test("'Donate this' shows on a donateEnabled product's page only, leading to the checkout in donation mode", async () => {
    const ctx = await checkoutStore();
    const page = await (await ctx.client().get(`/product/${tee(ctx).id}`)).text();
    const link = first(page, '[data-donate-this] a');
    expect(link?.getAttribute('href')).toBe(`/checkout?productId=${tee(ctx).id}&donate=1`);
    expect(textOf(first(page, '[data-donate-this]')!)).toContain(DEMO_CHARITY.name);
    expect(first(await (await ctx.client().get(`/product/${aviator(ctx).id}`)).text(), '[data-donate-this]')).toBeUndefined();
  });

  test('the checkout in donation mode names the charity and its address, and its island sends a donation', async () => {
    const ctx = await checkoutStore();
    const html = await (await ctx.shopper.get(`/checkout?productId=${tee(ctx).id}&donate=1`)).text();
    expect(headingOf(html)).toBe('Checkout: donation');
    const props = islandProps<{ donation: { name: string; address: string } | null }>(html, 'BuyNowCheckout');
    expect(props.donation).toEqual(DEMO_CHARITY);
    const text = textOf(html);
    expect(text).toContain(DEMO_CHARITY.address);
    expect(text).toContain('No shipping address needed');
    expect(first(html, 'input[name="postalCode"]')).toBeUndefined();
  });

  test('donation mode for a product without Donate says why and shows the ordinary checkout', async () => {
    const ctx = await checkoutStore();
    const html = await (await ctx.shopper.get(`/checkout?productId=${aviator(ctx).id}&donate=1`)).text();
    expect(text(html, '[data-donation-refused]')).toBe(NOT_DONATABLE);
    expect(islandProps<{ donation: unknown }>(html, 'BuyNowCheckout').donation).toBeNull();
  });

  test('the confirmation and the order page say it was a donation to the charity', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const { id } = (await (await donate(ctx.shopper, donationBody(p.id, p.priceCents))).json()) as { id: number };
    const confirmation = await (await ctx.shopper.get(`/order-confirmation/${id}`)).text();
    expect(headingOf(confirmation)).toBe(`Thank you! Your donation to ${DEMO_CHARITY.name} is confirmed.`);
    expect(text(confirmation, '[data-donation] h2')).toBe(`Donation to ${DEMO_CHARITY.name}`);
    expect(textOf(confirmation)).not.toContain('Free delivery to your door');
    const orderPage = await (await ctx.shopper.get(`/orders/${id}`)).text();
    expect(headingOf(orderPage)).toBe(`Donation #${id}`);
    expect(textOf(first(orderPage, '[data-donation]')!)).toContain(DEMO_CHARITY.address);
  });

  test('the order page of a donation, before and after it is handed over: no returns box, no shipping line, donated to charity', async () => {
    const ctx = await checkoutStore();
    const p = tee(ctx);
    const { id } = (await (await donate(ctx.shopper, donationBody(p.id, p.priceCents))).json()) as { id: number };
    const admin = await adminWithPin(ctx);
    for (const step of ['placed', 'handed over']) {
      if (step === 'handed over') expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'completed' } })).status).toBe(200);
      const page = await (await ctx.shopper.get(`/orders/${id}`)).text();
      const main = textOf(first(page, 'main')!);
      expect(first(page, '#return')).toBeUndefined();
      expect(main).not.toContain('Request a return');
      expect(main).not.toContain('applies once it is delivered');
      expect(main).not.toContain('Nothing comes to you');
      expect(texts(page, '#items-title ~ dl dt')).toEqual(['Subtotal', 'Tax', 'Total']);
      expect(textOf(first(page, '[data-donation]')!)).toContain(
        step === 'placed'
          ? `You donated it to charity: we hand it over to ${DEMO_CHARITY.name}`
          : `You donated it to charity: we handed it over to ${DEMO_CHARITY.name}`,
      );
    }
    // The receipt has no shipping line either.
    const receipt = (await deliverOutbox(ctx)).find((m) => m.subject === `Donation to ${DEMO_CHARITY.name}: thank you`)!;
    expect(receipt.text).not.toMatch(/Shipping/);
  });
});

describe('the charity partner on the tutorial', () => {
  test('the Pay tab names the partner, its address and what it does; a store without one shows nothing of it', async () => {
    const ctx = await checkoutStore();
    const html = await (await ctx.client().get('/tutorial?tab=pay')).text();
    const card = textOf(first(html, '[data-charity-partner]')!);
    for (const part of [DEMO_CHARITY.name, DEMO_CHARITY.address, DEMO_CHARITY.about, 'Donate this']) expect(card).toContain(part);
    ctx.config.charity = null;
    expect(first(await (await ctx.client().get('/tutorial?tab=pay')).text(), '[data-charity-partner]')).toBeUndefined();
  });
});
