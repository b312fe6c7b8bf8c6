import { describe, expect, test } from 'bun:test';
import { orderLinkKey } from '../../src/domain/orders/visitor-cart.ts';
import { adminWithPin } from '../helpers/actors.ts';
import type { TestApp, TestClient } from '../helpers/app.ts';
import { checkout, checkoutBody, checkoutStore, customer, fillCart, STANDARD, visaToken } from '../helpers/checkout.ts';
import { attribute, first, inputValue, parseHtml, textareaValue, textOf, toastOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/*
 * Issue 37, items 1-3: a guest's order after the sale. The guest follows the links of the real
 * e-mails ('has shipped', 'Refund of'), asks for a return with the link's key (and with only the
 * cart cookie), and a return asked after a part refund stays open for the shopper, the admin's
 * list and Needs attention.
 */

const GUEST = 'gwen@example.com';
const ORIGIN = 'https://shop.example.com';

/** A guest's cart order paid by card, going by Standard Shipping. */
async function guestCardOrder(ctx: TestApp & Awaited<ReturnType<typeof checkoutStore>>) {
  const guest = ctx.client();
  await fillCart(ctx, guest);
  const body = await checkoutBody(guest, STANDARD, { paymentMethod: 'square', paymentToken: visaToken(), customer: { ...customer, email: GUEST } });
  const response = await checkout(guest, body);
  expect(response.status).toBe(201);
  return { guest, orderId: ((await response.json()) as { orderId: number }).orderId };
}

/** The order link and the footnote of the newest e-mail to the guest with this subject. */
async function mailTo(ctx: TestApp, subject: string) {
  const sent = await deliverOutbox(ctx, ORIGIN);
  const mail = sent.find((m) => m.to === GUEST && m.subject === subject);
  expect(mail).toBeDefined();
  const url = mail!.text.match(/View your order: (\S+)/)?.[1];
  expect(url).toBeDefined();
  return { path: url!.replace(ORIGIN, ''), text: mail!.text, html: mail!.html };
}

async function returnForm(client: TestClient, path: string) {
  const page = await client.get(path);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = first(html, 'form[action*="/return-request"]');
  expect(form).toBeDefined();
  return { action: attribute(html, 'form[action*="/return-request"]', 'action')!, key: inputValue(html, 'key'), html };
}

describe('a guest after the sale, from the e-mails', () => {
  test('shipped and refunded e-mails link with the key and speak of the order; the return is asked from the link, stays open after a part refund', async () => {
    const ctx = await checkoutStore();
    const { orderId } = await guestCardOrder(ctx);
    const key = orderLinkKey(ctx.db, orderId);
    const admin = await adminWithPin(ctx);
    await deliverOutbox(ctx, ORIGIN);

    expect((await admin.post(`/api/admin/orders/${orderId}/ship`, { json: { carrier: 'USPS', trackingNumber: '9400111899223100000000' } })).status).toBe(200);
    const shipped = await mailTo(ctx, `Order #${orderId} has shipped`);
    expect(shipped.path).toBe(`/orders/${orderId}?key=${key}`);
    expect(shipped.text).not.toContain('your profile');
    expect(shipped.text).toContain(`order #${orderId} was placed as a guest with this e-mail address`);

    // A part refund before any return is asked (a scratch the admin noticed).
    expect((await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 1000, reason: 'Scratch on the case' } })).status).toBe(200);
    const refunded = await mailTo(ctx, `Refund of $10.00 for order #${orderId}`);
    expect(refunded.path).toBe(`/orders/${orderId}?key=${key}`);
    expect(refunded.text).not.toContain('your profile');

    // Another browser, no cookie: the e-mail's link opens the order and its return form carries the key.
    const reader = ctx.client();
    const form = await returnForm(reader, refunded.path);
    expect(form.action).toBe(`/orders/${orderId}/return-request?key=${key}`);
    expect(form.key).toBe(key);
    const asked = await reader.post(form.action, { form: { key: form.key!, reason: 'The left arm is loose' } });
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe(`/orders/${orderId}?key=${key}#return`);
    const after = await reader.get(asked.headers.get('location')!.replace('#return', ''));
    const page = await after.text();
    expect(toastOf(page)?.title).toBe('Return requested');
    const returns = textOf(first(page, '#return')!);
    expect(returns).toContain('"The left arm is loose"');
    expect(returns).toContain('We will e-mail you within one business day');
    expect(returns).not.toContain('We refunded it');

    // Open for the admin: listed under Needs attention, not marked refunded.
    const tab = textOf(parseHtml(await (await admin.get('/admin?tab=orders')).text()).querySelector('main')!);
    expect(tab).toContain(`Needs attention: Return requests (1) Order #${orderId}`);
    expect(tab).not.toContain('"The left arm is loose" (refunded)');

    // The refund made after it answers it.
    expect((await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 2000, reason: 'Return accepted' } })).status).toBe(200);
    const answered = textOf(parseHtml(await (await admin.get('/admin?tab=orders')).text()).querySelector('main')!);
    expect(answered).not.toContain('Needs attention: Return requests');
    expect(answered).toContain('"The left arm is loose" (refunded)');
    expect(textOf(first(await (await reader.get(`/orders/${orderId}?key=${key}`)).text(), '#return')!)).toContain('We refunded it');
  });

  test('the guest with only the cart cookie asks too; a wrong key is a 404 page; a refused reason comes back as typed', async () => {
    const ctx = await checkoutStore();
    const { guest, orderId } = await guestCardOrder(ctx);
    const admin = await adminWithPin(ctx);
    expect((await admin.post(`/api/admin/orders/${orderId}/ship`, { json: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' } })).status).toBe(200);

    const wrong = await ctx.client().post(`/orders/${orderId}/return-request?key=${'x'.repeat(32)}`, { form: { reason: 'Not mine at all' } });
    expect(wrong.status).toBe(404);
    expect(textOf(first(await wrong.text(), 'main')!)).toContain('This link does not open an order.');
    const wrongApi = await ctx.client().post(`/api/orders/${orderId}/return-request?key=nope`, { json: { reason: 'Not mine at all' } });
    expect(wrongApi.status).toBe(404);

    // Too short: 400, the page again with the words typed and why, nothing asked.
    const short = await guest.post(`/orders/${orderId}/return-request`, { form: { reason: 'no' } });
    expect(short.status).toBe(400);
    const shortPage = await short.text();
    expect(textareaValue(shortPage, 'reason')).toBe('no');
    expect(first(shortPage, '#return-error')).toBeDefined();
    expect(ctx.db.$client.query('select return_requested_at as at from orders where id = ?').get(orderId)).toEqual({ at: null });

    // The guest's own browser (cart cookie, no key) is the order's owner: asked, no detour to /auth.
    const asked = await guest.post(`/orders/${orderId}/return-request`, { form: { reason: 'Too wide for me' } });
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe(`/orders/${orderId}#return`);
    const again = await guest.post(`/orders/${orderId}/return-request`, { form: { reason: 'Still too wide' } });
    expect(again.status).toBe(409);
    expect(textOf(first(await again.text(), '#return')!)).toContain('You wrote: "Still too wide"');

    // Signed out with neither key nor cookie: asked to sign in, as before.
    const nobody = await ctx.client().post(`/orders/${orderId}/return-request`, { form: { reason: 'Who am I' } });
    expect(nobody.status).toBe(302);
    expect(nobody.headers.get('location')).toStartWith('/auth?next=');
  });
});
