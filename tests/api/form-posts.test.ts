import { describe, expect, test } from 'bun:test';
import { businessApplications, coachSignups, influencers, products } from '../../src/db/schema.ts';
import { afterRedirect, png, seededStore, signedInAdmin, signedInUser } from '../helpers/admin-tools.ts';
import type { TestClient } from '../helpers/app.ts';

/*
 * Issue 11: every form post reads through a named schema (src/shared/schemas), so a post that is
 * not the form's shape (a field sent twice, a file where text belongs, a nested value) is a 4xx
 * that changes nothing, never a 500 and never half a write.
 */

function multipart(client: TestClient, path: string, entries: [string, string | File][]): Promise<Response> {
  const body = new FormData();
  for (const [key, value] of entries) body.append(key, value);
  return client.request('POST', path, { body });
}

const influencerFields: [string, string][] = [
  ['name', 'Kai Shore'],
  ['handle', '@kaishore'],
  ['category', 'Surf'],
  ['engagementRate', '3.5'],
  ['followers.instagram', '1.2M'],
];

describe('admin forms read through their schemas', () => {
  test('influencer form: a repeated name or a file as the handle is the form again with a 400; the proper post is stored', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const before = ctx.db.select().from(influencers).all().length;
    const twice = await multipart(admin, '/admin/influencers/new', [...influencerFields, ['name', 'Kai Again']]);
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain('Send this field once, as text.');
    const fileAsText = await multipart(admin, '/admin/influencers/new', [...influencerFields.filter(([k]) => k !== 'handle'), ['handle', png()]]);
    expect(fileAsText.status).toBe(400);
    expect(ctx.db.select().from(influencers).all()).toHaveLength(before);

    const refused = await multipart(admin, '/admin/influencers/new', [
      ['name', 'K'],
      ['handle', 'kai shore'],
      ['engagementRate', '0x10'],
    ]);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    for (const message of [
      'Name must be 2 to 60 characters.',
      'Handle must be @ followed by 2 to 30 letters, digits, dots or underscores.',
      'Engagement rate must be a number from 0.1 to 20 (percent).',
      'Give the followers of at least one platform.',
    ]) {
      expect(html).toContain(message);
    }

    const stored = await multipart(admin, '/admin/influencers/new', [
      ...influencerFields.filter(([k]) => k !== 'handle'),
      ['handle', 'kaishore'],
      ['avatar', png()],
    ]);
    expect(stored.status).toBe(303);
    const person = ctx.db
      .select()
      .from(influencers)
      .all()
      .find((p) => p.name === 'Kai Shore')!;
    expect(person).toMatchObject({ handle: '@kaishore', engagementRate: 3.5, platforms: { instagram: '1.2M' } });
  });

  test('product form: a field sent twice is refused with a toast and no product; the products API refuses nested values by field', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    const count = () => ctx.db.select().from(products).all().length;
    const before = count();
    const fields: [string, string | File][] = [
      ['brand', 'Laguna Tee'],
      ['sku', 'LT-1'],
      ['size', 'L'],
      ['price', '24.50'],
      ['quantity', '3'],
      ['description', 'Soft.'],
      ['image', png('tee.png')],
    ];
    const twice = await multipart(admin, '/admin/tshirt/new', [...fields, ['price', '1.00']]);
    const { toast } = await afterRedirect(admin, twice);
    expect(toast).toMatchObject({ title: 'Creation failed', variant: 'destructive' });
    expect(count()).toBe(before);

    const nested = await admin.post('/api/products', { json: { productType: 'tshirt', brand: 'X', model: 'Y', price: { amount: 5 }, quantity: 1 } });
    expect(nested.status).toBe(400);
    expect(await nested.json()).toMatchObject({ fields: { price: 'Send each product field as text, a number or true/false.' } });
    const data = new FormData();
    data.append('data', JSON.stringify({ productType: 'tshirt', brand: 'X', model: 'Y', price: 5, quantity: 1 }));
    data.append('data', '{}');
    data.append('image', png());
    expect((await admin.request('POST', '/api/products', { body: data })).status).toBe(400);
    expect(count()).toBe(before);

    const made = await multipart(admin, '/admin/tshirt/new', fields);
    expect(made.status).toBe(303);
    expect(count()).toBe(before + 1);
  });

  test('the admin page query: unknown tabs, statuses and prototype names fall back, long searches are cut', async () => {
    const ctx = await seededStore();
    const admin = await signedInAdmin(ctx);
    for (const query of ['tab=__proto__', 'tab=constructor&status=toString', `tab=orders&status=failed&q=${'x'.repeat(500)}`, 'tab=shoe&tab=book']) {
      expect((await admin.get(`/admin?${query}`)).status).toBe(200);
    }
  });
});

describe('public forms read through their schemas', () => {
  test('business portal: termsAgreed as a file or a repeated e-mail is the form again with a 400 and nothing stored', async () => {
    const ctx = await seededStore();
    const visitor = ctx.client();
    const response = await multipart(visitor, '/business-portal', [
      ['businessName', 'Surf Shack'],
      ['email', 'a@example.com'],
      ['email', 'b@example.com'],
      ['termsAgreed', 'on'],
    ]);
    expect(response.status).toBe(400);
    const asFile = await multipart(visitor, '/business-portal', [
      ['businessName', 'Surf Shack'],
      ['termsAgreed', png()],
    ]);
    expect(asFile.status).toBe(400);
    expect(ctx.db.select().from(businessApplications).all()).toHaveLength(0);
  });

  test('coach signup: an e-mail sent twice is a 400 with the form; one e-mail is listed once', async () => {
    const ctx = await seededStore();
    const { client } = signedInUser(ctx, 'fan');
    const once = await client.post('/coach/signup', { form: { email: 'fan@example.com' } });
    expect(once.status).toBe(303);
    const body = new URLSearchParams([
      ['email', 'x@example.com'],
      ['email', 'y@example.com'],
    ]);
    const refused = await client.request('POST', '/coach/signup', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(refused.status).toBe(400);
    expect(
      ctx.db
        .select()
        .from(coachSignups)
        .all()
        .map((row) => row.email),
    ).toEqual(['fan@example.com']);
  });
});
