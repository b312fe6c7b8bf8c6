import { describe, expect, test } from 'bun:test';
import { partnerStore } from '../../src/routes/pages/marketing/shared.tsx';
import { testApp } from '../helpers/app.ts';
import { attribute, count, first, hrefsOf, links, metaContent, texts, textOf } from '../helpers/html.ts';

async function page(path: string) {
  const { client } = await testApp();
  const response = await client().get(path);
  return { status: response.status, html: await response.text() };
}

describe('/welcome', () => {
  test('200 with its h1, title, description and canonical path', async () => {
    const { status, html } = await page('/welcome');
    expect(status).toBe(200);
    expect(texts(html, 'h1')).toEqual(['The Competitive Shopping Association']);
    expect(html).toContain('<title>Welcome | CSA</title>');
    expect(metaContent(html, 'description')).toContain('Laguna Beach');
    expect(metaContent(html, 'og:url')).toBe('http://localhost/welcome');
  });

  test('the three hero buttons, and Play Now / Pay Now cards both leading to /scoreboard', async () => {
    const { html } = await page('/welcome');
    for (const link of [
      { href: '/tutorial', text: 'Tutorial' },
      { href: '/business-portal', text: 'Business Portal' },
      { href: '/products', text: 'Start Shopping' },
      { href: '/scoreboard', text: 'Play Now' },
      { href: '/scoreboard', text: 'Pay Now' },
    ])
      expect(links(html)).toContainEqual(link);
    const body = textOf(html);
    expect(body).toContain('pick 5 social-media influencers');
    expect(body).toContain('Free delivery within 2-3 hours in Laguna Beach (92651)');
  });

  test('a collapsible partnership section with the address, phone and a link to /sunglass-gallery', async () => {
    const { html } = await page('/welcome');
    expect(count(html, 'details#partnership')).toBeGreaterThan(0);
    const details = first(html, 'details#partnership')!;
    expect(count(details, 'summary')).toBeGreaterThan(0);
    expect(textOf(details)).toContain(partnerStore.name);
    expect(textOf(details)).toContain(partnerStore.street);
    expect(textOf(details)).toContain('Laguna Beach, CA 92651');
    expect(hrefsOf(details)).toContain('tel:+19495550135');
    expect(textOf(details)).toContain(partnerStore.phone);
    expect(hrefsOf(details)).toContain('/sunglass-gallery');
    // The test clock is November 2026: 38 years since 1988, never a typed-in number.
    expect(textOf(details)).toContain('In business for 38 years, since 1988');
  });

  test('ships no JavaScript', async () => {
    const { html } = await page('/welcome');
    expect(html).not.toContain('data-island=');
  });
});

describe('/tutorial', () => {
  test('How It Works is the default tab, marked with aria-current', async () => {
    const { status, html } = await page('/tutorial');
    expect(status).toBe(200);
    expect(texts(html, 'h1')).toHaveLength(1);
    expect(html).toContain('<title>Tutorial | CSA</title>');
    expect(metaContent(html, 'description')).toContain('$1');
    expect(links(html, 'a[aria-current="page"]')).toContainEqual({ href: '/tutorial', text: 'How It Works' });
    for (const [tab, label] of [
      ['play', 'Play Option'],
      ['pay', 'Pay Option'],
      ['faqs', 'FAQs'],
    ]) {
      expect(html).toContain(`href="/tutorial?tab=${tab}"`);
      expect(texts(html, 'a[aria-current="page"]')).not.toContain(label);
    }
    const body = textOf(html);
    expect(body).toContain('The game starts at the top of the hour');
    expect(body).toContain('price rounded up to whole dollars');
  });

  test('buttons to /scoreboard and /products', async () => {
    const { html } = await page('/tutorial');
    expect(links(html)).toContainEqual({ href: '/scoreboard', text: 'See Live Games' });
    expect(links(html)).toContainEqual({ href: '/products', text: 'Start Shopping' });
  });

  test('?tab=play explains the play option', async () => {
    const { status, html } = await page('/tutorial?tab=play');
    expect(status).toBe(200);
    expect(links(html, 'a[aria-current="page"]')).toContainEqual({ href: '/tutorial?tab=play', text: 'Play Option' });
    expect(html).toContain('<title>Play Option - Tutorial | CSA</title>');
    expect(metaContent(html, 'og:url')).toBe('http://localhost/tutorial?tab=play');
    const body = textOf(html);
    expect(body).toContain('Choose exactly 5 influencers');
    expect(body).toContain('A $149.99 pair of sunglasses needs 150 players');
  });

  test('?tab=pay explains the pay option with delivery, shipping and tax', async () => {
    const { html } = await page('/tutorial?tab=pay');
    expect(texts(html, 'a[aria-current="page"]')).toContain('Pay Option');
    const body = textOf(html);
    expect(body).toContain('Delivery is free and takes 2-3 hours. We deliver within 92651 (Laguna Beach) only.');
    expect(body).toContain('standard $5.99 (5-7 business days) or express $12.99 (2-3 business days)');
    expect(body).toContain('Tax is 8% of the subtotal');
  });

  test('?tab=faqs answers the real game rules, one <details> per question', async () => {
    const { html } = await page('/tutorial?tab=faqs');
    expect(texts(html, 'a[aria-current="page"]')).toContain('FAQs');
    expect(count(html, 'details')).toBeGreaterThanOrEqual(10);
    const body = textOf(html);
    expect(body).toContain("The product's price rounded up to whole dollars, and never fewer than 2.");
    expect(body).toContain('a $1.50 item needs 2');
    expect(body).toContain('At the top of the hour once enough players have paid their entry.');
    expect(body).toContain('One hour, from the top of the hour to the next.');
    expect(body).toContain("sum of your 5 influencers' points over the game's hour");
    expect(body).toContain('followers gained, engagement, growth and posts');
    expect(body).toContain('Ties go to the earlier entry');
    expect(body).toContain('only held on your card when you join. It is charged when the game is decided');
    expect(body).toContain('Nothing is charged. A game that has not filled after 6 days is canceled');
    expect(body).toContain('buys the product for $1');
    expect(body).toContain('donates it to charity');
    expect(body).toContain('30-day money-back guarantee');
    expect(body).toContain('within 2-3 hours, within 92651 (Laguna Beach) only');
    expect(body).toContain('Standard shipping is $5.99 (5-7 business days) and express shipping $12.99 (2-3 business days). Tax is 8% of the subtotal.');
  });

  test('an unknown tab falls back to How It Works', async () => {
    const { status, html } = await page('/tutorial?tab=nope');
    expect(status).toBe(200);
    expect(texts(html, 'a[aria-current="page"]')).toContain('How It Works');
    expect(metaContent(html, 'og:url')).toBe('http://localhost/tutorial');
  });
});

