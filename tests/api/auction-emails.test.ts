import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products, userProfiles } from '../../src/db/schema.ts';
import { closeDueAuctions } from '../../src/domain/auctions/close.ts';
import { sendPendingEmails } from '../../src/domain/mail/sender.ts';
import { smtpTransport } from '../../src/domain/mail/transport.ts';
import { auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';

/*
 * The auction's e-mails as a bidder receives them, through the outbox and a real SMTP server:
 * the outbid message names the item and the new price and links back to the product page
 * ('Bid again'); the results say won, lost or not sold in so many words.
 */

const DAY = 24 * 60 * 60 * 1000;
const STORE = 'https://shop.example.com';
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.stop();
});

/** Bidders with addresses of their own, so each message is known by its recipient. */
function namedBidders(ctx: AuctionStore, names: string[]) {
  return bidders(ctx, names).map((bidder, i) => {
    ctx.db
      .update(userProfiles)
      .set({ email: `${names[i]}@example.com` })
      .where(eq(userProfiles.userId, bidder.id))
      .run();
    return bidder;
  });
}

async function deliver(ctx: AuctionStore) {
  const transport = smtpTransport(smtp.url, 'Shop <shop@example.com>');
  try {
    await sendPendingEmails({ db: ctx.db, clock: ctx.clock, transport, publicUrl: STORE });
  } finally {
    transport.close();
  }
}
const mailTo = (address: string, subject: string) => smtp.waitFor((mail) => mail.to.includes(address) && mail.subject.includes(subject));

describe('auction e-mails through the outbox', () => {
  test("outbid: the item, the new price and 'Bid again' to /product/{id}; then won and lost at the close", async () => {
    const ctx = await auctionStore();
    const label = 'Maison Lune One-off Frames';
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
    const [alice, bob] = namedBidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, ctx.product.id, 300)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 350)).status).toBe(201);
    await deliver(ctx);

    const outbid = await mailTo('alice1@example.com', "You've been outbid");
    expect(outbid.subject).toContain(label);
    expect(outbid.text).toContain(`Someone bid more than you on ${label}. The price is now $305.00.`);
    expect(outbid.text).toContain(`Bid again: ${STORE}/product/${ctx.product.id}`);
    expect(outbid.html).toContain(`href="${STORE}/product/${ctx.product.id}"`);
    expect(outbid.html).toContain('Bid again');

    ctx.clock.advance(7 * DAY + 60_000);
    await closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
    await deliver(ctx);
    const won = await mailTo('bob22@example.com', `You won ${label}`);
    expect(won.text).toContain(`You won the auction for ${label} at $305.00.`);
    expect(won.text).toMatch(new RegExp(`View Order: ${STORE}/orders/\\d+`));
    const lost = await mailTo('alice1@example.com', `You did not win ${label}`);
    expect(lost.text).toContain('another bidder won it at $305.00. You were not charged.');
    expect(lost.text).toContain(`View Product: ${STORE}/product/${ctx.product.id}`);
  });

  test('unsold (the reserve not met): every bidder is told the item did not sell and nobody was charged', async () => {
    const ctx = await auctionStore();
    const other = ctx.db
      .insert(products)
      .values({ brand: 'Atelier Sol', model: 'AS-RARE-9', name: 'Rare Shades', quantity: 1, priceCents: 90_000, bidEnabled: true, createdAt: ctx.clock.now() })
      .returning()
      .get();
    expect((await putAuction(ctx.admin, other.id, { startingBid: 100, reservePrice: 800 })).status).toBe(200);
    const [carol] = namedBidders(ctx, ['carol3']);
    expect((await placeBid(carol!.client, other.id, 200)).status).toBe(201);
    ctx.clock.advance(7 * DAY + 60_000);
    await closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
    await deliver(ctx);
    const unsold = await mailTo('carol3@example.com', 'ended without a sale');
    expect(unsold.subject).toBe('The auction for Atelier Sol Rare Shades ended without a sale');
    expect(unsold.text).toContain('ended without a sale: the reserve price was not met. Nobody was charged.');
    expect(unsold.text).toContain(`View Product: ${STORE}/product/${other.id}`);
  });
});
