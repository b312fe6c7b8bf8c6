import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { products, productVariants, teamMembers, teams, type Product } from '../../db/schema.ts';
import { usernamesOf } from '../accounts/accounts.ts';
import { maskBidderName } from '../auctions/proxy.ts';
import { productLabel } from '../catalog/catalog.ts';
import { sizeLabelFor, sizeLabelOf } from '../inventory/variants.ts';
import { centsToDollars } from '../../shared/money.ts';
import type { OpenTeamView, ProductTeamsView, TeamView } from '../../shared/views/teams.ts';
import { isTeamCode, teamShare } from './teams-rules.ts';

/*
 * What pages and the API show of team buys. Names are masked as the auctions mask bidders
 * ('j***3'): a share link is public, the shoppers in it are not.
 */

/** Open teams a product page lists at most (the soonest to end first). */
export const LISTED_TEAMS = 20;

function usernames(db: Queryable, ids: number[]): Map<number, string> {
  return new Map([...usernamesOf(db, ids)].map(([id, username]) => [id, maskBidderName(username)] as const));
}

export function openTeamsOf(db: Queryable, productId: number, now: number, productType = ''): OpenTeamView[] {
  // The team's size and the product's count of sizes come in the same statement: a product page's budget has no room for another.
  const rows = db
    .select({
      code: teams.code,
      starterId: teams.starterId,
      expiresAt: teams.expiresAt,
      size: productVariants.size,
      sizes: sql<number>`(select count(*) from ${productVariants} where ${productVariants.productId} = ${teams.productId})`,
    })
    .from(teams)
    .leftJoin(productVariants, eq(productVariants.id, teams.variantId))
    .where(and(eq(teams.productId, productId), eq(teams.status, 'open'), gt(teams.expiresAt, now)))
    .orderBy(asc(teams.expiresAt))
    .limit(LISTED_TEAMS)
    .all();
  const names = usernames(
    db,
    rows.map((row) => row.starterId),
  );
  return rows.map((row) => {
    const sizeLabel = row.size === null ? '' : sizeLabelOf(productType, Number(row.sizes), { size: row.size });
    // Said only for a product sold by size: a one-size product's teams carry nothing new.
    return { code: row.code, starterName: names.get(row.starterId) ?? '***', expiresAt: row.expiresAt, ...(sizeLabel ? { sizeLabel } : {}) };
  });
}

/** The viewer's own team on this product while it waits for a friend (a shopper has one at a time), or null. */
function ownOpenTeamCode(db: Queryable, productId: number, userId: number): string | null {
  return (
    db
      .select({ code: teams.code })
      .from(teams)
      .where(and(eq(teams.productId, productId), eq(teams.starterId, userId), inArray(teams.status, ['starting', 'open', 'joining'])))
      .get()?.code ?? null
  );
}

/**
 * The product page's team section, or null when the product is not bought with friends. With a
 * viewer (the API's read, not the shared page) it names their own team, shown as 'Your team'
 * rather than among the teams to join.
 */
export function productTeamsView(
  db: Queryable,
  product: Pick<Product, 'id' | 'priceCents' | 'halfPriceEnabled'> & Partial<Pick<Product, 'productType'>>,
  now: number,
  viewerId: number | null = null,
): ProductTeamsView | null {
  if (!product.halfPriceEnabled) return null;
  const share = teamShare(product.priceCents);
  return {
    productId: product.id,
    pricePerMember: centsToDollars(share.priceCents),
    totalPerMember: centsToDollars(share.holdCents),
    teams: openTeamsOf(db, product.id, now, product.productType),
    ...(viewerId === null ? {} : { yourTeamCode: ownOpenTeamCode(db, product.id, viewerId) }),
  };
}

export function teamView(db: Queryable, code: string, viewerId: number | null): TeamView | null {
  const team = isTeamCode(code) ? db.select().from(teams).where(eq(teams.code, code)).get() : undefined;
  if (!team) return null;
  const product = db.select().from(products).where(eq(products.id, team.productId)).get();
  if (!product) return null;
  const members = db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, team.id), inArray(teamMembers.status, ['holding', 'held', 'paid'])))
    .orderBy(asc(teamMembers.id))
    .all();
  const names = usernames(db, [team.starterId, ...members.map((member) => member.userId)]);
  const own = viewerId === null ? undefined : members.find((member) => member.userId === viewerId);
  return {
    code: team.code,
    status: team.status,
    expiresAt: team.expiresAt,
    product: { id: product.id, name: productLabel(product), imageUrl: product.imageUrl, price: centsToDollars(product.priceCents) },
    pricePerMember: centsToDollars(team.priceCents),
    taxPerMember: centsToDollars(team.taxCents),
    totalPerMember: centsToDollars(team.holdCents),
    size: team.size,
    sizeLabel: sizeLabelFor(db, product.productType, team.variantId),
    starterName: names.get(team.starterId) ?? '***',
    members: members.map((member) => ({ name: names.get(member.userId) ?? '***', role: member.role, you: member.userId === viewerId })),
    viewerIsMember: own !== undefined,
    viewerOrderId: own?.orderId ?? null,
    viewerIsStarter: viewerId !== null && team.starterId === viewerId,
  };
}
