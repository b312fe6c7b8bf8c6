import { describe, expect, test } from 'bun:test';
import { COMPLETE_PROFILE, shopper } from '../helpers/actors.ts';
import { testApp } from '../helpers/app.ts';
import { islandProps, parseHtml } from '../helpers/html.ts';

/*
 * Issue 27, item 7: a player sent from a game to fill in the profile (`/profile?next=/play/ID`,
 * the play page's detour) goes straight back to the game once the Personal tab is saved; the
 * picks wait there. A `next` that leaves the store is ignored.
 */

const form = {
  name: COMPLETE_PROFILE.name,
  email: 'back.to.game@example.com',
  phone: COMPLETE_PROFILE.phone,
  'address.line1': COMPLETE_PROFILE.address.line1,
  'address.city': COMPLETE_PROFILE.address.city,
  'address.state': COMPLETE_PROFILE.address.state,
  'address.postalCode': COMPLETE_PROFILE.address.postalCode,
  'address.country': 'USA',
};

describe('the Personal tab opened from a game', () => {
  test('says it goes back, and the saved form returns to the game', async () => {
    const ctx = await testApp();
    const player = await shopper(ctx, 'detour_player', { withProfile: false });
    const page = parseHtml(await (await player.client.get('/profile?tab=personal&next=%2Fplay%2F7')).text());
    const personal = page.querySelector<HTMLFormElement>('form[action^="/profile"]');
    expect(personal?.getAttribute('action')).toBe('/profile?next=%2Fplay%2F7');
    expect(page.querySelector('a[href="/play/7"]')?.textContent).toBe('Back to the game');
    const saved = await player.client.post('/profile?next=%2Fplay%2F7', { form });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/play/7');
  });

  test('a refused save stays on the form and keeps the way back; a next that leaves the store is ignored', async () => {
    const ctx = await testApp();
    const player = await shopper(ctx, 'detour_player2', { withProfile: false });
    const refused = await player.client.post('/profile?next=%2Fplay%2F7', { form: { ...form, 'address.postalCode': '9265' } });
    expect(refused.status).toBe(400);
    expect(
      parseHtml(await refused.text())
        .querySelector('form[action^="/profile"]')
        ?.getAttribute('action'),
    ).toBe('/profile?next=%2Fplay%2F7');
    const elsewhere = await player.client.post('/profile?next=https%3A%2F%2Fevil.example%2F', { form });
    expect(elsewhere.headers.get('location')).toBe('/profile');
  });
});

describe('a detour from an auction or a team (issue 37 item 14)', () => {
  test('one trip: the card, then the details when they are missing too, then back with the amount kept; the back link names where from', async () => {
    const ctx = await testApp();
    const bidder = await shopper(ctx, 'detour_bidder', { withProfile: false });
    const next = encodeURIComponent('/product/7?bid=25.00');
    const paymentHtml = await (await bidder.client.get(`/profile?tab=payment&next=${next}&from=auction`)).text();
    const payment = parseHtml(paymentHtml);
    expect(payment.querySelector('a[href="/product/7?bid=25.00"]')?.textContent).toBe('Back to the auction');
    expect(payment.querySelector('[data-detour="auction"]')?.textContent).toContain('then your details');
    // The card form goes on to the details, with the same way back.
    expect(islandProps<{ returnTo: string }>(paymentHtml, 'PaymentMethodForm').returnTo).toBe(`/profile?tab=personal&next=${next}&from=auction`);
    const personal = parseHtml(await (await bidder.client.get(`/profile?tab=personal&next=${next}&from=auction`)).text());
    expect(personal.querySelector('form[action^="/profile"]')?.getAttribute('action')).toBe(`/profile?next=${next}&from=auction`);
    expect(personal.querySelector('a[href="/product/7?bid=25.00"]')?.textContent).toBe('Back to the auction');
    // Details saved with the card still missing: on to the card, not back yet.
    const saved = await bidder.client.post(`/profile?next=${next}&from=auction`, { form: { ...form, email: 'detour.bidder@example.com' } });
    expect(saved.headers.get('location')).toBe(`/profile?tab=payment&next=${next}&from=auction`);
  });

  test("a team's detour says 'Back to the team'", async () => {
    const ctx = await testApp();
    const joiner = await shopper(ctx, 'detour_joiner', { withProfile: false });
    const page = parseHtml(await (await joiner.client.get(`/profile?tab=personal&next=${encodeURIComponent('/team/abcdefghjk')}&from=team`)).text());
    expect(page.querySelector('a[href="/team/abcdefghjk"]')?.textContent).toBe('Back to the team');
  });
});
