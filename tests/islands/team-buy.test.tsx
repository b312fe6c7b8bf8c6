import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import type { ProductTeamsView, TeamView } from '../../src/shared/views/teams.ts';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * The team islands (issue 29 item 1): TeamBuy on the product page starts a team and shows the
 * link to share; TeamJoin on /team/{code} joins. A refusal takes the same ways as a play's:
 * sign in (401), add a card (402 PAYMENT_METHOD_REQUIRED), complete the profile (403).
 */

const realFetch = globalThis.fetch;
const NOW = Date.UTC(2026, 10, 21, 18, 0, 0);
type FetchCall = [string, RequestInit];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const button = (pattern: RegExp) => [...document.querySelectorAll('button')].find((b) => pattern.test(b.textContent ?? ''));

const view: ProductTeamsView = {
  productId: 7,
  pricePerMember: 12.5,
  totalPerMember: 13.5,
  teams: [{ code: 'abcdefghjk', starterName: 'j***3', expiresAt: NOW + 5 * 60 * 60_000 }],
};
const team: TeamView = {
  code: 'abcdefghjk',
  status: 'open',
  expiresAt: NOW + 60 * 60_000,
  product: { id: 7, name: 'Hoka Clifton 9', imageUrl: '', price: 24.99 },
  pricePerMember: 12.5,
  taxPerMember: 1,
  totalPerMember: 13.5,
  size: 2,
  sizeLabel: '',
  starterName: 'j***3',
  members: [{ name: 'j***3', role: 'starter' }],
  viewerIsMember: false,
  viewerIsStarter: false,
};

async function mount(island: ReturnType<typeof createElement>): Promise<void> {
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [island, createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } })]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'the islands to hydrate');
}

const teamBuy = () => createElement(Island, { key: 'island', name: 'TeamBuy', props: { view, productName: 'Clifton 9', now: NOW } });
const teamJoin = () => createElement(Island, { key: 'island', name: 'TeamJoin', props: { team, url: 'http://localhost/team/abcdefghjk', now: NOW } });

