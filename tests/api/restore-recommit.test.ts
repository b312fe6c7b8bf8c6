import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { appSettings, games, mysterySeeds } from '../../src/db/schema.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { isSealed, keyInUse, openSeed, setSeedKey } from '../../src/domain/operations/sealed-seeds.ts';
import { checkSeedKey, recommitAfterRestore, SEED_KEY_MISMATCH, sealPlainSeeds } from '../../src/flows/recommit-seeds.ts';
import { RECOMMIT_SETTING } from '../../src/flows/restore-store.ts';
import { boxOf, seedsOf } from '../helpers/boxes.ts';
import { enter, filledBookGame, gameRow, gameStore, holdsOf, notesOf, picks, player, START, vansTee } from '../helpers/games.ts';

/*
 * The first start of a restored store (issue 36, flows/recommit-seeds.ts): every box and waiting
 * game commits a new seed, every game live at the backup is voided with its holds released and
 * its players told; a store from before sealing has its plain seeds sealed, the same seeds.
 */

const marked = (ctx: { db: import('../../src/db/client.ts').Db }) =>
  ctx.db.insert(appSettings).values({ key: RECOMMIT_SETTING, value: '1', updatedAt: 1 }).run();

describe('the first start after a restore', () => {
  test('re-commits boxes and waiting games and voids live games, once', async () => {
    const ctx = await gameStore();
    boxOf(ctx, 'sunglasses', [2, 3]);
    const live = await filledBookGame(ctx);
    const carol = await player(ctx, 'carol');
    const waiting = await enter(carol, vansTee(ctx).id, picks(ctx, 0));
    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([live.gameId]);
    const boxBefore = seedsOf(ctx, 'sunglasses')[0]!;
    const waitingBefore = gameRow(ctx, waiting.gameId);

    // Not restored: nothing changes.
    expect(await recommitAfterRestore(ctx.deps)).toBeNull();
    expect(seedsOf(ctx, 'sunglasses')).toEqual([boxBefore]);

    marked(ctx);
    const done = await recommitAfterRestore(ctx.deps);
    expect(done).toMatchObject({ reseeded: [waiting.gameId], voided: [live.gameId] });
    // Every priced box (the demo store prices more than this one).
    expect(done!.boxes).toContain('sunglasses');

    const [boxAfter, ...others] = seedsOf(ctx, 'sunglasses');
    expect(others).toEqual([]);
    expect(boxAfter!.seedHash).not.toBe(boxBefore.seedHash);
    expect(openSeed(boxAfter!.seed)).not.toBe(openSeed(boxBefore.seed));
    expect(isSealed(boxAfter!.seed)).toBe(true);

    const waitingAfter = gameRow(ctx, waiting.gameId);
    expect(waitingAfter.status).toBe('waiting');
    expect(waitingAfter.seedHash).not.toBe(waitingBefore.seedHash);
    expect(openSeed(waitingAfter.seed!)).not.toBe(openSeed(waitingBefore.seed!));

    const voided = gameRow(ctx, live.gameId);
    expect(voided.status).toBe('canceled');
    const liveHolds = holdsOf(ctx).filter((hold) => [live.alicePlay, live.bobPlay].includes(hold.playId!));
    expect(liveHolds.map((hold) => hold.status)).toEqual(['voided', 'voided']);
    for (const userId of [live.alice.id, live.bob.id]) {
      expect(notesOf(ctx, userId).map((note) => note.message)).toContainEqual(
        expect.stringContaining('restored from a backup taken while it was being played'),
      );
    }
    // Carol's waiting game keeps her entry and her hold.
    expect(holdsOf(ctx).find((hold) => hold.playId === waiting.id)?.status).toBe('authorized');

    // The marker is gone: a second process starting on the same file does nothing more.
    expect(await recommitAfterRestore(ctx.deps)).toBeNull();
    expect(seedsOf(ctx, 'sunglasses')).toEqual([boxAfter!]);
  });

  test('seeds stored plain (before sealing) are sealed at start-up with the same seed and commitment; revealed ones stay plain', async () => {
    const ctx = await gameStore();
    boxOf(ctx, 'sunglasses', [2, 3]);
    const { gameId } = await filledBookGame(ctx);
    const plainGame = openSeed(gameRow(ctx, gameId).seed!);
    const box = seedsOf(ctx, 'sunglasses')[0]!;
    const plainBox = openSeed(box.seed);
    ctx.db.update(games).set({ seed: plainGame }).where(eq(games.id, gameId)).run();
    ctx.db.update(mysterySeeds).set({ seed: plainBox }).where(eq(mysterySeeds.id, box.id)).run();

    expect(sealPlainSeeds(ctx.db)).toEqual({ games: 1, boxes: 1 });
    expect(isSealed(gameRow(ctx, gameId).seed!)).toBe(true);
    expect(openSeed(gameRow(ctx, gameId).seed!)).toBe(plainGame);
    expect(openSeed(seedsOf(ctx, 'sunglasses')[0]!.seed)).toBe(plainBox);
    expect(seedsOf(ctx, 'sunglasses')[0]!.seedHash).toBe(box.seedHash);
    expect(sealPlainSeeds(ctx.db)).toEqual({ games: 0, boxes: 0 });
  });

  test('a start whose SEED_KEY does not open the sealed seeds is refused, unless a restore is pending (it replaces them)', async () => {
    // The store's rows (the demo boxes' seeds too) are sealed under the process's key.
    const key = keyInUse();
    const ctx = await gameStore();
    boxOf(ctx, 'sunglasses', [2, 3]);
    await filledBookGame(ctx);
    expect(() => checkSeedKey(ctx.db)).not.toThrow();
    setSeedKey(Buffer.alloc(32, 6));
    try {
      expect(() => checkSeedKey(ctx.db)).toThrow(SEED_KEY_MISMATCH);
      marked(ctx);
      expect(() => checkSeedKey(ctx.db)).not.toThrow();
    } finally {
      setSeedKey(key);
    }
  });
});
