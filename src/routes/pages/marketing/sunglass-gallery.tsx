import type { ReactNode } from 'react';
import { ButtonLink, directionsUrl, Hero, NewTabHint, partnerSinceText, partnerStore, partnerYears } from './shared.tsx';

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={id} className="m-0 text-lg font-extrabold">
        {title}
      </h2>
      <div className="mt-3 text-sm text-slate-700">{children}</div>
    </section>
  );
}

/** /sunglass-gallery: the partner store page (spec section 2). */
export function SunglassGalleryPage({ now }: { now: number }) {
  return (
    <div className="grid gap-6">
      <Hero
        eyebrow="Our partner store · Laguna Beach"
        title={partnerStore.name}
        actions={
          <>
            <ButtonLink href="/scoreboard">Shop Now</ButtonLink>
            <ButtonLink href={directionsUrl} tone="light" target="_blank" rel="noopener noreferrer">
              Directions <NewTabHint />
            </ButtonLink>
          </>
        }
      >
        <p className="m-0 font-semibold text-white">{partnerSinceText(now)}</p>
        <p className="m-0 mt-2">Designer sunglasses, expert fittings and repairs, a few steps from Main Beach.</p>
      </Hero>

      <div className="grid gap-4 lg:grid-cols-3">
        <div className="grid gap-4 lg:col-span-2">
          <Card id="about" title="About the gallery">
            <p className="m-0">
              {`${partnerStore.name} opened on Forest Avenue in ${partnerStore.since} with a simple idea: sunglasses should be chosen in the light you will wear them in. For ${partnerYears(now)} years the family-run shop has fitted locals, surfers and visitors with frames that suit their faces and lenses that suit the coast.`}
            </p>
            <p className="m-0 mt-3">
              Every pair of sunglasses in the CSA store comes from the gallery. Play for a pair, or pay for it and have it delivered in Laguna Beach within 2-3
              hours.
            </p>
          </Card>
          <Card id="brands" title="Brands we carry">
            <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
              {partnerStore.brands.map((brand) => (
                <li key={brand} className="rounded-full bg-sand px-3 py-1.5 text-sm font-semibold text-ink">
                  {brand}
                </li>
              ))}
            </ul>
          </Card>
        </div>
        <div className="grid content-start gap-4">
          <Card id="location" title="Location">
            <address className="not-italic">
              <span className="block font-semibold text-ink">{partnerStore.name}</span>
              <span className="block">{partnerStore.street}</span>
              <span className="block">{`${partnerStore.city}, ${partnerStore.state} ${partnerStore.zip}`}</span>
            </address>
            <a href={directionsUrl} target="_blank" rel="noopener noreferrer" className="mt-2 inline-block font-semibold text-sea-dark">
              Get directions <NewTabHint />
            </a>
          </Card>
          <Card id="hours" title="Hours">
            <ul className="m-0 grid list-none gap-1 p-0">
              {partnerStore.hours.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </Card>
          <Card id="contact" title="Contact">
            <ul className="m-0 grid list-none gap-1 p-0">
              <li>
                Phone:{' '}
                <a href={partnerStore.phoneHref} className="font-semibold text-sea-dark">
                  {partnerStore.phone}
                </a>
              </li>
              <li>
                E-mail:{' '}
                <a href={`mailto:${partnerStore.email}`} className="font-semibold text-sea-dark break-all">
                  {partnerStore.email}
                </a>
              </li>
            </ul>
          </Card>
        </div>
      </div>
    </div>
  );
}
