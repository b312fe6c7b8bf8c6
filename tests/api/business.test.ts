import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { businessApplications } from '../../src/db/schema.ts';
import { testApp, type TestClient } from '../helpers/app.ts';
import { adminWithoutPin, adminWithPin, shopper as registeredShopper } from '../helpers/actors.ts';
import { all, attribute, count, fieldErrors, first, hrefsOf, mainOf, selectOptions, text, textareaValue, textOf, toastOf } from '../helpers/html.ts';

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** These tests start from a shopper with no profile yet. */
const shopper = (ctx: Ctx, username = 'shopper1') => registeredShopper(ctx, username, { withProfile: false });

const MINUTE = 60 * 1000;

/** A complete, valid application as the API takes it. */
const valid = {
  businessName: 'Coast Cafe',
  contactName: 'Mara Reyes',
  email: 'mara@coastcafe.com',
  phone: '949-555-0142',
  address: '250 Forest Ave',
  city: 'Laguna Beach',
  zipCode: '92651',
  businessType: 'restaurant',
  description: 'Breakfast and coffee on Forest Avenue since 2009.',
  website: 'https://coastcafe.com',
  instagramHandle: '@coastcafe',
  termsAgreed: true,
};

/** The same application as the page's form posts it (the checkbox sends 'on'). */
const validForm: Record<string, string> = { ...valid, termsAgreed: 'on' } as unknown as Record<string, string>;

const rows = (ctx: Ctx) => ctx.db.select().from(businessApplications).all();

function apply(client: TestClient, json: unknown) {
  return client.post('/api/business-applications', { json });
}

function postForm(client: TestClient, form: Record<string, string>) {
  return client.post('/business-portal', { form });
}

/** Without the key: what a form sends for an unticked box, or a JSON body that leaves the field out. */
function without(key: string, from: Record<string, unknown>) {
  const copy = { ...from };
  delete copy[key];
  return copy;
}

// ---------------------------------------------------------------- the rules

/** Spec section 5, one row per failing value: the field, what is sent, the message. */
const ruleCases: [string, unknown, string][] = [
  ['businessName', 'A', 'Business name must be at least 2 characters'],
  ['businessName', '   ', 'Business name must be at least 2 characters'],
  ['businessName', undefined, 'Business name must be at least 2 characters'],
  ['contactName', 'M', 'Contact name must be at least 2 characters'],
  ['contactName', undefined, 'Contact name must be at least 2 characters'],
  ['email', 'mara-at-coastcafe', 'Please enter a valid email'],
  ['email', '', 'Please enter a valid email'],
  ['phone', '555-0142', 'Please enter a valid phone number'],
  ['phone', 'call me maybe!', 'Please enter a valid phone number'],
  ['address', '1 Av', 'Address is required'],
  ['address', '', 'Address is required'],
  ['zipCode', '9265', 'Valid ZIP code is required'],
  ['zipCode', 'ABCDE', 'Valid ZIP code is required'],
  ['zipCode', '', 'Valid ZIP code is required'],
  ['businessType', '', 'Please select a business type'],
  ['businessType', 'casino', 'Please select a business type'],
  ['businessType', undefined, 'Please select a business type'],
  ['description', 'Coffee!', 'Please provide a brief description of your business'],
  ['description', '', 'Please provide a brief description of your business'],
  ['termsAgreed', undefined, 'You must agree to the terms and conditions'],
  ['website', 'not a website', 'Please enter a valid website address, such as https://example.com'],
  ['website', 'javascript:alert(1)', 'Please enter a valid website address, such as https://example.com'],
  ['instagramHandle', '@coast cafe!', 'Please enter a valid Instagram handle, such as @yourbusiness'],
  ['businessName', 'B'.repeat(121), 'At most 120 characters'],
  ['description', 'D'.repeat(2001), 'At most 2000 characters'],
];

/** The nine messages an empty application gets, in the form's order. */
const emptyMessages = {
  businessName: 'Business name must be at least 2 characters',
  contactName: 'Contact name must be at least 2 characters',
  email: 'Please enter a valid email',
  phone: 'Please enter a valid phone number',
  address: 'Address is required',
  zipCode: 'Valid ZIP code is required',
  businessType: 'Please select a business type',
  description: 'Please provide a brief description of your business',
  termsAgreed: 'You must agree to the terms and conditions',
};