describe('/sunglass-gallery', () => {
  test('200 with its h1, title, about text and brands', async () => {
    const { status, html } = await page('/sunglass-gallery');
    expect(status).toBe(200);
    expect(texts(html, 'h1')).toEqual([partnerStore.name]);
    expect(html).toContain('<title>Sunglass Gallery | CSA</title>');
    expect(metaContent(html, 'description')).toContain('1988');
    const body = textOf(html);
    expect(body).toContain('About the gallery');
    for (const brand of ['Ray-Ban', 'Oakley', 'Persol', 'Maui Jim', 'Costa', 'Oliver Peoples', 'Tom Ford']) expect(html).toContain(`>${brand}</li>`);
  });

  test('the years since 1988 counted by the clock, hours, location and contact', async () => {
    const { html } = await page('/sunglass-gallery');
    expect(html).toContain('In business for 38 years, since 1988');
    expect(html).toContain('For 38 years the family-run shop');
    // A year on, the page says one more: the figure is computed, not typed in.
    const ctx = await testApp();
    ctx.clock.set(Date.UTC(2027, 5, 1));
    const later = await (await ctx.client().get('/sunglass-gallery')).text();
    expect(later).toContain('In business for 39 years, since 1988');
    expect(html).toContain('>Mon-Sat 10:00 AM-6:00 PM</li>');
    expect(html).toContain('>Sunday 11:00 AM-5:00 PM</li>');
    expect(html).toContain(partnerStore.street);
    expect(html).toContain('Laguna Beach, CA 92651');
    expect(html).toContain(`href="${partnerStore.phoneHref}"`);
    expect(html).toContain(`href="mailto:${partnerStore.email}"`);
  });

  test('Directions opens a maps service in a new tab and says so; Shop Now goes to /scoreboard', async () => {
    const { html } = await page('/sunglass-gallery');
    const directions = 'a[href^="https://www.google.com/maps/search/"]';
    expect(count(html, directions)).toBeGreaterThan(0);
    expect(attribute(html, directions, 'href')).toBe(
      'https://www.google.com/maps/search/?api=1&query=228%20Forest%20Avenue%2C%20Laguna%20Beach%2C%20CA%2092651',
    );
    expect(attribute(html, directions, 'target')).toBe('_blank');
    expect(attribute(html, directions, 'rel')).toBe('noopener noreferrer');
    expect(textOf(first(html, directions)!)).toContain('Directions');
    expect(textOf(first(html, directions)!)).toContain('(opens in a new tab)');
    expect(links(html)).toContainEqual({ href: '/scoreboard', text: 'Shop Now' });
  });
});

describe('coach pages', () => {
  const paths = ['/coach', '/coach/twitter', '/coach/instagram', '/coach/youtube', '/coach/tiktok'];

  test('all five paths render the same coming-soon page with Shop Now and the sign-up form', async () => {
    const { client } = await testApp();
    for (const path of paths) {
      const response = await client().get(path);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(texts(html, 'h1')).toEqual(['Coach is coming soon']);
      expect(html).toContain('<title>Coach | CSA</title>');
      expect(metaContent(html, 'og:url')).toBe(`http://localhost${path}`);
      expect(metaContent(html, 'description')).toContain('Coach is coming soon');
      expect(links(html)).toContainEqual({ href: '/products', text: 'Shop Now' });
      expect(count(html, 'form[action="/coach/signup"][method="post"]')).toBeGreaterThan(0);
      expect(html).toContain(`<input type="hidden" name="next" value="${path}"/>`);
      expect(html).toContain('<label for="coach-email"');
      expect(count(html, 'input#coach-email[type="email"][required][name="email"]')).toBeGreaterThan(0);
      expect(html).toContain('>Notify Me</button>');
      expect(count(html, '[href="/coach"][aria-current="page"]')).toBeGreaterThan(0);
      expect(html).not.toContain('data-island=');
    }
  });

  test('the platform name appears in the subtitle', async () => {
    const { html } = await page('/coach/youtube');
    expect(html).toContain('Influencer coaching for YouTube');
    expect((await page('/coach/tiktok')).html).toContain('Influencer coaching for TikTok');
  });

  test('other /coach/* paths are 404', async () => {
    const { client } = await testApp();
    for (const path of ['/coach/facebook', '/coach/signup', '/coach/twitter/x']) {
      const response = await client().get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('404 Page Not Found');
    }
  });
});
