import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, mock, test } from 'bun:test';
import { testApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';

/*
 * /business-portal as the server renders it, hydrated under happy-dom by the real island
 * runtime: the shared rules in the browser, Submitting..., the toasts and Application Received.
 */

let html = '';
const errors: unknown[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  const { client } = await testApp();
  html = await (await client().get('/business-portal')).text();
  registerDom({ url: 'http://localhost/business-portal', width: 390, height: 844 });
  // The form hydrates when the browser is idle. Another island test stubs requestIdleCallback on
  // the shared global and that stub can outlive its window, so this file brings its own.
  (window as unknown as { requestIdleCallback: unknown }).requestIdleCallback = (callback: () => void) => setTimeout(callback, 1);
  const originalError = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args);
    originalError(...args);
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

const form = () => document.querySelector('form[action="/business-portal"]') as HTMLFormElement;
const submitButton = () => form().querySelector('button[type="submit"]') as HTMLButtonElement;
const errorOf = (name: string) => document.getElementById(`business-${name}-error`)?.textContent ?? null;

function fillValid() {
  const set = (name: string, value: string) => {
    (form().querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value = value;
  };
  set('businessName', 'Coast Cafe');
  set('contactName', 'Mara Reyes');
  set('email', 'mara@coastcafe.com');
  set('phone', '949-555-0142');
  set('address', '250 Forest Ave');
  set('zipCode', '92651');
  set('businessType', 'restaurant');
  set('description', 'Breakfast and coffee on Forest Avenue.');
  set('website', 'coastcafe.com');
  set('instagramHandle', '');
  (form().querySelector('[name="termsAgreed"]') as HTMLInputElement).checked = true;
}

const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('BusinessApplicationForm island', () => {
  test('hydrates over the server HTML without a mismatch', async () => {
    await startPageIslands(html);
    await until(
      () =>
        document.querySelector('[data-island="BusinessApplicationForm"][data-hydrated="true"]') !== null &&
        document.querySelector('[data-island="Toaster"][data-hydrated="true"]') !== null,
      'both islands to hydrate',
    );
    expect(errors).toEqual([]);
  });

  test('checks every rule in the browser before calling the API', async () => {
    const fetchMock = mock(realFetch);
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    submitButton().click();
    await until(() => errorOf('businessName') !== null, 'the messages');
    expect(errorOf('businessName')).toBe('Business name must be at least 2 characters');
    expect(errorOf('contactName')).toBe('Contact name must be at least 2 characters');
    expect(errorOf('email')).toBe('Please enter a valid email');
    expect(errorOf('phone')).toBe('Please enter a valid phone number');
    expect(errorOf('address')).toBe('Address is required');
    expect(errorOf('zipCode')).toBe('Valid ZIP code is required');
    expect(errorOf('businessType')).toBe('Please select a business type');
    expect(errorOf('description')).toBe('Please provide a brief description of your business');
    expect(errorOf('termsAgreed')).toBe('You must agree to the terms and conditions');
    expect(errorOf('website')).toBeNull();
    const name = form().querySelector('[name="businessName"]')!;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe('business-businessName-error');
    expect(document.activeElement).toBe(name);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('a website that is not a web address is caught too', async () => {
    const fetchMock = mock(realFetch);
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    fillValid();
    (form().querySelector('[name="website"]') as HTMLInputElement).value = 'not a website';
    submitButton().click();
    await until(() => errorOf('website') !== null, 'the website message');
    expect(errorOf('website')).toBe('Please enter a valid website address, such as https://example.com');
    expect(errorOf('businessName')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('Submitting... while posting; a refusal shows the server message and the Submission failed toast', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = mock(() => new Promise<Response>((resolve) => (answer = resolve)));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    fillValid();
    submitButton().click();
    await until(() => submitButton().textContent === 'Submitting...', 'Submitting...');
    expect(submitButton().disabled).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/business-applications');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({
      businessName: 'Coast Cafe',
      contactName: 'Mara Reyes',
      email: 'mara@coastcafe.com',
      phone: '949-555-0142',
      address: '250 Forest Ave',
      city: 'Laguna Beach',
      zipCode: '92651',
      businessType: 'restaurant',
      description: 'Breakfast and coffee on Forest Avenue.',
      website: 'coastcafe.com',
      instagramHandle: '',
      termsAgreed: true,
    });
    answer(jsonResponse(400, { message: 'Please enter a valid email', fields: { email: 'Please enter a valid email' } }));
    await until(() => document.querySelector('[data-toast]') !== null, 'the toast');
    const toast = document.querySelector('[data-toast]')!;
    expect(toast.textContent).toContain('Submission failed');
    expect(toast.textContent).toContain('Please enter a valid email');
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(errorOf('email')).toBe('Please enter a valid email');
    expect(submitButton().textContent).toBe('Submit Application');
    expect(submitButton().disabled).toBe(false);
  });

  test('a network failure: the fallback message', async () => {
    globalThis.fetch = mock(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    fillValid();
    submitButton().click();
    await until(
      () => document.querySelector('[data-toast]')?.textContent?.includes('There was an error submitting your application. Please try again.') === true,
      'the fallback toast',
    );
  });

  test('success: Application Received in place, the success toast, and the page address', async () => {
    globalThis.fetch = mock(async () => jsonResponse(201, { id: 1 })) as unknown as typeof fetch;
    fillValid();
    submitButton().click();
    await until(() => document.querySelector('h1')?.textContent === 'Application Received', 'Application Received');
    expect(document.querySelector('form[action="/business-portal"]')).toBeNull();
    expect(document.body.textContent).toContain('within 2-3 business days');
    const home = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Return to Home')!;
    expect(home.getAttribute('href')).toBe('/');
    await until(() => document.activeElement?.textContent === 'Application Received', 'focus on the heading');
    await until(() => document.querySelector('[data-toast]')?.textContent?.includes('Application submitted successfully') === true, 'the success toast');
    expect(document.querySelector('[data-toast]')!.textContent).toContain("We've received your application and will contact you soon.");
    expect(window.location.pathname + window.location.search).toBe('/business-portal?submitted=1');
    expect(errors).toEqual([]);
  });
});
