import { Hono } from 'hono';
import { formatDateTime } from '../../../../components/format.ts';
import type { Db } from '../../../../db/client.ts';
import { type AdminTeam, listTeamsForAdmin, TEAM_FILTERS, type TeamFilter, teamFilterOf, teamsCsv } from '../../../../domain/promotions/teams-admin.ts';
import type { AppEnv } from '../../../../http/context.ts';
import { formatUsd } from '../../../../shared/money.ts';

/*
 * The Promotions tab's team buys (issue 29 items 1 and 5): open teams (and those being joined or
 * paid), filled and expired ones, with their members and orders; GET /admin/promotions/teams.csv
 * exports the same list.
 */

export interface TeamsSectionData {
  filter: TeamFilter;
  teams: AdminTeam[];
}

export function teamsSectionData(db: Db, filterParam: string | undefined): TeamsSectionData {
  const filter = teamFilterOf(filterParam);
  return { filter, teams: listTeamsForAdmin(db, filter) };
}

const FILTER_LABELS: Record<TeamFilter, string> = { open: 'Open', filled: 'Filled', expired: 'Expired' };

export function TeamsSection({ data }: { data: TeamsSectionData }) {
  return (
    <section aria-labelledby="admin-teams-heading" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6" data-admin-teams="">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-teams-heading" className="m-0 text-lg font-bold">
          Half price with a friend: teams
        </h2>
        <a href={`/admin/promotions/teams.csv?teams=${data.filter}`} className="font-semibold text-sea-dark" download>
          Export CSV
        </a>
      </div>
      <nav aria-label="Teams by status" className="mb-3 flex gap-2 text-sm">
        {TEAM_FILTERS.map((filter) => (
          <a
            key={filter}
            href={`/admin?tab=promotions&teams=${filter}`}
            aria-current={filter === data.filter ? 'page' : undefined}
            className={`rounded-full px-3 py-1 no-underline ${filter === data.filter ? 'bg-ink text-white' : 'bg-slate-100 text-ink'}`}
          >
            {FILTER_LABELS[filter]}
          </a>
        ))}
      </nav>
      {data.teams.length === 0 ? (
        <p className="m-0 py-4 text-center text-slate-600">No {FILTER_LABELS[data.filter].toLowerCase()} teams.</p>
      ) : (
        <div
          className="relative overflow-x-auto"
          role="region"
          aria-label="Teams"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1).
          tabIndex={0}
        >
          <table className="w-full border-collapse text-left text-sm">
            <thead>
              <tr>
                {['Team', 'Product', 'Members', 'Per member', 'Started', data.filter === 'filled' ? 'Filled' : 'Ends', 'Status'].map((h) => (
                  <th key={h} scope="col" className="border-b border-slate-200 py-2 pr-3 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.teams.map((team) => (
                <tr key={team.code}>
                  <td className="border-b border-slate-100 py-2 pr-3">
                    <a href={`/team/${team.code}`}>{team.code}</a>
                  </td>
                  <td className="border-b border-slate-100 py-2 pr-3">{team.product}</td>
                  <td className="border-b border-slate-100 py-2 pr-3">
                    {team.members.map((m) => (
                      <span key={`${m.username}-${m.role}`} className="block">
                        {m.username} ({m.role}, {m.status}){m.orderId !== null && <a href={`/admin/orders/${m.orderId}/packing-slip`}>{` #${m.orderId}`}</a>}
                      </span>
                    ))}
                  </td>
                  <td className="border-b border-slate-100 py-2 pr-3">{formatUsd(team.perMemberCents)}</td>
                  <td className="border-b border-slate-100 py-2 pr-3">{formatDateTime(team.createdAt)}</td>
                  <td className="border-b border-slate-100 py-2 pr-3">{formatDateTime(team.filledAt ?? team.expiresAt)}</td>
                  <td className="border-b border-slate-100 py-2 pr-3">{team.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** GET /admin/promotions/teams.csv?teams=open|filled|expired (behind the admin gate with the rest of /admin). */
export const adminTeamsRoutes = new Hono<AppEnv>().get('/admin/promotions/teams.csv', (c) => {
  const { filter, teams } = teamsSectionData(c.env.deps.db, c.req.query('teams'));
  const day = new Date(c.env.deps.clock.now()).toISOString().slice(0, 10);
  return c.body(teamsCsv(teams, formatDateTime), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="teams-${filter}-${day}.csv"`,
    'Cache-Control': 'no-store',
  });
});