// ---------------------------------------------------------------- POST /api/business-applications

describe('POST /api/business-applications', () => {
  test('201 with the stored application; the row holds every field', async () => {
    const ctx = await testApp();
    const response = await apply(ctx.client(), valid);
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.any(Number),
      businessName: 'Coast Cafe',
      contactName: 'Mara Reyes',
      email: 'mara@coastcafe.com',
      phone: '949-555-0142',
      address: '250 Forest Ave',
      city: 'Laguna Beach',
      zipCode: '92651',
      businessType: 'restaurant',
      description: 'Breakfast and coffee on Forest Avenue since 2009.',
      website: 'https://coastcafe.com',
      instagramHandle: '@coastcafe',
      termsAgreed: true,
      userId: null,
      createdAt: ctx.clock.now(),
    });
    const stored = rows(ctx);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toEqual({ ...body });
  });

  test.each(ruleCases)('%p = %p: 400 with "%s" and nothing stored', async (field, value, message) => {
    const ctx = await testApp();
    const input = value === undefined ? without(field, valid) : { ...valid, [field]: value };
    const response = await apply(ctx.client(), input);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe(message);
    expect(body.fields).toEqual({ [field]: message });
    expect(rows(ctx)).toHaveLength(0);
  });

  test('termsAgreed must be true itself: false and "yes" are refused', async () => {
    const ctx = await testApp();
    for (const termsAgreed of [false, 'yes', 1]) {
      const response = await apply(ctx.client(), { ...valid, termsAgreed });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: 'You must agree to the terms and conditions',
        fields: { termsAgreed: 'You must agree to the terms and conditions' },
      });
    }
    expect(rows(ctx)).toHaveLength(0);
  });

  test('an empty application: every rule at once, the first as the message', async () => {
    const ctx = await testApp();
    const response = await apply(ctx.client(), {});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Business name must be at least 2 characters', fields: emptyMessages });
    expect(rows(ctx)).toHaveLength(0);
  });

  test('the city is always Laguna Beach, whatever is sent (or when it is left out)', async () => {
    const ctx = await testApp();
    const other = await apply(ctx.client(), { ...valid, city: 'Newport Beach' });
    expect(other.status).toBe(201);
    expect((await other.json()).city).toBe('Laguna Beach');
    const missing = await apply(ctx.client(), without('city', valid));
    expect(missing.status).toBe(201);
    const odd = await apply(ctx.client(), { ...valid, city: 42 });
    expect(odd.status).toBe(201);
    expect(rows(ctx).map((row) => row.city)).toEqual(['Laguna Beach', 'Laguna Beach', 'Laguna Beach']);
  });

  test('website and Instagram are optional: left out or blank they are stored as null', async () => {
    const ctx = await testApp();
    const omitted = await apply(ctx.client(), without('instagramHandle', without('website', valid)));
    expect(omitted.status).toBe(201);
    const blank = await apply(ctx.client(), { ...valid, website: '  ', instagramHandle: '' });
    expect(blank.status).toBe(201);
    expect(rows(ctx).map((row) => [row.website, row.instagramHandle])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  test('a website without its scheme gets https://, a handle gets its @; text is trimmed', async () => {
    const ctx = await testApp();
    const response = await apply(ctx.client(), {
      ...valid,
      businessName: '  Coast Cafe  ',
      website: 'www.coastcafe.com/menu',
      instagramHandle: 'coast.cafe_lb',
      zipCode: ' 92651-1234 ',
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.businessName).toBe('Coast Cafe');
    expect(body.website).toBe('https://www.coastcafe.com/menu');
    expect(body.instagramHandle).toBe('@coast.cafe_lb');
    expect(body.zipCode).toBe('92651-1234');
  });

  test('each business type of spec section 3 is accepted', async () => {
    const ctx = await testApp();
    for (const businessType of ['retail', 'restaurant', 'gallery', 'service', 'hotel', 'other']) {
      expect((await apply(ctx.client(), { ...valid, businessType })).status).toBe(201);
    }
    expect(rows(ctx).map((row) => row.businessType)).toEqual(['retail', 'restaurant', 'gallery', 'service', 'hotel', 'other']);
  });

  test('the signed-in user is recorded', async () => {
    const ctx = await testApp();
    const { client, id } = await shopper(ctx);
    const response = await apply(client, valid);
    expect(response.status).toBe(201);
    expect((await response.json()).userId).toBe(id);
    expect(rows(ctx)[0]!.userId).toBe(id);
  });

  test('a body that is not a JSON object is refused', async () => {
    const ctx = await testApp();
    const notJson = await ctx.client().post('/api/business-applications', { form: validForm });
    expect(notJson.status).toBe(415);
    const array = await apply(ctx.client(), [valid]);
    expect(array.status).toBe(400);
    expect((await array.json()).message).toBe('Send a JSON object.');
    expect(rows(ctx)).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- GET /api/business-applications

describe('GET /api/business-applications', () => {
  test('signed out: 401', async () => {
    const ctx = await testApp();
    const response = await ctx.client().get('/api/business-applications');
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe('Please log in to continue.');
  });

  test('a shopper: 403', async () => {
    const ctx = await testApp();
    const { client } = await shopper(ctx);
    await apply(client, valid);
    const response = await client.get('/api/business-applications');
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe('Admin access required.');
  });

  test('an admin who has not entered the PIN: 403', async () => {
    const ctx = await testApp();
    const admin = await adminWithoutPin(ctx);
    const response = await admin.get('/api/business-applications');
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe('Enter the admin PIN first.');
  });

  test('an admin with the PIN: 200, newest first', async () => {
    const ctx = await testApp();
    const admin = await adminWithPin(ctx);
    expect(await (await admin.get('/api/business-applications')).json()).toEqual([]);
    await apply(ctx.client(), { ...valid, businessName: 'First Shop' });
    ctx.clock.advance(5 * MINUTE);
    await apply(ctx.client(), { ...valid, businessName: 'Second Shop' });
    const response = await admin.get('/api/business-applications');
    expect(response.status).toBe(200);
    const list = await response.json();
    expect(list.map((a: { businessName: string }) => a.businessName)).toEqual(['Second Shop', 'First Shop']);
    expect(list[0]).toMatchObject({ city: 'Laguna Beach', email: 'mara@coastcafe.com', createdAt: ctx.clock.now() });
  });
});

// ---------------------------------------------------------------- /business-portal

describe('/business-portal without JavaScript', () => {
  test('the page: heading, pitch and a form with every field of spec section 3', async () => {
    const ctx = await testApp();
    const response = await ctx.client().get('/business-portal');
    expect(response.status).toBe(200);
    const html = mainOf(await response.text());
    const text = textOf(html);
    expect(text).toContain('Partner with us in Laguna Beach');
    expect(text).toContain('within 2-3 business days');
    expect(attribute(html, 'form', 'method')).toBe('post');
    expect(attribute(html, 'form', 'action')).toBe('/business-portal');
    for (const name of ['businessName', 'contactName', 'email', 'phone', 'address', 'city', 'zipCode', 'website', 'instagramHandle', 'termsAgreed']) {
      expect(count(html, `input[name="${name}"]`)).toBeGreaterThan(0);
    }
    expect(textareaValue(html, 'description')).toBe('');
    expect(attribute(html, 'input[name="city"]', 'value')).toBe('Laguna Beach');
    // React writes readOnly=""; the parser reads attribute names without case.
    expect(attribute(html, 'input[name="city"]', 'readonly')).toBe('');
    expect(attribute(html, 'input[name="termsAgreed"]', 'type')).toBe('checkbox');
    expect(text).toContain('I agree to the terms and conditions');
    expect(selectOptions(html, 'businessType')).toEqual([
      { value: '', label: 'Select a business type', selected: true },
      { value: 'retail', label: 'Retail Store', selected: false },
      { value: 'restaurant', label: 'Restaurant', selected: false },
      { value: 'gallery', label: 'Art Gallery', selected: false },
      { value: 'service', label: 'Service Provider', selected: false },
      { value: 'hotel', label: 'Hotel/Accommodation', selected: false },
      { value: 'other', label: 'Other', selected: false },
    ]);
    expect(text).toContain('Submit Application');
    expect(fieldErrors(html, 'business-')).toEqual({});
  });

  test('an empty form: 400, every message next to its field, the Submission failed toast, nothing stored', async () => {
    const ctx = await testApp();
    const response = await postForm(ctx.client(), { city: 'Laguna Beach' });
    expect(response.status).toBe(400);
    const page = await response.text();
    const html = mainOf(page);
    expect(fieldErrors(html, 'business-')).toEqual(emptyMessages);
    for (const name of ['businessName', 'contactName', 'email', 'phone', 'address', 'zipCode', 'termsAgreed']) {
      expect(attribute(html, `input[name="${name}"]`, 'aria-invalid')).toBe('true');
      expect(attribute(html, `input[name="${name}"]`, 'aria-describedby')).toBe(`business-${name}-error`);
    }
    expect(attribute(html, 'select[name="businessType"]', 'aria-invalid')).toBe('true');
    expect(attribute(html, 'textarea[name="description"]', 'aria-describedby')).toBe('business-description-error');
    expect(toastOf(page)).toEqual({ title: 'Submission failed', description: 'Business name must be at least 2 characters', variant: 'destructive' });
    expect(rows(ctx)).toHaveLength(0);
  });

  test.each(ruleCases)('form %p = %p: "%s" next to the field and in the toast', async (field, value, message) => {
    const ctx = await testApp();
    const form = value === undefined ? (without(field, validForm) as Record<string, string>) : { ...validForm, [field]: String(value) };
    const response = await postForm(ctx.client(), form);
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(fieldErrors(mainOf(page), 'business-')).toEqual({ [field]: message });
    expect(toastOf(page)).toEqual({ title: 'Submission failed', description: message, variant: 'destructive' });
    expect(rows(ctx)).toHaveLength(0);
  });

  test('a refused form keeps what was typed', async () => {
    const ctx = await testApp();
    const typed = { ...validForm, businessType: 'gallery', email: 'not-an-email', description: 'Paintings & "prints" by local artists.' };
    const html = mainOf(await (await postForm(ctx.client(), typed)).text());
    expect(text(html, 'p#business-email-error')).toBe('Please enter a valid email');
    for (const name of ['businessName', 'contactName', 'email', 'phone', 'address', 'zipCode', 'website', 'instagramHandle']) {
      expect(attribute(html, `input[name="${name}"]`, 'value')).toBe((typed as Record<string, string>)[name]!);
    }
    expect(textareaValue(html, 'description')).toBe('Paintings & "prints" by local artists.');
    expect(selectOptions(html, 'businessType').find((o) => o.selected)!.value).toBe('gallery');
    expect(attribute(html, 'input[name="termsAgreed"]', 'checked')).toBe('');
    expect(attribute(html, 'input[name="city"]', 'value')).toBe('Laguna Beach');
  });

  test('success: stored (city Laguna Beach whatever was posted), redirect, Application Received and the toast', async () => {
    const ctx = await testApp();
    const client = ctx.client();
    const response = await postForm(client, { ...validForm, city: 'Irvine', website: '', instagramHandle: '' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/business-portal?submitted=1');
    const stored = rows(ctx);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      businessName: 'Coast Cafe',
      city: 'Laguna Beach',
      businessType: 'restaurant',
      website: null,
      instagramHandle: null,
      termsAgreed: true,
      userId: null,
      createdAt: ctx.clock.now(),
    });

    const received = await client.get('/business-portal?submitted=1');
    expect(received.status).toBe(200);
    const page = await received.text();
    const html = mainOf(page);
    expect(text(html, 'h1')).toBe('Application Received');
    expect(textOf(html)).toContain('within 2-3 business days');
    expect(textOf(html)).toContain('Return to Home');
    expect(hrefsOf(html)).toContain('/');
    expect(count(html, 'form')).toBe(0);
    expect(toastOf(page)).toEqual({
      title: 'Application submitted successfully',
      description: "We've received your application and will contact you soon.",
      variant: 'default',
    });

    // The toast shows once.
    expect(toastOf(await (await client.get('/business-portal?submitted=1')).text())).toBeNull();
  });

  test('a signed-in applicant is recorded', async () => {
    const ctx = await testApp();
    const { client, id } = await shopper(ctx);
    expect((await postForm(client, validForm)).status).toBe(303);
    expect(rows(ctx)[0]!.userId).toBe(id);
  });
});

// ---------------------------------------------------------------- admin Applications tab

describe('admin Applications tab', () => {
  test('an admin with the PIN sees the tab; empty: "No applications yet."', async () => {
    const ctx = await testApp();
    const admin = await adminWithPin(ctx);
    const response = await admin.get('/admin?tab=applications');
    expect(response.status).toBe(200);
    const html = mainOf(await response.text());
    const tabLink = first(html, 'a[href="/admin?tab=applications"]');
    expect(count(html, 'a[href="/admin?tab=applications"]')).toBeGreaterThan(0);
    expect(textOf(tabLink!)).toBe('Applications');
    expect(tabLink!.getAttribute('aria-current')).toBe('page');
    expect(textOf(html)).toContain('No applications yet.');
  });

  test('lists every application newest first with its details', async () => {
    const ctx = await testApp();
    await apply(ctx.client(), {
      ...valid,
      businessName: 'Quiet Gallery',
      businessType: 'gallery',
      website: '',
      instagramHandle: '',
      description: 'Local painters.\nOpen weekends.',
    });
    ctx.clock.advance(90 * MINUTE);
    await apply(ctx.client(), valid);
    const admin = await adminWithPin(ctx);
    const html = mainOf(await (await admin.get('/admin?tab=applications')).text());
    const cards = all(html, 'li').filter((card) => card.querySelector('article'));
    expect(cards.length).toBe(2);
    const [newest, oldest] = cards as [Element, Element];
    const newestText = textOf(newest);
    expect(text(newest, 'h3')).toBe('Coast Cafe');
    expect(newestText).toContain('Restaurant');
    expect(newestText).toContain('Mara Reyes');
    expect(newestText).toContain('949-555-0142');
    expect(newestText).toContain('250 Forest Ave, Laguna Beach 92651');
    expect(newestText).toContain('Breakfast and coffee on Forest Avenue since 2009.');
    // 18:00 UTC plus 90 minutes is 11:30 AM in Laguna Beach (PST in November).
    expect(newestText).toMatch(/Nov 21, 2026, 11:30\sAM/);
    expect(hrefsOf(newest)).toEqual(['mailto:mara@coastcafe.com', 'tel:9495550142', 'https://coastcafe.com', 'https://www.instagram.com/coastcafe/']);
    expect(newestText).toContain('@coastcafe');

    expect(text(oldest, 'h3')).toBe('Quiet Gallery');
    expect(textOf(oldest)).toContain('Art Gallery');
    expect(textOf(oldest)).toMatch(/Nov 21, 2026, 10:00\sAM/);
    expect(textOf(oldest)).not.toContain('Website');
    expect(textOf(oldest)).not.toContain('Instagram');
    expect(hrefsOf(oldest)).toEqual(['mailto:mara@coastcafe.com', 'tel:9495550142']);
    expect(textOf(html)).toContain('2 applications');
  });

  test('a shopper gets Access Denied and an admin without the PIN the PIN screen; neither sees applications', async () => {
    const ctx = await testApp();
    await apply(ctx.client(), valid);
    const { client } = await shopper(ctx);
    const denied = await (await client.get('/admin?tab=applications')).text();
    expect(textOf(mainOf(denied))).toContain('Access Denied');
    expect(denied).not.toContain('Coast Cafe');
    const admin = await adminWithoutPin(ctx);
    const pin = await (await admin.get('/admin?tab=applications')).text();
    expect(textOf(mainOf(pin))).toContain('Admin Authentication');
    expect(pin).not.toContain('Coast Cafe');
  });

  test('the stored row matches the admin listing (sanity: one row per application)', async () => {
    const ctx = await testApp();
    const created = await (await apply(ctx.client(), valid)).json();
    const row = ctx.db.select().from(businessApplications).where(eq(businessApplications.id, created.id)).get();
    expect(row).toBeDefined();
    const admin = await adminWithPin(ctx);
    const list = await (await admin.get('/api/business-applications')).json();
    expect(list).toEqual([created]);
  });
});
