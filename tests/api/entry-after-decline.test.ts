import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { payments } from '../../src/db/schema.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { book, gameStore, pay, picks, player, playRows, postPlay } from '../helpers/games.ts';

/* Issue 27, item 2: a declined $1 entry leaves nothing behind, and the way on is named. */

describe('a declined $1 entry', () => {
  test('402 names the card tab (coming back to the game); nothing is held; the play is void', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice', 'cnon:card-nonce-declined');
    const productId = book(ctx).id;
    expect((await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).status).toBe(201);
    const response = await pay(alice, productId);
    expect(response.status).toBe(402);
    const body = await response.json();
    expect(body.message).toContain('Update your payment card');
    expect(body).toMatchObject({ declined: true, actionUrl: `/profile?tab=payment&next=${encodeURIComponent(`/play/${productId}`)}` });
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect(playRows(ctx, alice.id)[0]!.status).toBe('void');
  });

  test('a working card joins at once: no 409, not even in the same millisecond, and each try has its own gateway key', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice', 'cnon:card-nonce-declined');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    expect((await pay(alice, productId)).status).toBe(402);
    const saved = await alice.client.request('PATCH', '/api/user/profile', {
      json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } },
    });
    expect(saved.status).toBe(200);
    // The manual clock has not moved: the re-pick has the declined try's very creation time.
    expect((await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).status).toBe(201);
    const joined = await pay(alice, productId);
    expect(joined.status).toBe(201);
    expect(await joined.json()).toMatchObject({ status: 'entered', amount: 1 });
    const rows = ctx.db.select().from(payments).where(eq(payments.userId, alice.id)).all();
    expect(rows.map((row) => row.status)).toEqual(['failed', 'authorized']);
    expect(new Set(rows.map((row) => row.idempotencyKey)).size).toBe(2);
  });

  test('an entry that was paid stays paid: paying again for it is refused', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    expect((await pay(alice, productId)).status).toBe(201);
    expect((await pay(alice, productId)).status).toBe(404);
    expect((await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).status).toBe(409);
    expect(ctx.gateway.payments()).toHaveLength(1);
  });
});
