import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { appSettings, cartItems, orders, products, productVariants, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { VISITOR_PREFIX } from '../../shared/visitor.ts';

/*
 * Visitors' carts and guest orders (docs/decisions.md, "A cart anyone can use"). A visitor who
 * adds to the cart gets a guest account: a users row named `visitor:{hash of the cookie's
 * token}` that nobody can sign in to (no registration allows ':' and its password is random and
 * thrown away). Its cart and its orders are ordinary rows, so the money engine, the limits and
 * the reconciler treat a guest exactly like everyone else. On sign-in the cart joins the account.
 */

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newVisitorToken(): string {
  return randomBytes(32).toString('base64url');
}

function visitorUsername(token: string): string {
  return `${VISITOR_PREFIX}${createHash('sha256').update(token).digest('hex').slice(0, 40)}`;
}

/** The guest account of a cookie's token, if it has one. */
export function findVisitor(db: Queryable, token: string | undefined): number | undefined {
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  return visitorQuery(db).get({ username: visitorUsername(token) })?.id;
}

/* Every request with a visitor's cookie asks, and every first add to a cart writes one: built once (db/prepared.ts). */
const visitorQuery = preparedOnce((db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, sql.placeholder('username')), sql`${users.deletedAt} is null`))
    .prepare(),
);
const insertVisitor = preparedOnce((db) =>
  db
    .insert(users)
    .values({ username: sql.placeholder('username'), passwordHash: sql.placeholder('passwordHash'), createdAt: sql.placeholder('createdAt') })
    .returning({ id: users.id })
    .prepare(),
);

// A valid bcrypt hash of a password nobody knows: sign-in with this username always fails the ordinary way.
const unusableHash = () => Bun.password.hashSync(newVisitorToken(), { algorithm: 'bcrypt', cost: 4 });

/** The guest account of a cookie's token, made on first use (the token must be a new, random one). */
export function ensureVisitor(db: Queryable, clock: Clock, token: string): number {
  const found = findVisitor(db, token);
  if (found !== undefined) return found;
  return insertVisitor(db).get({ username: visitorUsername(token), passwordHash: unusableHash(), createdAt: clock.now() })!.id;
}

/**
 * A new cookie token for a guest account whose cookie never reached its browser (the answer
 * that carried it was lost): only the token's hash is stored, so the lost one cannot be sent
 * again, and it stops working. Undefined when the account is no longer a guest's.
 */
export function reissueVisitorToken(db: Queryable, visitorId: number): string | undefined {
  const token = newVisitorToken();
  const moved = db
    .update(users)
    .set({ username: visitorUsername(token) })
    .where(and(eq(users.id, visitorId), sql`${users.username} like ${`${VISITOR_PREFIX}%`}`, sql`${users.deletedAt} is null`))
    .returning({ id: users.id })
    .get();
  return moved ? token : undefined;
}

/**
 * The visitor's cart joins the account's: the same size's units add up to at most what is in
 * stock, lines of products no longer for sale are left out. The guest account keeps its orders.
 */
export function joinVisitorCart(db: Queryable, visitorId: number, userId: number): { moved: number } {
  if (visitorId === userId) return { moved: 0 };
  return db.transaction((tx) => {
    const lines = tx
      .select({
        item: cartItems,
        stock: productVariants.quantity,
        forSale: products.buyNowEnabled,
        price: sql<number>`coalesce(${productVariants.priceCents}, ${products.priceCents})`,
      })
      .from(cartItems)
      .innerJoin(products, eq(cartItems.productId, products.id))
      .innerJoin(productVariants, eq(cartItems.variantId, productVariants.id))
      .where(and(eq(cartItems.userId, visitorId), eq(cartItems.type, 'regular')))
      .all();
    let moved = 0;
    for (const { item, stock, forSale, price } of lines) {
      if (!forSale || stock <= 0) continue;
      const existing = tx
        .select()
        .from(cartItems)
        .where(and(eq(cartItems.userId, userId), eq(cartItems.variantId, item.variantId!), eq(cartItems.type, 'regular')))
        .get();
      const quantity = Math.min(stock, (existing?.quantity ?? 0) + item.quantity);
      if (existing) tx.update(cartItems).set({ quantity, priceCents: price }).where(eq(cartItems.id, existing.id)).run();
      else
        tx.insert(cartItems)
          .values({ userId, productId: item.productId, variantId: item.variantId, quantity, priceCents: price, type: 'regular', addedAt: item.addedAt })
          .run();
      moved += 1;
    }
    tx.delete(cartItems).where(eq(cartItems.userId, visitorId)).run();
    return { moved };
  });
}

const LINK_SECRET_SETTING = 'order_link_secret';

/** The store's secret for order links, made once per database (like the gateway key prefix). */
function linkSecret(db: Queryable): string {
  const read = () => db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, LINK_SECRET_SETTING)).get()?.value;
  const stored = read();
  if (stored) return stored;
  db.insert(appSettings)
    .values({ key: LINK_SECRET_SETTING, value: randomBytes(32).toString('base64url'), updatedAt: Date.now() })
    .onConflictDoNothing()
    .run();
  return read()!;
}

/** The key of an order's e-mailed link: an HMAC of that order's id only, so it opens that order and no other. */
export function orderLinkKey(db: Queryable, orderId: number): string {
  return createHmac('sha256', linkSecret(db)).update(`order:${orderId}`).digest('base64url').slice(0, 32);
}

export function orderLinkPath(db: Queryable, orderId: number): string {
  return `/orders/${orderId}?key=${orderLinkKey(db, orderId)}`;
}

export function orderLinkOpens(db: Queryable, orderId: number, key: string | undefined): boolean {
  if (!key || !Number.isSafeInteger(orderId) || orderId < 1) return false;
  const expected = Buffer.from(orderLinkKey(db, orderId));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Open cash orders of a guest's e-mail across guest accounts: clearing cookies does not lift the cash limit. */
export function openCashOrdersOfEmail(db: Queryable, email: string): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(orders)
      .where(and(sql`lower(${orders.customerEmail}) = lower(${email})`, eq(orders.paymentMethod, 'cod'), eq(orders.status, 'processing')))
      .get()?.n ?? 0
  );
}