function answering(status: number, body: unknown) {
  const fetchMock = mock(async () => json(status, body));
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

let assign: ReturnType<typeof spyOn>;
beforeAll(() => {
  registerDom({ url: 'http://localhost/product/7', width: 390, height: 844 });
  // TeamBuy reads the shopper's own view of the teams on load (their own team, issue 37 item 10).
  answering(200, view);
  assign = spyOn(window.location, 'assign').mockImplementation(() => {});
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  assign.mockRestore();
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

describe('TeamBuy', () => {
  test("'Buy with a friend for $12.50', the open team to join, then Start a team: the link to share", async () => {
    await mount(teamBuy());
    expect(document.querySelector('h2')!.textContent).toBe('Buy with a friend for $12.50');
    expect(document.querySelector('[data-open-teams]')!.textContent).toContain('j***3');
    const fetchMock = answering(201, { code: 'mnpqrstuvw', expiresAt: new Date(NOW).toISOString() });
    button(/^Start a team$/)!.click();
    await until(() => document.querySelector<HTMLInputElement>('[data-share-link]') !== null, 'the share link');
    expect(document.querySelector<HTMLInputElement>('[data-share-link]')!.value).toBe('http://localhost/team/mnpqrstuvw');
    const [url, init] = fetchMock.mock.calls[0] as unknown as FetchCall;
    expect(`${init.method} ${url}`).toBe('POST /api/products/7/teams');
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toBeTruthy();
  });

  test('with a size chosen on the page (issue 38): Start a team for size M sends its variantId', async () => {
    await mount(createElement(Island, { key: 'island', name: 'TeamBuy', props: { view, productName: 'Clifton 9', now: NOW, variantId: 42, sizeLabel: 'M' } }));
    const fetchMock = answering(201, { code: 'mnpqrstuvw', expiresAt: new Date(NOW).toISOString() });
    button(/^Start a team for size M$/)!.click();
    await until(() => document.querySelector<HTMLInputElement>('[data-share-link]') !== null, 'the share link');
    const [url, init] = fetchMock.mock.calls[0] as unknown as FetchCall;
    expect(`${init.method} ${url}`).toBe('POST /api/products/7/teams');
    expect(JSON.parse(String(init.body))).toEqual({ variantId: 42 });
  });

  test('several sizes and none chosen (issue 38): the button says Choose a size, is disabled and posts nothing', async () => {
    await mount(createElement(Island, { key: 'island', name: 'TeamBuy', props: { view, productName: 'Clifton 9', now: NOW, needsSize: true } }));
    const fetchMock = answering(201, { code: 'mnpqrstuvw', expiresAt: new Date(NOW).toISOString() });
    const choose = button(/^Choose a size$/)!;
    expect(choose.disabled).toBe(true);
    choose.click();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock.mock.calls.filter((call) => (call as unknown as FetchCall)[1]?.method === 'POST')).toHaveLength(0);
  });

  test('already has a team for it (409 with its code): its link again', async () => {
    await mount(teamBuy());
    answering(409, { message: 'You already have an open team for this product.', code: 'TEAM_ALREADY_OPEN', teamCode: 'zyxwvutsrq' });
    button(/^Start a team$/)!.click();
    await until(() => document.querySelector<HTMLInputElement>('[data-share-link]') !== null, 'the share link');
    expect(document.querySelector<HTMLInputElement>('[data-share-link]')!.value).toBe('http://localhost/team/zyxwvutsrq');
  });

  test('signed out (401): to sign in and back to the product', async () => {
    await mount(teamBuy());
    assign.mockClear();
    answering(401, { message: 'Please log in to continue.' });
    button(/^Start a team$/)!.click();
    await until(() => assign.mock.calls.length === 1, 'the sign-in page');
    expect(assign).toHaveBeenCalledWith('/auth?next=%2Fproduct%2F7');
  });

  test('no card (402 PAYMENT_METHOD_REQUIRED): the dialog that leads to the Payment tab and back', async () => {
    await mount(teamBuy());
    answering(402, { message: 'Add a payment card to your profile to buy with a friend.', code: 'PAYMENT_METHOD_REQUIRED' });
    button(/^Start a team$/)!.click();
    await until(() => document.querySelector('dialog a') !== null, 'the dialog');
    const link = document.querySelector('dialog a')!;
    expect(link.textContent).toBe('Add Payment Method');
    expect(link.getAttribute('href')).toBe('/profile?tab=payment&next=%2Fproduct%2F7&from=team');
  });
});

describe('TeamJoin', () => {
  test('Join: the team is full, a link to the order; the state line says so too', async () => {
    await mount(teamJoin());
    expect(document.querySelector('[role="status"]')!.textContent).toContain('for a friend to join');
    const fetchMock = answering(201, { code: team.code, status: 'filled', orderId: 12 });
    button(/^Join for \$12\.50$/)!.click();
    await until(() => document.querySelector('[data-team-joined]') !== null, 'the joined note');
    expect(document.querySelector('[data-team-joined]')!.textContent).toContain('Your team is full!');
    expect(document.querySelector('[data-team-joined] a')!.getAttribute('href')).toBe('/orders/12');
    expect(document.querySelector('[role="status"]')!.textContent).toBe('This team is full: both members bought at half price.');
    expect(((fetchMock.mock.calls[0] as unknown as FetchCall)[0] as string).toString()).toBe('/api/teams/abcdefghjk/join');
  });

  test('an incomplete profile (403): the dialog that leads to the profile and back to the team', async () => {
    await mount(teamJoin());
    answering(403, { message: 'Please complete your profile information before making purchases or entering games.', code: 'PROFILE_INCOMPLETE' });
    button(/^Join for/)!.click();
    await until(() => document.querySelector('dialog a') !== null, 'the dialog');
    expect(document.querySelector('dialog a')!.getAttribute('href')).toBe('/profile?tab=personal&next=%2Fteam%2Fabcdefghjk&from=team');
  });
});
