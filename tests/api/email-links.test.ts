import { describe, expect, test } from 'bun:test';
import { seededStore } from '../helpers/admin-tools.ts';
import { deliverOutbox } from '../helpers/outbox.ts';
import { settledBookGame } from '../helpers/settled-game.ts';

/*
 * Issue 27, item 12: the win e-mail's link to the game's record was a bare '/games/1' that no
 * mail client can open; every link of every message is absolute from PUBLIC_URL, and a clickable
 * anchor in the HTML part.
 */

describe('links in the e-mails a game sends', () => {
  test("the winner's e-mail links the game's record absolutely, as text and as an anchor", async () => {
    const ctx = await seededStore();
    const gameId = await settledBookGame(ctx);
    const sent = await deliverOutbox(ctx, 'https://shop.example.com');
    const won = sent.find((message) => message.kind === 'game_won');
    expect(won).toBeDefined();
    expect(won!.text).toContain(`The full result of this game: https://shop.example.com/games/${gameId}.`);
    expect(won!.html).toContain(`<a href="https://shop.example.com/games/${gameId}">https://shop.example.com/games/${gameId}</a>`);
    // No message of the game keeps a path that only works inside the site.
    for (const message of sent) expect(message.text).not.toMatch(/(^|[\s:(])\/[a-z]/m);
  });
});
