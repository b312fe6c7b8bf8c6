import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { products, teamMembers, teams, users, type TeamStatus } from '../../db/schema.ts';
import { teamItemLabel } from './teams-rules.ts';
import { csvCell } from '../../shared/csv.ts';

/*
 * The admin's view of team buys (Promotions tab): open teams (with those being joined or paid),
 * filled and expired ones, each with its members, their orders and the money held per member;
 * and the same list as CSV.
 */

export const TEAM_FILTERS = ['open', 'filled', 'expired'] as const;
export type TeamFilter = (typeof TEAM_FILTERS)[number];
/** Rows the tab and the CSV show at most, newest first. */
export const ADMIN_TEAMS_SHOWN = 500;

const STATUSES: Record<TeamFilter, TeamStatus[]> = {
  open: ['starting', 'open', 'joining', 'capturing'],
  filled: ['filled'],
  expired: ['expired', 'cancelled'],
};

export interface AdminTeam {
  code: string;
  status: TeamStatus;
  product: string;
  productId: number;
  members: { username: string; role: string; status: string; orderId: number | null }[];
  perMemberCents: number;
  createdAt: number;
  expiresAt: number;
  filledAt: number | null;
}

export function teamFilterOf(value: string | undefined): TeamFilter {
  return (TEAM_FILTERS as readonly string[]).includes(value ?? '') ? (value as TeamFilter) : 'open';
}

export function listTeamsForAdmin(db: Queryable, filter: TeamFilter, limit = ADMIN_TEAMS_SHOWN): AdminTeam[] {
  const where: SQL = inArray(teams.status, STATUSES[filter]);
  const rows = db
    .select({ team: teams, product: products })
    .from(teams)
    .innerJoin(products, eq(products.id, teams.productId))
    .where(where)
    .orderBy(desc(teams.id))
    .limit(limit)
    .all();
  if (rows.length === 0) return [];
  const members = db
    .select({ member: teamMembers, username: users.username })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(
        inArray(
          teamMembers.teamId,
          rows.map((row) => row.team.id),
        ),
      ),
    )
    .orderBy(teamMembers.id)
    .all();
  return rows.map(({ team, product }) => ({
    code: team.code,
    status: team.status,
    product: teamItemLabel(db, product, team.variantId),
    productId: product.id,
    members: members
      .filter((row) => row.member.teamId === team.id)
      .map((row) => ({ username: row.username, role: row.member.role, status: row.member.status, orderId: row.member.orderId })),
    perMemberCents: team.holdCents,
    createdAt: team.createdAt,
    expiresAt: team.expiresAt,
    filledAt: team.filledAt,
  }));
}

const CSV_COLUMNS = ['Team', 'Status', 'Product', 'Started', 'Ends', 'Filled', 'Per member', 'Members', 'Orders'];

export function teamsCsv(list: AdminTeam[], formatTime: (ms: number) => string): string {
  const rows = list.map((team) =>
    [
      team.code,
      team.status,
      team.product,
      formatTime(team.createdAt),
      formatTime(team.expiresAt),
      team.filledAt === null ? '' : formatTime(team.filledAt),
      (team.perMemberCents / 100).toFixed(2),
      team.members.map((m) => `${m.username} (${m.role}, ${m.status})`).join('; '),
      team.members.flatMap((m) => (m.orderId === null ? [] : [`#${m.orderId}`])).join('; '),
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
