import { expect } from 'bun:test';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { completeProfile, signedInUser } from './actors.ts';

export { signedInUser };
import { TEST_PIN, testApp, type TestClient } from './app.ts';
import { T0 } from './games.ts';
import { toastOf } from './html.ts';
import { IMAGES } from './products.ts';

/*
 * Shared by the admin Influencers and Games tab tests: a seeded store, an admin who passed the
 * PIN, players signed in straight through the session table (no password hashing, so tests stay
 * quick), and a browser-like form post that follows the redirect to read its toast.
 */

export async function seededStore(env: Record<string, string> = {}) {
  const ctx = await testApp(env, { seededAt: T0 });
  await bootstrapAdmin(ctx);
  return ctx;
}
export type Store = Awaited<ReturnType<typeof seededStore>>;

/** The bootstrap admin, signed in; with the PIN passed unless `pin` is false. */
export async function signedInAdmin(ctx: Store, pin = true): Promise<TestClient> {
  const admin = ctx.client();
  expect((await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
  if (pin) expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
  return admin;
}

/** After the clock moved by more than 30 minutes, the admin enters the PIN again. */
export async function unlockAgain(admin: TestClient): Promise<void> {
  expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
}

/** A user who may play: a complete profile with a card, and consent given the way the play page gives it. */
export async function player(ctx: Store, username: string): Promise<{ client: TestClient; id: number }> {
  const user = signedInUser(ctx, username);
  completeProfile(ctx, user.id);
  expect((await user.client.post('/api/user/play-consent', { json: { adult: true, acceptRules: true } })).status).toBe(200);
  return user;
}

/** POST /api/plays then the $1 hold, as the play page does; returns the play. */
export async function enter(p: { client: TestClient }, productId: number, influencerIds: string[]): Promise<{ id: number; gameId: number }> {
  const made = await p.client.post('/api/plays', { json: { productId, influencerIds } });
  expect(made.status).toBe(201);
  const play = (await made.json()) as { id: number; gameId: number };
  expect((await p.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } })).status).toBe(201);
  return play;
}

/** A multipart form post, as a browser without JavaScript sends it. */
export function postForm(client: TestClient, path: string, fields: Record<string, string | File> = {}): Promise<Response> {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return client.request('POST', path, { body });
}

/** Follows a form post's 303 like a browser: where it went, that page and its toast. */
export async function afterRedirect(client: TestClient, response: Response) {
  expect(response.status).toBe(303);
  const location = response.headers.get('location')!;
  const page = await client.get(location);
  expect(page.status).toBe(200);
  const html = await page.text();
  return { location, html, toast: toastOf(html) };
}

/** A 1×1 PNG, read by content like every upload. */
export const png = (name = 'face.png') => new File([IMAGES.png], name, { type: 'image/png' });
/** What a browser sends for a file input left empty. */
export const noFile = () => new File([], '', { type: 'application/octet-stream' });
