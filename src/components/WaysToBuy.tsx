import { waysHref } from '../shared/schemas/catalog.ts';

/*
 * The ways to buy beyond Pay Now and the $1 game (issue 37, item 15), the same four links in the
 * header, the site menu, the footer and on the home page. Auctions and mystery boxes have pages
 * of their own; a team buy and a donation start on a product's page, so they lead to the products
 * that offer them. Static links only: nothing here reads the database, so every page that shows
 * them stays as cacheable as it was.
 */

export const waysToBuy = [
  { href: '/auctions', label: 'Auctions', blurb: 'Bid on one-off pieces: the highest bid when the clock runs out wins.' },
  { href: '/mystery', label: 'Mystery boxes', blurb: 'A box at the price of its cheapest item, with exact odds and a draw you can check.' },
  { href: waysHref('team'), label: 'Team buys', blurb: 'Half price each when a friend joins your team within 24 hours.' },
  { href: waysHref('donate'), label: 'Buy to donate', blurb: 'Buy a piece for our charity partner in Laguna Beach: we hand it over.' },
] as const;

/** A list of the four links, for a menu panel or the footer (`place` names it for tests and styles). */
export function WaysToBuyLinks({ place, linkClassName, listClassName }: { place: string; linkClassName: string; listClassName: string }) {
  return (
    <ul className={`m-0 list-none p-0 ${listClassName}`} data-ways-to-buy={place}>
      {waysToBuy.map((way) => (
        <li key={way.href}>
          <a href={way.href} className={linkClassName}>
            {way.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The home page's section: each way with a line on what it is. */
export function WaysToBuySection() {
  return (
    <section aria-labelledby="ways-to-buy" className="mb-10">
      <h2 id="ways-to-buy" className="m-0 mb-3 text-xl font-extrabold">
        Ways to buy
      </h2>
      <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 sm:grid-cols-2 lg:grid-cols-4" data-ways-to-buy="home">
        {waysToBuy.map((way) => (
          <li key={way.href}>
            <a
              href={way.href}
              className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 text-ink no-underline hover:border-ink focus-visible:border-ink"
            >
              <span className="text-base font-bold">
                {way.label}
                <span aria-hidden="true" className="text-sea-dark">
                  {' →'}
                </span>
              </span>
              <span className="mt-1 text-sm text-slate-600">{way.blurb}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
